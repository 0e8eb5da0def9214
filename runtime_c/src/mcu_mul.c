#include "mcu_nn_support.h"

static inline int32_t mul_one(const void *params, int32_t a, int32_t b)
{
    const mcu_mul_params *mul = params;
    const int32_t product = (a + mul->input1_offset) * (b + mul->input2_offset);
    return mcu_clamp(mcu_requantize(product, mul->multiplier, mul->shift) + mul->output_offset, mul->activation);
}

/* TFLM MUL, int8 or int16: (x1 + offset1) * (x2 + offset2), requantized by s1 * s2 / s_out. */
void mcu_mul(const mcu_mul_params *mul, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, mul_one, mul);
}
