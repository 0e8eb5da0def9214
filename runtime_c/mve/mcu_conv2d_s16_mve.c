#include "mcu_nn_mve.h"

/*
 * 16x8 CONV_2D with Helium (MVE): the results of mcu_conv2d_s16 for layers whose sums of products fit
 * int32 (mcugen takes only those: K * 32768 * 128 < 2^31, K = KH*KW*Cin). Per output position, its
 * patch (the image itself for a 1x1 kernel without padding, else gathered into scratch with zeros past
 * the image: 16x8 has no zero points), then through the filter as one row of mcu_row_units_s16.
 */
void mcu_conv2d_s16_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                        const mcu_dims *input_dims, const int16_t *input,
                        const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                        const mcu_dims *output_dims, int16_t *output, int16_t *patch)
{
    const int32_t depth = filter_dims->h * filter_dims->w * input_dims->c, out_c = output_dims->c;
    const int direct = filter_dims->h == 1 && filter_dims->w == 1 && conv->padding.h == 0 && conv->padding.w == 0;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int16_t *image = input + b * input_dims->h * input_dims->w * input_dims->c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * conv->stride.h - conv->padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox, output += out_c) {
                const int32_t x0 = ox * conv->stride.w - conv->padding.w;
                const int16_t *x = patch;
                if (direct) {
                    x = image + (y0 * input_dims->w + x0) * input_dims->c;
                } else {
                    mcu_gather_patch_mve(conv, input_dims, (const int8_t *)image, filter_dims, y0, x0, 2,
                                         vdupq_n_s8(0), patch);
                }
                mcu_row_units_s16(x, depth, filter, bias, out_c, quant, accumulator_bits, 0, conv->activation, output);
            }
        }
    }
}
