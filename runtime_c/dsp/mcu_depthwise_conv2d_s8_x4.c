#include "mcu_nn_dw_dsp.h"

/* DEPTHWISE_CONV_2D on DSP cores, four channels at a time, on int16-widened weights: mcu_depthwise_x4. */
void mcu_depthwise_conv2d_s8_x4(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const int16_t *filter_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int8_t *window)
{
    mcu_depthwise_x4(dw, channels, input_dims, input, filter_dims, filter_x4, 16, bias_folded, output_dims, output,
                     window);
}
