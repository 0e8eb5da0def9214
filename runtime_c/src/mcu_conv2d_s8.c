#include "mcu_nn_support.h"

/*
 * Reference CONV_2D (TFLM reference_integer_ops::ConvPerChannel):
 *   acc = bias[oc] + sum over in-image taps of (input + input_offset) * filter
 *   out = clamp(requantize(acc, multiplier[oc], shift[oc]) + output_offset)
 * Taps outside the image contribute nothing, which is what zero-padding in the real domain means.
 * The int32 accumulator cannot overflow for kernels below 2^16 taps: |(x + offset) * w| <= 2^15.
 */
void mcu_conv2d_s8(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                   const mcu_dims *input_dims, const int8_t *input,
                   const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                   const mcu_dims *output_dims, int8_t *output)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, out_c = output_dims->c;

    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * in_h * in_w * in_c;
        for (int32_t oy = 0; oy < out_h; ++oy) {
            const int32_t y0 = oy * conv->stride.h - conv->padding.h;
            for (int32_t ox = 0; ox < out_w; ++ox) {
                const int32_t x0 = ox * conv->stride.w - conv->padding.w;
                for (int32_t oc = 0; oc < out_c; ++oc) {
                    const int8_t *kernel = filter + oc * k_h * k_w * in_c;
                    int32_t acc = bias ? bias[oc] : 0;
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
                            const int8_t *x = image + (iy * in_w + ix) * in_c;
                            const int8_t *w = kernel + (ky * k_w + kx) * in_c;
                            for (int32_t ic = 0; ic < in_c; ++ic) {
                                acc += (x[ic] + conv->input_offset) * w[ic];
                            }
                        }
                    }
                    acc = mcu_requantize(acc, quant->multiplier[oc], quant->shift[oc]) + conv->output_offset;
                    *output++ = mcu_clamp_s8(acc, conv->activation);
                }
            }
        }
    }
}
