#include "mcu_nn_fp_exact.h"

#include <float.h>

#include "mcu_nn_support.h"

/*
 * Reference MAX_POOL_2D in float32 (TFLM reference_ops::MaxPool): from the lowest float, each
 * in-image tap taken where the running maximum is below it (std::max: a NaN tap is passed over).
 */
void mcu_maxpool_f32(const mcu_float_pool_params *params, const mcu_dims *input_dims, const float *input,
                     const mcu_dims *output_dims, float *output)
{
    const int32_t ch = input_dims->c;
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, params->filter.h, 1, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, params->filter.w, 1, input_dims->w, &kx0, &kx1);
                for (int32_t c = 0; c < ch; ++c) {
                    float max = -FLT_MAX;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        const float *x = input + ((b * input_dims->h + y0 + ky) * input_dims->w + x0) * ch + c;
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            max = max < x[kx * ch] ? x[kx * ch] : max;
                        }
                    }
                    *output++ = mcu_clamp_f32(max, params->activation);
                }
            }
        }
    }
}
