#include <float.h>

#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

static inline void maxpool_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window;
    mcu_float_pool_walk *s = (mcu_float_pool_walk *)state;
    const int32_t ch = s->input_dims->c;
    for (int32_t c = 0; c < ch; ++c) {
        float max = -FLT_MAX;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int32_t row = (win.batch * s->input_dims->h + win.y0 + ky) * s->input_dims->w;
            const float *x = s->input + (row + win.x0 + win.kx0) * ch + c;
            for (int32_t kx = 0; kx < win.kx1 - win.kx0; ++kx) {
                max = max < x[kx * ch] ? x[kx * ch] : max;
            }
        }
        *s->output++ = mcu_clamp_f32(max, s->params->activation);
    }
}

/*
 * Reference MAX_POOL_2D in float32 (TFLM reference_ops::MaxPool): from the lowest float, each
 * in-image tap taken where the running maximum is below it (std::max: a NaN tap is passed over).
 */
void mcu_maxpool_f32(const mcu_float_pool_params *params, const mcu_dims *input_dims, const float *input,
                     const mcu_dims *output_dims, float *output)
{
    mcu_float_pool_walk state = {params, input_dims, input, output};
    const mcu_tile one = {1, 1};
    mcu_window_walk(input_dims, output_dims, params->stride, params->padding, one, params->filter, maxpool_position,
                    &state);
}
