/*
 * Helium (MVE) helpers of runtime_c/mve/'s kernels: the requantization of mcu_nn_support.h on four lanes.
 */
#ifndef MCU_NN_MVE_H
#define MCU_NN_MVE_H

#include <arm_mve.h>

#include "mcu_nn_support.h"

/* mcu_requantize on four lanes, each with its own multiplier and shift, giving the same numbers:
 * - the left shift by max(shift, 0) wraps, as TFLM's multiplication by 2^shift does;
 * - VQRDMULH is gemmlowp's SaturatingRoundingDoublingHighMul exactly: floor((2xm + 2^31) / 2^32) =
 *   floor((xm + 2^30) / 2^31) (mcu_srdhm's form), saturating the one overflow (INT32_MIN squared) alike;
 * - VRSHL by -n rounds ties up, gemmlowp's RoundingDivideByPOT away from zero: taking one from a
 *   negative value first (when n > 0) rounds its ties down. The subtraction saturates, which changes
 *   nothing at INT32_MIN (its quotient is the same either way), and VRSHL rounds without overflow. */
static inline int32x4_t mcu_requantize_x4(int32x4_t x, int32x4_t multiplier, int32x4_t shift)
{
    const int32x4_t zero = vdupq_n_s32(0);
    const int32x4_t right = vminq_s32(shift, zero); /* -n */
    const int32x4_t high = vqrdmulhq_s32(vshlq_s32(x, vmaxq_s32(shift, zero)), multiplier);
    const int32x4_t fixup = vshrq_n_s32(vandq_s32(high, right), 31); /* -1: negative and n > 0 */
    return vrshlq_s32(vqaddq_s32(high, fixup), right);
}

/* mcu_requantize on four lanes sharing one (multiplier, shift), the per-tensor case: scalar operands
 * (VQRDMULH and VRSHL by a register), the steps and the tie fix-up of mcu_requantize_x4. */
static inline int32x4_t mcu_requantize_n(int32x4_t x, int32_t multiplier, int32_t shift)
{
    if (shift > 0) {
        x = vshlq_r_s32(x, shift);
    }
    int32x4_t high = vqrdmulhq_n_s32(x, multiplier);
    if (shift < 0) {
        high = vrshlq_n_s32(vqaddq_s32(high, vshrq_n_s32(high, 31)), shift);
    }
    return high;
}

/* clamp(requantize(acc) + output_offset) of four channels, stored as four int8. */
static inline void mcu_store_x4_s8(int8_t *output, int32x4_t acc, const int32_t *multiplier, const int32_t *shift,
                                   int32_t output_offset, mcu_activation act)
{
    int32x4_t y = vaddq_n_s32(mcu_requantize_x4(acc, vldrwq_s32(multiplier), vldrwq_s32(shift)), output_offset);
    y = vminq_s32(vmaxq_s32(y, vdupq_n_s32(act.min)), vdupq_n_s32(act.max));
    vstrbq_s32(output, y);
}

/* One row x of `depth` int8 values through `units` filter rows (unit o at filter + o * depth): sixteen
 * products per VMLADAVA, four units sharing each load of x, the tail predicated (VCTP), each group of
 * four requantized together; bias_folded[o] holds bias + input_offset * sum of the unit's weights, so
 * raw values are multiplied. Writes units int8 outputs: those of the reference kernels. */
static inline void mcu_row_units_s8(const int8_t *x, int32_t depth, const int8_t *filter, const int32_t *bias_folded,
                                    int32_t units, const mcu_per_channel_quant *quant, int32_t output_offset,
                                    mcu_activation act, int8_t *output)
{
    const int32_t whole = depth & ~15;
    const mve_pred16_t tail = vctp8q((uint32_t)(depth - whole));
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
        mcu_store_x4_s8(output + o, acc, quant->multiplier + o, quant->shift + o, output_offset, act);
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
        output[o] = mcu_clamp_s8(mcu_requantize(acc, quant->multiplier[o], quant->shift[o]) + output_offset, act);
    }
}

#endif /* MCU_NN_MVE_H */
