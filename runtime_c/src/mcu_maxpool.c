#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/* The largest of one channel's taps inside the image, the element type chosen once per window. */
static inline int32_t window_max(const void *input, int32_t first, int32_t row_step, int32_t ch, int32_t rows,
                                 int32_t cols, int32_t bits)
{
    int32_t best = INT32_MIN;
    if (bits == 16) {
        const int16_t *x = (const int16_t *)input + first;
        for (int32_t ky = 0; ky < rows; ++ky, x += row_step) {
            for (int32_t kx = 0; kx < cols; ++kx) {
                best = x[kx * ch] > best ? x[kx * ch] : best;
            }
        }
    } else {
        const int8_t *x = (const int8_t *)input + first;
        for (int32_t ky = 0; ky < rows; ++ky, x += row_step) {
            for (int32_t kx = 0; kx < cols; ++kx) {
                best = x[kx * ch] > best ? x[kx * ch] : best;
            }
        }
    }
    return best;
}

static inline void maxpool_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores through int8 pointers could alias it */
    mcu_pool_walk *s = (mcu_pool_walk *)state;
    const mcu_pool_params *pool = s->pool;
    const int32_t in_w = s->input_dims->w, ch = s->input_dims->c;
    const int32_t first = ((win.batch * s->input_dims->h + win.y0 + win.ky0) * in_w + win.x0 + win.kx0) * ch;
    for (int32_t c = 0; c < ch; ++c) {
        const int32_t best = window_max(s->input, first + c, in_w * ch, ch, win.ky1 - win.ky0, win.kx1 - win.kx0,
                                        pool->bits);
        mcu_store(s->output, s->at++, pool->bits, mcu_clamp(best, pool->activation));
    }
}

/* Reference MAX_POOL_2D (TFLM reference_integer_ops::MaxPool) over the in-image taps; int8 or int16. */
void mcu_maxpool(const mcu_pool_params *pool, const mcu_dims *input_dims, const void *input,
                 const mcu_dims *output_dims, void *output)
{
    mcu_pool_walk state = {pool, input_dims, input, output, 0};
    const mcu_tile one = {1, 1};
    mcu_window_walk(input_dims, output_dims, pool->stride, pool->padding, one, pool->filter, maxpool_position, &state);
}
