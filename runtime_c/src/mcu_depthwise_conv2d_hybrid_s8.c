#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/*
 * LiteRT's reference DepthwiseConvHybridPerChannel: each batch image quantized whole and asymmetrically
 * (mcu_hybrid_quantize_row), output channel ic * depth_multiplier + m the int32 sum of w x (q - zero
 * point) over input channel ic's in-image taps (the padding adds nothing), then float(acc) x (channel
 * scale x factor), the bias and the clamp.
 */
void mcu_depthwise_conv2d_hybrid_s8(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                                    const float *input, const mcu_dims *filter_dims, const int8_t *filter,
                                    const float *scales, const float *bias, const mcu_dims *output_dims,
                                    int8_t *scratch, float *output)
{
    const int32_t depth = input_dims->c, image = input_dims->h * input_dims->w * depth;
    const int32_t channels = output_dims->c, multiplier = params->depth_multiplier;
    for (int32_t b = 0; b < output_dims->n; ++b, input += image) {
        int32_t offset;
        const float factor = mcu_hybrid_quantize_row(1, image, input, scratch, &offset);
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, params->dilation.h, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, params->dilation.w, input_dims->w, &kx0, &kx1);
                for (int32_t oc = 0; oc < channels; ++oc) {
                    uint32_t acc = 0;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int32_t y = y0 + ky * params->dilation.h, x = x0 + kx * params->dilation.w;
                            const int32_t q = scratch[(y * input_dims->w + x) * depth + oc / multiplier];
                            acc += (uint32_t)(filter[(ky * filter_dims->w + kx) * channels + oc] * (q - offset));
                        }
                    }
                    float v = (float)(int32_t)acc * (scales[oc] * factor);
                    v = bias != NULL ? v + bias[oc] : v;
                    *output++ = mcu_clamp_f32(v, params->activation);
                }
            }
        }
    }
}
