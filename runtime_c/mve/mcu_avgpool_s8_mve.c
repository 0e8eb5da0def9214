#include "mcu_nn_mve.h"
#include "mcu_nn_window.h"

/* The rounding division of mcu_avgpool (MVE divides no vector) of n channels' sums, clamped, stored. */
static inline void divide_store(const int32_t *sums, int32_t n, int32_t count, mcu_activation act, int8_t *out)
{
    for (int32_t k = 0; k < n; ++k) {
        const int32_t v = sums[k] > 0 ? (sums[k] + count / 2) / count : (sums[k] - count / 2) / count;
        out[k] = (int8_t)mcu_clamp(v, act);
    }
}

/* One output position: each in-image tap's channels widened as they load and summed, eight channels per
 * vector in 16-bit lanes where the window's sums fit them (at most 256 taps of int8), else four in
 * 32-bit lanes. */
static inline void avgpool_mve_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores through int8 pointers could alias it */
    mcu_pool_walk *s = (mcu_pool_walk *)state;
    const mcu_activation act = s->pool->activation;
    const int32_t in_w = s->input_dims->w, ch = s->input_dims->c, count = (win.ky1 - win.ky0) * (win.kx1 - win.kx0);
    const int8_t *corner = (const int8_t *)s->input + ((win.batch * s->input_dims->h + win.y0 + win.ky0) * in_w + win.x0 + win.kx0) * ch;
    int8_t *out = (int8_t *)s->output + s->at;
    const int narrow = count <= 256;
    for (int32_t c = 0; c < ch; c += narrow ? 8 : 4) {
        int32_t sums[8];
        const int8_t *row = corner + c;
        if (narrow) {
            const mve_pred16_t p = vctp16q((uint32_t)(ch - c));
            int16x8_t sum = vdupq_n_s16(0);
            if (win.kx1 - win.kx0 == in_w && ch - c >= 8) {
                /* whole rows (a global pool): the taps one run of pixels, eight whole channels each */
                const int8_t *x = row;
                for (int32_t k = 0; k < count; ++k, x += ch) {
                    sum = vaddq_s16(sum, vldrbq_s16(x));
                }
            } else {
                for (int32_t ky = win.ky0; ky < win.ky1; ++ky, row += in_w * ch) {
                    const int8_t *x = row;
                    for (int32_t kx = win.kx0; kx < win.kx1; ++kx, x += ch) {
                        sum = vaddq_s16(sum, vldrbq_z_s16(x, p));
                    }
                }
            }
            vstrwq_s32(sums, vmovlbq_s16(sum)); /* channels 0, 2, 4, 6 */
            vstrwq_s32(sums + 4, vmovltq_s16(sum)); /* 1, 3, 5, 7 */
            const int32_t order[8] = {sums[0], sums[4], sums[1], sums[5], sums[2], sums[6], sums[3], sums[7]};
            divide_store(order, ch - c < 8 ? ch - c : 8, count, act, out + c);
        } else {
            const mve_pred16_t p = vctp32q((uint32_t)(ch - c));
            int32x4_t sum = vdupq_n_s32(0);
            for (int32_t ky = win.ky0; ky < win.ky1; ++ky, row += in_w * ch) {
                const int8_t *x = row;
                for (int32_t kx = win.kx0; kx < win.kx1; ++kx, x += ch) {
                    sum = vaddq_s32(sum, vldrbq_z_s32(x, p));
                }
            }
            vstrwq_s32(sums, sum);
            divide_store(sums, ch - c < 4 ? ch - c : 4, count, act, out + c);
        }
    }
    s->at += ch;
}

/* AVERAGE_POOL_2D of int8 on Helium (MVE) cores: mcu_avgpool's results (pool->bits 8). */
void mcu_avgpool_s8_mve(const mcu_pool_params *pool, const mcu_dims *input_dims, const int8_t *input,
                        const mcu_dims *output_dims, int8_t *output)
{
    mcu_pool_walk state = {pool, input_dims, input, output, 0};
    const mcu_tile one = {1, 1};
    mcu_window_walk(input_dims, output_dims, pool->stride, pool->padding, one, pool->filter, avgpool_mve_position,
                    &state);
}
