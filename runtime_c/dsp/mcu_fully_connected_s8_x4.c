#include "mcu_nn_fc_dsp.h"

/* FULLY_CONNECTED on DSP cores (mcu_fully_connected_dsp) on a filter interleaved by 4 units
 * (kernels/layouts.py interleave4: per four values, the four units' words one after the other). */
void mcu_fully_connected_s8_x4(const mcu_fc_params *fc, const mcu_channel *channels,
                               const mcu_dims *input_dims, const int8_t *input,
                               const int8_t *filter, const int32_t *bias_folded,
                               const mcu_dims *output_dims, int8_t *output)
{
    mcu_fully_connected_dsp(fc, channels, input_dims, input, filter, bias_folded, output_dims, output, 0);
}
