#include "mcu_nn_fc_mve.h"

/* CONV_2D with Helium (MVE) on an INT4 filter read packed (kernels/layouts.py s4_blocks): mcu_conv2d_mve. */
void mcu_conv2d_s4_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                       const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias_folded,
                       const mcu_dims *output_dims, int8_t *output, int8_t *patch)
{
    mcu_conv2d_mve(conv, quant, input_dims, input, filter_dims, filter, bias_folded, output_dims, output, patch, 4);
}
