#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

static inline void avgpool_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window;
    mcu_float_pool_walk *s = (mcu_float_pool_walk *)state;
    const int32_t ch = s->input_dims->c;
    const float count = (float)((win.ky1 - win.ky0) * (win.kx1 - win.kx0));
    for (int32_t c = 0; c < ch; ++c) {
        float total = 0.0f;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int32_t row = (win.batch * s->input_dims->h + win.y0 + ky) * s->input_dims->w;
            const float *x = s->input + (row + win.x0 + win.kx0) * ch + c;
            for (int32_t kx = 0; kx < win.kx1 - win.kx0; ++kx) {
                total += x[kx * ch];
            }
        }
        /* a window with no pixel (an output declared past the image): 0, where TFLM stops and leaves its arena */
        *s->output++ = count > 0.0f ? mcu_clamp_f32(total / count, s->params->activation) : 0.0f;
    }
}

/*
 * Reference AVERAGE_POOL_2D in float32 (TFLM reference_ops::AveragePool): the in-image taps summed
 * row by row from 0.0f and divided by their count (a float); the padding counts for nothing.
 */
void mcu_avgpool_f32(const mcu_float_pool_params *params, const mcu_dims *input_dims, const float *input,
                     const mcu_dims *output_dims, float *output)
{
    mcu_float_pool_walk state = {params, input_dims, input, output};
    const mcu_tile one = {1, 1};
    mcu_window_walk(input_dims, output_dims, params->stride, params->padding, one, params->filter, avgpool_position,
                    &state);
}
