/*
 * Helium's lanes of the elementwise arithmetic: ADD/SUB and MUL of four pairs, and the int16 LOGISTIC
 * and TANH of four values (mcu_nn_support.h's scalar forms, the same numbers).
 */
#ifndef MCU_NN_ELEMENTWISE_MVE_H
#define MCU_NN_ELEMENTWISE_MVE_H

#include "mcu_nn_mve.h"

/* ADD (sign 1) or SUB (sign -1) of four pairs of values of one shape, mcu_add's arithmetic: each input
 * offset, shifted left, rescaled; the two combined, rescaled to the output, offset and clamped. */
static inline int32x4_t mcu_add_x4(const mcu_add_params *add, int32x4_t a, int32x4_t b, int32_t sign)
{
    const int32x4_t x1 = vshlq_r_s32(vaddq_n_s32(a, add->input1_offset), add->left_shift);
    const int32x4_t x2 = vshlq_r_s32(vaddq_n_s32(b, add->input2_offset), add->left_shift);
    const int32x4_t y1 = mcu_requantize_n(x1, add->input1_multiplier, add->input1_shift);
    const int32x4_t y2 = vmulq_n_s32(mcu_requantize_n(x2, add->input2_multiplier, add->input2_shift), sign);
    const int32x4_t y = vaddq_n_s32(mcu_requantize_n(vaddq_s32(y1, y2), add->output_multiplier, add->output_shift),
                                    add->output_offset);
    return vminq_s32(vmaxq_s32(y, vdupq_n_s32(add->activation.min)), vdupq_n_s32(add->activation.max));
}

/* MUL of four pairs, mcu_mul's arithmetic: (a + offset1) * (b + offset2) requantized, offset, clamped. */
static inline int32x4_t mcu_mul_x4(const mcu_mul_params *mul, int32x4_t a, int32x4_t b)
{
    const int32x4_t product = vmulq_s32(vaddq_n_s32(a, mul->input1_offset), vaddq_n_s32(b, mul->input2_offset));
    const int32x4_t y = vaddq_n_s32(mcu_requantize_n(product, mul->multiplier, mul->shift), mul->output_offset);
    return vminq_s32(vmaxq_s32(y, vdupq_n_s32(mul->activation.min)), vdupq_n_s32(mul->activation.max));
}

/* mcu_scale_s16 on four lanes (one multiplier and shift for all). */
static inline int32x4_t mcu_scale_s16_x4(int32x4_t x, int32_t multiplier, int32_t shift)
{
    if (multiplier == 0) {
        return vmulq_n_s32(x, 3 << shift);
    }
    return vshlq_r_s32(vaddq_n_s32(vmulq_n_s32(x, multiplier), shift > 0 ? 1 << (shift - 1) : 0), -shift);
}

/* mcu_sigmoid_lookup on four lanes: the table's two entries around each |v| by gathers (the entry
 * clamped to stay inside the table: lanes past its end are replaced by the caller), interpolated. */
static inline uint32x4_t mcu_sigmoid_lookup_x4(const int16_t *table, uint32x4_t magnitude, int32_t fraction_bits)
{
    const uint32x4_t entry = vminq_u32(vshlq_r_u32(magnitude, -fraction_bits), vdupq_n_u32(254));
    const uint32x4_t low = vldrhq_gather_shifted_offset_u32((const uint16_t *)table, entry);
    const uint32x4_t high = vldrhq_gather_shifted_offset_u32((const uint16_t *)table, vaddq_n_u32(entry, 1));
    const uint32x4_t fraction = vandq_u32(magnitude, vdupq_n_u32((1u << fraction_bits) - 1));
    return vaddq_u32(vshlq_r_u32(low, fraction_bits), vmulq_u32(fraction, vsubq_u32(high, low)));
}

/* mcu_sigmoid_s16 on four lanes, each result in the low half of its lane (a truncating store gives
 * the reference's int16). */
static inline int32x4_t mcu_sigmoid_s16_x4(const int16_t *table, int32x4_t x, int32_t multiplier, int32_t shift)
{
    const int32x4_t v = mcu_scale_s16_x4(x, multiplier, shift);
    const uint32x4_t magnitude = vreinterpretq_u32_s32(vabsq_s32(v));
    const mve_pred16_t beyond = vcmpcsq_n_u32(vshrq_n_u32(magnitude, 9), 255);
    const uint32x4_t r = vpselq_u32(vdupq_n_u32(0x7FFFu << 10), mcu_sigmoid_lookup_x4(table, magnitude, 9), beyond);
    const mve_pred16_t positive = vcmpgeq_n_s32(v, 0);
    const uint32x4_t folded = vpselq_u32(vaddq_n_u32(r, 1u << 9), vsubq_u32(vdupq_n_u32((1u << 25) + (1u << 9) - 1), r),
                                         positive);
    return vreinterpretq_s32_u32(vshrq_n_u32(folded, 10));
}

/* mcu_tanh_s16 on four lanes, likewise. */
static inline int32x4_t mcu_tanh_s16_x4(const int16_t *table, int32x4_t x, int32_t multiplier, int32_t shift)
{
    const int32x4_t v = mcu_scale_s16_x4(x, multiplier, shift);
    const uint32x4_t magnitude = vreinterpretq_u32_s32(vabsq_s32(v));
    const mve_pred16_t beyond = vcmpcsq_n_u32(vshrq_n_u32(magnitude, 8), 255);
    const int32x4_t r = vreinterpretq_s32_u32(
        vpselq_u32(vdupq_n_u32(0xFFFFu << 8), mcu_sigmoid_lookup_x4(table, magnitude, 8), beyond));
    const mve_pred16_t positive = vcmpgeq_n_s32(v, 0);
    const int32x4_t folded = vpselq_s32(vaddq_n_s32(r, -(1 << 23) + (1 << 7)), vsubq_s32(vdupq_n_s32((1 << 23) + (1 << 7) - 1), r),
                                        positive);
    return vshrq_n_s32(folded, 8);
}

/* x saturated to int16 on four lanes. */
static inline int32x4_t mcu_sat_s16_x4(int32x4_t x)
{
    return vmaxq_s32(vminq_s32(x, vdupq_n_s32(INT16_MAX)), vdupq_n_s32(INT16_MIN));
}

#endif /* MCU_NN_ELEMENTWISE_MVE_H */
