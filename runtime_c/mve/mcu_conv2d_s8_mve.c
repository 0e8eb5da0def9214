#include "mcu_nn_mve.h"

/*
 * CONV_2D with Helium (MVE): per output position, its patch [KH, KW, Cin] gathered into scratch (taps
 * outside the image filled with the input zero point, whose products the folded bias cancels: bias_folded
 * = bias + input_offset * sum of the channel's weights counts every tap), then the patch through the
 * filter as one row of mcu_row_units_s8. The results are mcu_conv2d_s8's.
 */
void mcu_conv2d_s8_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                       const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias_folded,
                       const mcu_dims *output_dims, int8_t *output, int8_t *patch)
{
    const int32_t depth = filter_dims->h * filter_dims->w * input_dims->c;
    const int8x16_t padding = vdupq_n_s8((int8_t)-conv->input_offset); /* the input zero point */
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * input_dims->h * input_dims->w * input_dims->c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            for (int32_t ox = 0; ox < output_dims->w; ++ox, output += output_dims->c) {
                mcu_gather_patch_mve(conv, input_dims, image, filter_dims, oy * conv->stride.h - conv->padding.h,
                                     ox * conv->stride.w - conv->padding.w, 1, padding, patch);
                mcu_row_units_s8(patch, depth, filter, bias_folded, output_dims->c, quant, conv->output_offset,
                                 conv->activation, output);
            }
        }
    }
}
