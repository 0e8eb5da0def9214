#include "mcu_nn_support.h"

/*
 * Reference 16x8 FULLY_CONNECTED (TFLM reference_integer_ops::FullyConnected for int16): input rows
 * [N, depth] int16, filter [units, depth] int8, int64 bias;
 *   acc = bias[u] + sum (x + input_offset) * (w + filter_offset)   (int64, or int32 wrapping)
 *   out = clamp(requantize(acc, multiplier[u], shift[u]) + output_offset)
 */
void mcu_fully_connected_s16(const mcu_fc_params *fc, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                             const mcu_dims *input_dims, const int16_t *input,
                             const int8_t *filter, const int64_t *bias,
                             const mcu_dims *output_dims, int16_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t r = 0; r < input_dims->n; ++r, input += depth) {
        for (int32_t u = 0; u < units; ++u) {
            const int8_t *w = filter + u * depth;
            int64_t acc = bias[u];
            for (int32_t k = 0; k < depth; ++k) {
                acc += (int64_t)(input[k] + fc->input_offset) * (w[k] + fc->filter_offset);
            }
            const int32_t y = mcu_requantize_wide(acc, accumulator_bits, quant->multiplier[u], quant->shift[u]);
            *output++ = mcu_clamp_s16((int32_t)((uint32_t)y + (uint32_t)fc->output_offset), fc->activation);
        }
    }
}
