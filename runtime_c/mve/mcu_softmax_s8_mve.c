#include "mcu_nn_mve.h"

/*
 * SOFTMAX int8 -> int8 or int16 with Helium: the results of mcu_softmax_s8. A row's maximum sixteen
 * values per VMAXV; the exponentials gathered from the table four at a time (the index max - x widened
 * as it loads) and summed in Q12.19 (every exponential is >= 0, so gemmlowp's rounding divide is a
 * plain rounding shift, VRSHR); the reciprocal of the sum is the reference's, once a row; each output
 * is VQRDMULH (gemmlowp's SaturatingRoundingDoublingHighMul) then a rounding shift, again of values >= 0.
 * The last values of a row predicated.
 */
void mcu_softmax_s8_mve(const mcu_softmax_params *softmax, int32_t rows, int32_t depth,
                        const int8_t *input, void *output)
{
    const int32_t bits = softmax->output_bits;
    const int32_t low = mcu_min_of(bits), high = mcu_max_of(bits);
    for (int32_t r = 0; r < rows; ++r, input += depth) {
        int8_t max = INT8_MIN;
        for (int32_t c = 0; c < depth; c += 16) {
            max = vmaxvq_p_s8(max, vldrbq_s8(input + c), vctp8q((uint32_t)(depth - c)));
        }
        const int32x4_t top = vdupq_n_s32(max);
        int32_t sum = 0;
        for (int32_t c = 0; c < depth; c += 4) {
            const mve_pred16_t p = vctp32q((uint32_t)(depth - c));
            const uint32x4_t d = vreinterpretq_u32_s32(vsubq_s32(top, vldrbq_z_s32(input + c, p)));
            sum = vaddvaq_p_s32(sum, vrshrq_n_s32(vldrwq_gather_shifted_offset_z_s32(softmax->exp_lut, d, p), 12), p);
        }
        const int32_t headroom = mcu_clz((uint32_t)sum);
        const int32_t exponent = 12 - headroom + 31 - bits;
        const int32_t scale = mcu_one_over_one_plus_x((int32_t)(((uint32_t)sum << headroom) - 0x80000000u));
        for (int32_t c = 0; c < depth; c += 4) {
            const mve_pred16_t p = vctp32q((uint32_t)(depth - c));
            const uint32x4_t d = vreinterpretq_u32_s32(vsubq_s32(top, vldrbq_z_s32(input + c, p)));
            int32x4_t y = vqrdmulhq_n_s32(vldrwq_gather_shifted_offset_z_s32(softmax->exp_lut, d, p), scale);
            /* below 2^31 before the shift: from 2^32 down nothing is left */
            y = exponent >= 32 ? vdupq_n_s32(0) : vrshlq_n_s32(y, -exponent);
            y = vminq_s32(vaddq_n_s32(y, low), vdupq_n_s32(high)); /* never below low */
            if (bits == 8) {
                vstrbq_p_s32((int8_t *)output + r * depth + c, y, p);
            } else {
                vstrhq_p_s32((int16_t *)output + r * depth + c, y, p);
            }
        }
    }
}
