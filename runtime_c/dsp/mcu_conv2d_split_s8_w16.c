#include "mcu_nn_conv2d_dsp.h"

/* mcu_conv2d_s8_w16 on kernel rows split into whole words and tails (mcu_widen_rows): a first layer's
 * 3x3x3 patch is copied as six words and three bytes, not gathered byte by byte into a patch first. */
void mcu_conv2d_split_s8_w16(const mcu_conv_params *conv, const mcu_channel *channels,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int16_t *filter_pairs, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output, int16_t *scratch)
{
    mcu_conv2d_s8_dsp(conv, channels, input_dims, input, filter_dims, filter_pairs, bias, NULL, NULL, output_dims, output,
                      scratch, MCU_FORM_W16, 1);
}
