#include "mcu_nn_support.h"

/*
 * Reference 16x8 DEPTHWISE_CONV_2D (TFLM reference_integer_ops::DepthwiseConvPerChannel for int16):
 * int16 input, int8 filter [1, KH, KW, C * depth_multiplier], int64 bias and accumulator, no zero
 * points; output channel oc = ic * depth_multiplier + m reads input channel ic.
 */
void mcu_depthwise_conv2d_s16(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                              const mcu_dims *input_dims, const int16_t *input,
                              const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                              const mcu_dims *output_dims, int16_t *output)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w, out_c = output_dims->c;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int16_t *image = input + b * in_h * in_w * in_c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * dw->stride.h - dw->padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * dw->stride.w - dw->padding.w;
                for (int32_t oc = 0; oc < out_c; ++oc) {
                    const int32_t ic = oc / dw->depth_multiplier;
                    int64_t acc = bias[oc];
                    for (int32_t ky = 0; ky < k_h; ++ky) {
                        const int32_t iy = y0 + ky * dw->dilation.h;
                        if (iy < 0 || iy >= in_h) {
                            continue;
                        }
                        for (int32_t kx = 0; kx < k_w; ++kx) {
                            const int32_t ix = x0 + kx * dw->dilation.w;
                            if (ix < 0 || ix >= in_w) {
                                continue;
                            }
                            acc += image[(iy * in_w + ix) * in_c + ic] * filter[(ky * k_w + kx) * out_c + oc];
                        }
                    }
                    *output++ = mcu_clamp_s16(mcu_requantize64(acc, quant->multiplier[oc], quant->shift[oc]),
                                              dw->activation);
                }
            }
        }
    }
}
