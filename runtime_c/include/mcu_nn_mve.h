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

/* clamp(requantize(acc) + output_offset) of four channels, stored as four int8. */
static inline void mcu_store_x4_s8(int8_t *output, int32x4_t acc, const int32_t *multiplier, const int32_t *shift,
                                   int32_t output_offset, mcu_activation act)
{
    int32x4_t y = vaddq_n_s32(mcu_requantize_x4(acc, vldrwq_s32(multiplier), vldrwq_s32(shift)), output_offset);
    y = vminq_s32(vmaxq_s32(y, vdupq_n_s32(act.min)), vdupq_n_s32(act.max));
    vstrbq_s32(output, y);
}

#endif /* MCU_NN_MVE_H */
