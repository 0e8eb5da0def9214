#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/* The sum of one channel's taps inside the image, the element type chosen once per window. */
static inline int32_t window_sum(const void *input, int32_t first, int32_t row_step, int32_t ch, int32_t rows,
                                 int32_t cols, int32_t bits)
{
    int32_t sum = 0;
    if (bits == 16) {
        const int16_t *x = (const int16_t *)input + first;
        for (int32_t ky = 0; ky < rows; ++ky, x += row_step) {
            for (int32_t kx = 0; kx < cols; ++kx) {
                sum += x[kx * ch];
            }
        }
    } else {
        const int8_t *x = (const int8_t *)input + first;
        for (int32_t ky = 0; ky < rows; ++ky, x += row_step) {
            for (int32_t kx = 0; kx < cols; ++kx) {
                sum += x[kx * ch];
            }
        }
    }
    return sum;
}

static inline void avgpool_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores through int8 pointers could alias it */
    mcu_pool_walk *s = (mcu_pool_walk *)state;
    const mcu_pool_params *pool = s->pool;
    const int32_t in_w = s->input_dims->w, ch = s->input_dims->c, rows = win.ky1 - win.ky0, cols = win.kx1 - win.kx0;
    const int32_t first = ((win.batch * s->input_dims->h + win.y0 + win.ky0) * in_w + win.x0 + win.kx0) * ch;
    const int32_t count = rows * cols;
    for (int32_t c = 0; c < ch; ++c) {
        int32_t sum = window_sum(s->input, first + c, in_w * ch, ch, rows, cols, pool->bits);
        /* a window with no pixel (an output declared past the image): 0, where TFLM stops and leaves its arena */
        sum = count == 0 ? 0 : sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
        mcu_store(s->output, s->at++, pool->bits, mcu_clamp(sum, pool->activation));
    }
}

/*
 * Reference AVERAGE_POOL_2D (TFLM reference_integer_ops::AveragePool): only in-image taps count,
 * and the mean rounds half away from zero with truncating C division, as TFLM does. int8 or int16.
 */
void mcu_avgpool(const mcu_pool_params *pool, const mcu_dims *input_dims, const void *input,
                 const mcu_dims *output_dims, void *output)
{
    mcu_pool_walk state = {pool, input_dims, input, output, 0};
    const mcu_tile one = {1, 1};
    mcu_window_walk(input_dims, output_dims, pool->stride, pool->padding, one, pool->filter, avgpool_position, &state);
}
