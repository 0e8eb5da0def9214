#include "mcu_nn_dsp.h"

/*
 * FULLY_CONNECTED for cores with the DSP extension, on constants mcugen lays out for it (see
 * mcu_nn.h): the results of src/mcu_fully_connected_s8.c. Units go four at a time. The input
 * offset is in the bias (input_offset * sum(w), added at build time), so input words are only
 * unpacked (SXTB16: of four values, (v0, v2) then (v1, v3)); the filter holds per four values the
 * four units' words one after the other, so one pointer walks it (MCU_DOT4). A filter offset
 * (asymmetric weights) is taken out of the loop (mcu_fc_offset_share). Input words are read only
 * within the row; a row's last values (depth % 4) go through a word of their own.
 */
void mcu_fully_connected_s8_x4(const mcu_fc_params *fc, const mcu_channel *channels,
                               const mcu_dims *input_dims, const int8_t *input,
                               const int8_t *filter, const int32_t *bias_folded,
                               const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c, whole = depth / 4;
    for (int32_t n = 0; n < input_dims->n; ++n, input += depth, output += units) {
        const int32_t offset_share = mcu_fc_offset_share(fc, input, depth);
        uint32_t last = 0; /* the row's last depth % 4 values, zero-filled */
        memcpy(&last, input + 4 * whole, (size_t)(depth - 4 * whole));
        const int16x2_t last_even = mcu_even_bytes(last), last_odd = mcu_odd_bytes(last);
        const int8_t *w = filter;
        for (int32_t o = 0; o < units; o += 4) {
            /* scalars, not an array: GCC keeps them in registers from the bias to the store */
            int32_t a0 = bias_folded[o] + offset_share, a1 = bias_folded[o + 1] + offset_share,
                    a2 = bias_folded[o + 2] + offset_share, a3 = bias_folded[o + 3] + offset_share;
            MCU_DOT4(input, whole, w, a0, a1, a2, a3);
            if (depth % 4 != 0) {
                MCU_DOT4_LAST(last_even, last_odd, w, a0, a1, a2, a3);
            }
            mcu_fc_store4(a0, a1, a2, a3, &channels[o], units - o, fc->output_offset, fc->activation, output + o);
        }
    }
}
