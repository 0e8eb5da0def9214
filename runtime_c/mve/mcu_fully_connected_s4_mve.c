#include "mcu_nn_fc_mve.h"

/* FULLY_CONNECTED with Helium (MVE) on an INT4 filter read packed (kernels/layouts.py s4_blocks): mcu_fully_connected_mve. */
void mcu_fully_connected_s4_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int8_t *filter, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output)
{
    mcu_fully_connected_mve(fc, quant, input_dims, input, filter, bias_folded, output_dims, output, 4);
}
