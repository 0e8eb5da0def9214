#include "mcu_nn_support.h"

/*
 * Reference 16x8 CONV_2D (TFLM reference_integer_ops::ConvPerChannel for int16): int16 input,
 * int8 filter, int64 bias, no zero points (TFLM's int16 kernel adds none);
 *   acc = bias[oc] + sum over in-image taps of input * filter      (int64, or int32 wrapping)
 *   out = clamp(requantize(acc, multiplier[oc], shift[oc]))        (mcu_requantize_wide)
 */
void mcu_conv2d_s16(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                    const mcu_dims *input_dims, const int16_t *input,
                    const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                    const mcu_dims *output_dims, int16_t *output)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, out_c = output_dims->c;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int16_t *image = input + b * in_h * in_w * in_c;
        for (int32_t oy = 0; oy < out_h; ++oy) {
            const int32_t y0 = oy * conv->stride.h - conv->padding.h;
            for (int32_t ox = 0; ox < out_w; ++ox) {
                const int32_t x0 = ox * conv->stride.w - conv->padding.w;
                for (int32_t oc = 0; oc < out_c; ++oc) {
                    const int8_t *kernel = filter + oc * k_h * k_w * in_c;
                    int64_t acc = bias[oc];
                    for (int32_t ky = 0; ky < k_h; ++ky) {
                        const int32_t iy = y0 + ky * conv->dilation.h;
                        if (iy < 0 || iy >= in_h) {
                            continue;
                        }
                        for (int32_t kx = 0; kx < k_w; ++kx) {
                            const int32_t ix = x0 + kx * conv->dilation.w;
                            if (ix < 0 || ix >= in_w) {
                                continue;
                            }
                            const int16_t *x = image + (iy * in_w + ix) * in_c;
                            const int8_t *w = kernel + (ky * k_w + kx) * in_c;
                            int32_t partial = 0; /* one tap's channels: |x * w| <= 2^22, far from 2^31 for real depths */
                            for (int32_t ic = 0; ic < in_c; ++ic) {
                                partial += x[ic] * w[ic];
                            }
                            acc += partial;
                        }
                    }
                    const int32_t y = mcu_requantize_wide(acc, accumulator_bits, quant->multiplier[oc], quant->shift[oc]);
                    *output++ = mcu_clamp_s16(y, conv->activation);
                }
            }
        }
    }
}
