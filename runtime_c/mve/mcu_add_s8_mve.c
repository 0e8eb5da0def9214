#include "mcu_nn_mve.h"
#include "mcu_nn_elementwise_mve.h"

/* One input's or the output's rescale where its shift is at most 0: VQRDMULH, then where `right` (shift < 0)
 * the right shift's tie fix-up and VRSHL. */
static inline __attribute__((always_inline)) int32x4_t rescale(int32x4_t x, int32_t multiplier, int32_t shift,
                                                              int right)
{
    const int32x4_t high = vqrdmulhq_n_s32(x, multiplier);
    return right ? mcu_requantize_right(high, shift) : high;
}

/* ADD (sub 0) or SUB (sub 1) of four pairs where no rescale shifts left (the usual case: TFLM's input
 * multipliers are at most one half, the larger-scaled input's exactly one half with shift 0, and the
 * output's below one half unless the output scale is the smaller): mcu_add_x4's arithmetic with its tests
 * decided once (r1, r2: the inputs' right shifts), the clamp's bounds kept in registers. */
static inline __attribute__((always_inline)) int32x4_t add_x4(const mcu_add_params *add, int32x4_t a, int32x4_t b,
                                                             int r1, int r2, int sub, int32x4_t lo, int32x4_t hi)
{
    const int32x4_t x1 = vshlq_r_s32(vaddq_n_s32(a, add->input1_offset), add->left_shift);
    const int32x4_t x2 = vshlq_r_s32(vaddq_n_s32(b, add->input2_offset), add->left_shift);
    const int32x4_t y1 = rescale(x1, add->input1_multiplier, add->input1_shift, r1);
    const int32x4_t y2 = rescale(x2, add->input2_multiplier, add->input2_shift, r2);
    const int32x4_t y = rescale(sub ? vsubq_s32(y1, y2) : vaddq_s32(y1, y2), add->output_multiplier,
                                add->output_shift, 1);
    return vminq_s32(vmaxq_s32(vaddq_n_s32(y, add->output_offset), lo), hi);
}

static inline __attribute__((always_inline)) void add_loop(const mcu_add_params *add, int32_t size,
                                                           const int8_t *input1, const int8_t *input2,
                                                           int8_t *output, int r1, int r2, int sub)
{
    const int32x4_t lo = vdupq_n_s32(add->activation.min), hi = vdupq_n_s32(add->activation.max);
    int32_t i = 0;
    for (; i + 4 <= size; i += 4) {
        vstrbq_s32(output + i, add_x4(add, vldrbq_s32(input1 + i), vldrbq_s32(input2 + i), r1, r2, sub, lo, hi));
    }
    if (i < size) {
        const mve_pred16_t p = vctp32q((uint32_t)(size - i));
        vstrbq_p_s32(output + i, add_x4(add, vldrbq_z_s32(input1 + i, p), vldrbq_z_s32(input2 + i, p), r1, r2, sub,
                                        lo, hi), p);
    }
}

/* add_loop for ADD or SUB with the inputs' right shifts (r1, r2) known. */
static inline __attribute__((always_inline)) void add_loop_op(const mcu_add_params *add, int32_t size,
                                                              const int8_t *input1, const int8_t *input2,
                                                              int8_t *output, int r1, int r2)
{
    if (add->operation == MCU_SUB) {
        add_loop(add, size, input1, input2, output, r1, r2, 1);
    } else {
        add_loop(add, size, input1, input2, output, r1, r2, 0);
    }
}

/*
 * ADD or SUB of two int8 tensors of one shape (no broadcasting) on Helium (MVE): mcu_add's results,
 * four elements per vector (each input widened as it loads), the last vector predicated: where no rescale
 * shifts left, add_loop; else mcu_add_x4 as it is. output may be input1 or input2.
 */
void mcu_add_s8_mve(const mcu_add_params *params, int32_t size, const int8_t *input1, const int8_t *input2,
                    int8_t *output)
{
    const mcu_add_params add_copy = *params, *add = &add_copy; /* output stores cannot alias it */
    if (add->input1_shift <= 0 && add->input2_shift <= 0 && add->output_shift < 0) {
        if (add->input1_shift < 0 && add->input2_shift < 0) {
            add_loop_op(add, size, input1, input2, output, 1, 1);
        } else if (add->input1_shift < 0) {
            add_loop_op(add, size, input1, input2, output, 1, 0);
        } else if (add->input2_shift < 0) {
            add_loop_op(add, size, input1, input2, output, 0, 1);
        } else {
            add_loop_op(add, size, input1, input2, output, 0, 0);
        }
        return;
    }
    const int32_t sign = add->operation == MCU_SUB ? -1 : 1;
    for (int32_t i = 0; i < size; i += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(size - i));
        vstrbq_p_s32(output + i, mcu_add_x4(add, vldrbq_z_s32(input1 + i, p), vldrbq_z_s32(input2 + i, p), sign), p);
    }
}
