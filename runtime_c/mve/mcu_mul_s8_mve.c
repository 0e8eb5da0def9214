#include "mcu_nn_mve.h"

/*
 * MUL of two int8 tensors of one shape (no broadcasting) on Helium (MVE): mcu_mul's results, four
 * elements per vector ((x1 + offset1) * (x2 + offset2), each input widened as it loads, requantized by
 * s1 * s2 / s_out), the last vector predicated. output may be input1 or input2.
 */
void mcu_mul_s8_mve(const mcu_mul_params *mul, int32_t size, const int8_t *input1, const int8_t *input2,
                    int8_t *output)
{
    const int32x4_t low = vdupq_n_s32(mul->activation.min), high = vdupq_n_s32(mul->activation.max);
    for (int32_t i = 0; i < size; i += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(size - i));
        const int32x4_t x1 = vaddq_n_s32(vldrbq_z_s32(input1 + i, p), mul->input1_offset);
        const int32x4_t x2 = vaddq_n_s32(vldrbq_z_s32(input2 + i, p), mul->input2_offset);
        int32x4_t y = vaddq_n_s32(mcu_requantize_n(vmulq_s32(x1, x2), mul->multiplier, mul->shift),
                                  mul->output_offset);
        y = vminq_s32(vmaxq_s32(y, low), high);
        vstrbq_p_s32(output + i, y, p);
    }
}
