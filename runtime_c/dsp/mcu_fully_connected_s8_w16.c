#include "mcu_nn_dsp.h"

/*
 * FULLY_CONNECTED for cores with the DSP extension on weights widened to int16 at build time: the results
 * of src/mcu_fully_connected_s8.c. As mcu_fully_connected_s8_x4 (four units at a time, the input offset in
 * the bias, a filter offset taken out of the loop), with the filter's SXTB16 work done by mcugen: per four
 * values, each unit's int16 pairs (w0, w2), (w1, w3), read two units at a time by LDM (MCU_DOT4_W16).
 * Twice the filter's flash for 13 instructions per 16 MACs instead of 21.
 */
void mcu_fully_connected_s8_w16(const mcu_fc_params *fc, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int16_t *filter_pairs, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c, whole = depth / 4;
    for (int32_t n = 0; n < input_dims->n; ++n, input += depth, output += units) {
        const int32_t offset_share = mcu_fc_offset_share(fc, input, depth);
        uint32_t last = 0; /* the row's last depth % 4 values, zero-filled */
        memcpy(&last, input + 4 * whole, (size_t)(depth - 4 * whole));
        const int16x2_t last_even = mcu_even_bytes(last), last_odd = mcu_odd_bytes(last);
        const int16_t *w = filter_pairs;
        for (int32_t o = 0; o < units; o += 4) {
            int32_t a0 = bias_folded[o] + offset_share, a1 = bias_folded[o + 1] + offset_share,
                    a2 = bias_folded[o + 2] + offset_share, a3 = bias_folded[o + 3] + offset_share;
            MCU_DOT4_W16(input, whole, w, a0, a1, a2, a3);
            if (depth % 4 != 0) {
                MCU_DOT4_W16_LAST(last_even, last_odd, w, a0, a1, a2, a3);
            }
            mcu_fc_store4(a0, a1, a2, a3, &channels[o], units - o, fc->output_offset, fc->activation, output + o);
        }
    }
}
