#include "mcu_nn_mve.h"

/*
 * FULLY_CONNECTED with Helium (MVE): each row through mcu_row_units_s8. The input offset comes folded
 * into the bias (bias_folded[o] = bias[o] + input_offset * sum_d filter[o, d], wrapping as int32), so
 * the vector loop multiplies raw values; int32 sums wrap alike in any order, so the results are
 * mcu_fully_connected_s8's (a filter offset of 0, as int8 FULLY_CONNECTED has).
 */
void mcu_fully_connected_s8_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int8_t *filter, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        mcu_row_units_s8(input + n * depth, depth, filter, bias_folded, units, quant, fc->output_offset,
                         fc->activation, output + n * units);
    }
}
