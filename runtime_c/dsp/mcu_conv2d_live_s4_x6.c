#include "mcu_nn_conv2d_dsp.h"

/* mcu_conv2d_s4_x6 computing only a layer's live channels (mcu_conv2d_live_s8_w16's arguments), their INT4
 * weights read packed. */
void mcu_conv2d_live_s4_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                           const mcu_dims *input_dims, const int8_t *input,
                           const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                           const int16_t *live, const int8_t *pruned, const mcu_dims *output_dims, int8_t *output,
                           int16_t *scratch)
{
    mcu_conv2d_s8_dsp(conv, channels, input_dims, input, filter_dims, filter, bias, live, pruned, output_dims, output,
                      scratch, MCU_FORM_S4, 0);
}
