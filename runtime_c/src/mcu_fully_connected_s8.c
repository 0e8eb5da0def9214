#include "mcu_nn_conv_ref.h"

/* Reference FULLY_CONNECTED (TFLM reference_integer_ops::FullyConnected, double rounding) on an int8
 * filter: mcu_nn_conv_ref.h. */
void mcu_fully_connected_s8(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                            const mcu_dims *input_dims, const int8_t *input,
                            const int8_t *filter, const int32_t *bias,
                            const mcu_dims *output_dims, int8_t *output)
{
    mcu_fully_connected_ref(fc, quant, input_dims, input, filter, bias, output_dims, output, 8);
}
