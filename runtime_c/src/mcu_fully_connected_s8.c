#include "mcu_nn_support.h"

/*
 * Reference FULLY_CONNECTED (TFLM reference_integer_ops::FullyConnected, double rounding):
 *   acc = bias[o] + sum_d (input[n, d] + input_offset) * (filter[o, d] + filter_offset)
 */
void mcu_fully_connected_s8(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                            const mcu_dims *input_dims, const int8_t *input,
                            const int8_t *filter, const int32_t *bias,
                            const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        const int8_t *x = input + n * depth;
        for (int32_t o = 0; o < units; ++o) {
            const int8_t *w = filter + o * depth;
            uint32_t acc = bias ? (uint32_t)bias[o] : 0u; /* wraps as TFLM's int32 sum does on every target */
            for (int32_t d = 0; d < depth; ++d) {
                acc += (uint32_t)((x[d] + fc->input_offset) * (w[d] + fc->filter_offset));
            }
            const int32_t y = mcu_requantize((int32_t)acc, quant->multiplier[o], quant->shift[o]) + fc->output_offset;
            *output++ = mcu_clamp_s8(y, fc->activation);
        }
    }
}
