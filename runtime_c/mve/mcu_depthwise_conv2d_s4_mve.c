#include "mcu_nn_dw_mve.h"

/* DEPTHWISE_CONV_2D with Helium (MVE), four channels per vector, on INT4 weights read packed: mcu_depthwise_mve. */
void mcu_depthwise_conv2d_s4_mve(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const mcu_dims *filter_dims, const int8_t *filter_x4, const int32_t *bias_folded,
                                 const mcu_dims *output_dims, int8_t *output, int8_t *window)
{
    mcu_depthwise_mve(dw, quant, input_dims, input, filter_dims, filter_x4, 4, bias_folded, output_dims, output,
                      window);
}
