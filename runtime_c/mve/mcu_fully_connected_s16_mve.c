#include "mcu_nn_mve.h"

/*
 * 16x8 FULLY_CONNECTED with Helium: each row through mcu_row_units_s16, for layers without input or
 * filter offsets (TFLM's int16 inputs have none) whose sums of products fit int32 (depth * 32768 * 128
 * < 2^31). The results are mcu_fully_connected_s16's.
 */
void mcu_fully_connected_s16_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                                 const mcu_dims *input_dims, const int16_t *input,
                                 const int8_t *filter, const int64_t *bias,
                                 const mcu_dims *output_dims, int16_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t r = 0; r < input_dims->n; ++r) {
        mcu_row_units_s16(input + r * depth, depth, filter, bias, units, quant, accumulator_bits, fc->output_offset,
                          fc->activation, output + r * units);
    }
}
