#include "mcu_nn_dsp.h"

/*
 * FULLY_CONNECTED for cores with the DSP extension: the contract and results of
 * src/mcu_fully_connected_s8.c. Units go four at a time through mcu_dot4_s8. A filter offset
 * (non-zero only for asymmetric weights) is taken out of the loop:
 * sum (x + xo)(w + wo) = sum (x + xo) w + wo * sum (x + xo).
 */
void mcu_fully_connected_s8(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                            const mcu_dims *input_dims, const int8_t *input,
                            const int8_t *filter, const int32_t *bias,
                            const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        const int8_t *x = input + n * depth;
        int32_t offset_share = 0;
        if (fc->filter_offset != 0) {
            for (int32_t d = 0; d < depth; ++d) {
                offset_share += x[d] + fc->input_offset;
            }
            offset_share *= fc->filter_offset;
        }
        for (int32_t o = 0; o < units; o += 4) {
            int32_t unit[4], acc[4];
            const int8_t *rows[4];
            mcu_group4(o, units, bias, filter, depth, unit, acc, rows);
            for (int32_t k = 0; k < 4; ++k) {
                acc[k] += offset_share;
            }
            mcu_dot4_s8(x, fc->input_offset, rows, 0, depth, acc);
            mcu_store4(acc, unit, quant, fc->output_offset, fc->activation, output);
        }
        output += units;
    }
}
