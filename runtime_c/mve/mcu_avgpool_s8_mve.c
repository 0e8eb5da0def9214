#include "mcu_nn_mve.h"
#include "mcu_nn_window.h"

/* One output position: four channels per vector, each in-image tap's widened as it loads and summed in
 * 32-bit lanes; the rounding division (MVE divides no vector) per channel, as mcu_avgpool does it. */
static inline void avgpool_mve_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores through int8 pointers could alias it */
    mcu_pool_walk *s = (mcu_pool_walk *)state;
    const mcu_activation act = s->pool->activation;
    const int32_t in_w = s->input_dims->w, ch = s->input_dims->c, count = (win.ky1 - win.ky0) * (win.kx1 - win.kx0);
    const int8_t *corner = (const int8_t *)s->input + ((win.batch * s->input_dims->h + win.y0 + win.ky0) * in_w + win.x0 + win.kx0) * ch;
    for (int32_t c = 0; c < ch; c += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(ch - c));
        int32x4_t sum = vdupq_n_s32(0);
        const int8_t *row = corner + c;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky, row += in_w * ch) {
            const int8_t *x = row;
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx, x += ch) {
                sum = vaddq_s32(sum, vldrbq_z_s32(x, p));
            }
        }
        int32_t sums[4];
        vstrwq_s32(sums, sum);
        for (int32_t k = 0; k < 4 && c + k < ch; ++k) {
            const int32_t v = sums[k] > 0 ? (sums[k] + count / 2) / count : (sums[k] - count / 2) / count;
            ((int8_t *)s->output)[s->at + c + k] = (int8_t)mcu_clamp(v, act);
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
