#include "mcu_nn_mve.h"

/*
 * ADD or SUB of two int8 tensors of one shape (no broadcasting) on Helium (MVE): mcu_add's results,
 * four elements per vector (each input widened as it loads, offset, shifted left, rescaled; the two
 * combined and rescaled to the output), the last vector predicated. output may be input1 or input2.
 */
void mcu_add_s8_mve(const mcu_add_params *add, int32_t size, const int8_t *input1, const int8_t *input2,
                    int8_t *output)
{
    const int32x4_t low = vdupq_n_s32(add->activation.min), high = vdupq_n_s32(add->activation.max);
    const int32_t sign = add->operation == MCU_SUB ? -1 : 1;
    for (int32_t i = 0; i < size; i += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(size - i));
        const int32x4_t x1 = vshlq_r_s32(vaddq_n_s32(vldrbq_z_s32(input1 + i, p), add->input1_offset), add->left_shift);
        const int32x4_t x2 = vshlq_r_s32(vaddq_n_s32(vldrbq_z_s32(input2 + i, p), add->input2_offset), add->left_shift);
        const int32x4_t y1 = mcu_requantize_n(x1, add->input1_multiplier, add->input1_shift);
        const int32x4_t y2 = vmulq_n_s32(mcu_requantize_n(x2, add->input2_multiplier, add->input2_shift), sign);
        int32x4_t y = vaddq_n_s32(mcu_requantize_n(vaddq_s32(y1, y2), add->output_multiplier, add->output_shift),
                                  add->output_offset);
        y = vminq_s32(vmaxq_s32(y, low), high);
        vstrbq_p_s32(output + i, y, p);
    }
}
