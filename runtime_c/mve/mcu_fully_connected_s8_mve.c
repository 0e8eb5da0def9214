#include <arm_mve.h>

#include "mcu_nn_support.h"

/*
 * FULLY_CONNECTED with Helium (MVE): sixteen products per VMLADAVA, the tail of each row predicated
 * (VCTP), four units at a time sharing each load of the input. The input offset comes folded into
 * the bias (bias_folded[o] = bias[o] + input_offset * sum_d filter[o, d], wrapping as int32), so the
 * vector loop multiplies raw values; int32 sums wrap alike in any order, so the results are
 * mcu_fully_connected_s8's (a filter offset of 0, as int8 FULLY_CONNECTED has).
 */
static int32_t row_dot(int32_t acc, const int8_t *x, const int8_t *w, int32_t depth)
{
    for (int32_t d = 0; d < depth; d += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(depth - d));
        acc = vmladavaq_p_s8(acc, vldrbq_z_s8(x + d, p), vldrbq_z_s8(w + d, p), p);
    }
    return acc;
}

static int8_t unit_output(const mcu_fc_params *fc, const mcu_per_channel_quant *quant, int32_t o, int32_t acc)
{
    return mcu_clamp_s8(mcu_requantize(acc, quant->multiplier[o], quant->shift[o]) + fc->output_offset,
                        fc->activation);
}

void mcu_fully_connected_s8_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int8_t *filter, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        const int8_t *x = input + n * depth;
        int32_t o = 0;
        for (; o + 4 <= units; o += 4) {
            const int8_t *w0 = filter + o * depth, *w1 = w0 + depth, *w2 = w1 + depth, *w3 = w2 + depth;
            int32_t a0 = bias_folded[o], a1 = bias_folded[o + 1], a2 = bias_folded[o + 2], a3 = bias_folded[o + 3];
            for (int32_t d = 0; d < depth; d += 16) {
                const mve_pred16_t p = vctp8q((uint32_t)(depth - d));
                const int8x16_t v = vldrbq_z_s8(x + d, p);
                a0 = vmladavaq_p_s8(a0, v, vldrbq_z_s8(w0 + d, p), p);
                a1 = vmladavaq_p_s8(a1, v, vldrbq_z_s8(w1 + d, p), p);
                a2 = vmladavaq_p_s8(a2, v, vldrbq_z_s8(w2 + d, p), p);
                a3 = vmladavaq_p_s8(a3, v, vldrbq_z_s8(w3 + d, p), p);
            }
            output[o] = unit_output(fc, quant, o, a0);
            output[o + 1] = unit_output(fc, quant, o + 1, a1);
            output[o + 2] = unit_output(fc, quant, o + 2, a2);
            output[o + 3] = unit_output(fc, quant, o + 3, a3);
        }
        for (; o < units; ++o) {
            output[o] = unit_output(fc, quant, o, row_dot(bias_folded[o], x, filter + o * depth, depth));
        }
        output += units;
    }
}
