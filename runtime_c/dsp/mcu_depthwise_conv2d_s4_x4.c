#include "mcu_nn_dw_dsp.h"

/* DEPTHWISE_CONV_2D on DSP cores, four channels at a time, on INT4 weights read packed: mcu_depthwise_x4. */
void mcu_depthwise_conv2d_s4_x4(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const int8_t *packed_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int8_t *window)
{
    mcu_depthwise_x4(dw, channels, input_dims, input, filter_dims, packed_x4, 4, bias_folded, output_dims, output,
                     window);
}
