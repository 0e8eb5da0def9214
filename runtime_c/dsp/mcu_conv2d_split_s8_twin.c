#include "mcu_nn_conv2d_dsp.h"

/* mcu_conv2d_split_s8_w16 on twin words (their taps in patch_order). */
void mcu_conv2d_split_s8_twin(const mcu_conv_params *conv, const mcu_channel *channels,
                              const mcu_dims *input_dims, const int8_t *input,
                              const mcu_dims *filter_dims, const int8_t *filter_twins, const int32_t *bias,
                              const mcu_dims *output_dims, int8_t *output, int16_t *scratch)
{
    mcu_conv2d_s8_dsp(conv, channels, input_dims, input, filter_dims, filter_twins, bias, NULL, NULL, output_dims,
                      output, scratch, MCU_FORM_TWIN, 1);
}
