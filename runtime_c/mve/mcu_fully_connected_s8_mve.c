#include "mcu_nn_mve.h"

/*
 * FULLY_CONNECTED with Helium (MVE): sixteen products per VMLADAVA, four units at a time sharing each
 * load of the input, the tail of a row predicated (VCTP), and the four units requantized together
 * (mcu_requantize_x4). The input offset comes folded into the bias (bias_folded[o] = bias[o] +
 * input_offset * sum_d filter[o, d], wrapping as int32), so the vector loop multiplies raw values;
 * int32 sums wrap alike in any order, so the results are mcu_fully_connected_s8's (a filter offset of
 * 0, as int8 FULLY_CONNECTED has).
 */
void mcu_fully_connected_s8_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int8_t *filter, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c, whole = depth & ~15;
    const mve_pred16_t tail = vctp8q((uint32_t)(depth - whole));
    for (int32_t n = 0; n < input_dims->n; ++n) {
        const int8_t *x = input + n * depth;
        int32_t o = 0;
        for (; o + 4 <= units; o += 4) {
            const int8_t *w0 = filter + o * depth, *w1 = w0 + depth, *w2 = w1 + depth, *w3 = w2 + depth;
            int32_t a0 = bias_folded[o], a1 = bias_folded[o + 1], a2 = bias_folded[o + 2], a3 = bias_folded[o + 3];
            for (int32_t d = 0; d < whole; d += 16) {
                const int8x16_t v = vldrbq_s8(x + d);
                a0 = vmladavaq_s8(a0, v, vldrbq_s8(w0 + d));
                a1 = vmladavaq_s8(a1, v, vldrbq_s8(w1 + d));
                a2 = vmladavaq_s8(a2, v, vldrbq_s8(w2 + d));
                a3 = vmladavaq_s8(a3, v, vldrbq_s8(w3 + d));
            }
            if (whole < depth) {
                const int8x16_t v = vldrbq_z_s8(x + whole, tail);
                a0 = vmladavaq_p_s8(a0, v, vldrbq_z_s8(w0 + whole, tail), tail);
                a1 = vmladavaq_p_s8(a1, v, vldrbq_z_s8(w1 + whole, tail), tail);
                a2 = vmladavaq_p_s8(a2, v, vldrbq_z_s8(w2 + whole, tail), tail);
                a3 = vmladavaq_p_s8(a3, v, vldrbq_z_s8(w3 + whole, tail), tail);
            }
            int32x4_t acc = vdupq_n_s32(a0);
            acc = vsetq_lane_s32(a1, acc, 1);
            acc = vsetq_lane_s32(a2, acc, 2);
            acc = vsetq_lane_s32(a3, acc, 3);
            mcu_store_x4_s8(output + o, acc, quant->multiplier + o, quant->shift + o, fc->output_offset, fc->activation);
        }
        for (; o < units; ++o) {
            const int8_t *w = filter + o * depth;
            int32_t acc = bias_folded[o];
            for (int32_t d = 0; d < whole; d += 16) {
                acc = vmladavaq_s8(acc, vldrbq_s8(x + d), vldrbq_s8(w + d));
            }
            if (whole < depth) {
                acc = vmladavaq_p_s8(acc, vldrbq_z_s8(x + whole, tail), vldrbq_z_s8(w + whole, tail), tail);
            }
            acc = mcu_requantize(acc, quant->multiplier[o], quant->shift[o]) + fc->output_offset;
            output[o] = mcu_clamp_s8(acc, fc->activation);
        }
        output += units;
    }
}
