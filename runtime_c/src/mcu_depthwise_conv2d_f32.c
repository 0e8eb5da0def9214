#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/*
 * Reference DEPTHWISE_CONV_2D in float32 (TFLM reference_ops::DepthwiseConv): output channel
 * oc = ic * depth_multiplier + m sums input channel ic's in-image taps, filter row then column,
 * from 0.0f, then adds the bias. Four output channels at a time walk the taps together (their inputs
 * and weights sit side by side); each channel's sum is still its own, in TFLM's order.
 */
void mcu_depthwise_conv2d_f32(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                              const float *input, const mcu_dims *filter_dims, const float *filter,
                              const float *bias, const mcu_dims *output_dims, float *output)
{
    const int32_t channels = output_dims->c, multiplier = params->depth_multiplier;
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, params->dilation.h, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, params->dilation.w, input_dims->w, &kx0, &kx1);
                for (int32_t oc = 0; oc < channels;) {
                    const int32_t n = channels - oc >= 4 ? 4 : 1;
                    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        const int32_t iy = y0 + ky * params->dilation.h;
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int32_t ix = x0 + kx * params->dilation.w;
                            const float *x = input + ((b * input_dims->h + iy) * input_dims->w + ix) * input_dims->c;
                            const float *w = filter + (ky * filter_dims->w + kx) * channels + oc;
                            if (n == 4 && multiplier == 1) {
                                t[0] += x[oc] * w[0];
                                t[1] += x[oc + 1] * w[1];
                                t[2] += x[oc + 2] * w[2];
                                t[3] += x[oc + 3] * w[3];
                            } else {
                                for (int32_t k = 0; k < n; ++k) {
                                    t[k] += x[(oc + k) / multiplier] * w[k];
                                }
                            }
                        }
                    }
                    for (int32_t k = 0; k < n; ++k, ++oc) {
                        *output++ = mcu_clamp_f32(t[k] + (bias != NULL ? bias[oc] : 0.0f), params->activation);
                    }
                }
            }
        }
    }
}
