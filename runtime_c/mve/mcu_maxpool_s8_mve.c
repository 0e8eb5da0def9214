#include "mcu_nn_mve.h"
#include "mcu_nn_window.h"

/* One output position: sixteen channels per vector, the in-image taps' bytes compared as they are (VMAX),
 * the last vector predicated, then the fused activation's clamp. */
static inline void maxpool_mve_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores through int8 pointers could alias it */
    mcu_pool_walk *s = (mcu_pool_walk *)state;
    const int8x16_t low = vdupq_n_s8((int8_t)s->pool->activation.min), high = vdupq_n_s8((int8_t)s->pool->activation.max);
    const int32_t in_w = s->input_dims->w, ch = s->input_dims->c;
    const int8_t *corner = (const int8_t *)s->input + ((win.batch * s->input_dims->h + win.y0 + win.ky0) * in_w + win.x0 + win.kx0) * ch;
    for (int32_t c = 0; c < ch; c += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(ch - c));
        int8x16_t best = vdupq_n_s8(-128);
        const int8_t *row = corner + c;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky, row += in_w * ch) {
            const int8_t *x = row;
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx, x += ch) {
                best = vmaxq_s8(best, vldrbq_z_s8(x, p));
            }
        }
        vstrbq_p_s8((int8_t *)s->output + s->at + c, vminq_s8(vmaxq_s8(best, low), high), p);
    }
    s->at += ch;
}

/* MAX_POOL_2D of int8 on Helium (MVE) cores: mcu_maxpool's results (pool->bits 8). */
void mcu_maxpool_s8_mve(const mcu_pool_params *pool, const mcu_dims *input_dims, const int8_t *input,
                        const mcu_dims *output_dims, int8_t *output)
{
    mcu_pool_walk state = {pool, input_dims, input, output, 0};
    const mcu_tile one = {1, 1};
    mcu_window_walk(input_dims, output_dims, pool->stride, pool->padding, one, pool->filter, maxpool_mve_position,
                    &state);
}
