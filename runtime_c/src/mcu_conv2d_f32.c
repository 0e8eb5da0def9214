#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/*
 * Reference CONV_2D in float32 (TFLM reference_ops::Conv): each output sums its in-image taps in
 * filter row, filter column, input channel order from 0.0f, then adds the bias; taps in the padding
 * are skipped, not multiplied by zero (an infinite weight there would make a NaN).
 */
void mcu_conv2d_f32(const mcu_float_conv_params *params, const mcu_dims *input_dims, const float *input,
                    const mcu_dims *filter_dims, const float *filter, const float *bias,
                    const mcu_dims *output_dims, float *output)
{
    const int32_t depth = filter_dims->c, per_group = output_dims->c / (input_dims->c / depth);
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, params->dilation.h, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, params->dilation.w, input_dims->w, &kx0, &kx1);
                for (int32_t oc = 0; oc < output_dims->c; ++oc) {
                    const int32_t first_channel = oc / per_group * depth;
                    float total = 0.0f;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        const int32_t iy = y0 + ky * params->dilation.h;
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int32_t ix = x0 + kx * params->dilation.w;
                            const float *x = input + ((b * input_dims->h + iy) * input_dims->w + ix) * input_dims->c
                                             + first_channel;
                            const float *w = filter + ((oc * filter_dims->h + ky) * filter_dims->w + kx) * depth;
                            for (int32_t ic = 0; ic < depth; ++ic) {
                                total += x[ic] * w[ic];
                            }
                        }
                    }
                    *output++ = mcu_clamp_f32(total + (bias != NULL ? bias[oc] : 0.0f), params->activation);
                }
            }
        }
    }
}
