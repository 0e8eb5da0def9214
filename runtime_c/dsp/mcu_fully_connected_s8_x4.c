#include "mcu_nn_dsp.h"

/*
 * FULLY_CONNECTED for cores with the DSP extension, on constants mcugen lays out for it (see
 * mcu_nn.h): the results of src/mcu_fully_connected_s8.c. Units go four at a time. The input
 * offset is in the bias (input_offset * sum(w), added at build time), so input words are only
 * unpacked (SXTB16: of four values, (v0, v2) then (v1, v3)); the filter holds per four values the
 * four units' words one after the other, so one pointer walks it. Per four values: one load and
 * two SXTB16 of input, two double loads and six SXTB16 of filter, eight SMLAD (16 MACs). A filter
 * offset (asymmetric weights) is taken out of the loop: sum (x + xo)(w + wo) = sum (x + xo) w +
 * wo * sum (x + xo). Input words are read only within the row; a row's last values (depth % 4)
 * go through a word of their own.
 */
void mcu_fully_connected_s8_x4(const mcu_fc_params *fc, const mcu_channel *channels,
                               const mcu_dims *input_dims, const int8_t *input,
                               const int8_t *filter, const int32_t *bias_folded,
                               const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c, whole = depth / 4;
    const int32_t output_offset = fc->output_offset;
    const mcu_activation act = fc->activation;
    const uint32_t min4 = mcu_all_bytes(act.min), max4 = mcu_all_bytes(act.max);
    for (int32_t n = 0; n < input_dims->n; ++n, input += depth, output += units) {
        int32_t offset_share = 0;
        if (fc->filter_offset != 0) {
            for (int32_t d = 0; d < depth; ++d) {
                offset_share += input[d] + fc->input_offset;
            }
            offset_share *= fc->filter_offset;
        }
        uint32_t last = 0; /* the row's last depth % 4 values, zero-filled */
        memcpy(&last, input + 4 * whole, (size_t)(depth - 4 * whole));
        const int16x2_t last_even = mcu_even_bytes(last), last_odd = mcu_odd_bytes(last);
        const int8_t *w = filter;
        for (int32_t o = 0; o < units; o += 4) {
            /* scalars, not an array: GCC keeps them in registers from the bias to the store */
            int32_t a0 = bias_folded[o], a1 = bias_folded[o + 1], a2 = bias_folded[o + 2], a3 = bias_folded[o + 3];
            MCU_DOT4(input, whole, w, a0, a1, a2, a3);
            if (offset_share != 0) {
                a0 += offset_share;
                a1 += offset_share;
                a2 += offset_share;
                a3 += offset_share;
            }
            if (depth % 4 != 0) {
                MCU_DOT4_LAST(last_even, last_odd, w, a0, a1, a2, a3);
            }
            const mcu_channel *ch = &channels[o];
            if (units - o >= 4) {
                const uint32_t word = mcu_pack4(mcu_channel_value(a0, &ch[0], ch[0].fast, output_offset),
                                                mcu_channel_value(a1, &ch[1], ch[1].fast, output_offset),
                                                mcu_channel_value(a2, &ch[2], ch[2].fast, output_offset),
                                                mcu_channel_value(a3, &ch[3], ch[3].fast, output_offset), min4, max4);
                memcpy(output + o, &word, sizeof word);
            } else {
                const int32_t a[3] = {a0, a1, a2}; /* units - o < 4 */
                for (int32_t u = 0; u < units - o; ++u) {
                    output[o + u] = mcu_channel_output(a[u], &ch[u], ch[u].fast, output_offset, act);
                }
            }
        }
    }
}
