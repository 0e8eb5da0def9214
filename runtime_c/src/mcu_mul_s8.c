#include "mcu_nn_support.h"

static void mul_row(const void *params, int32_t n, const int8_t *a, int32_t step_a, const int8_t *b,
                    int32_t step_b, int8_t *output)
{
    const mcu_mul_params *mul = params;
    for (int32_t i = 0; i < n; ++i) {
        const int32_t product = (a[i * step_a] + mul->input1_offset) * (b[i * step_b] + mul->input2_offset);
        const int32_t y = mcu_requantize(product, mul->multiplier, mul->shift) + mul->output_offset;
        output[i] = mcu_clamp_s8(y, mul->activation);
    }
}

/* TFLM int8 MUL: (x1 + offset1) * (x2 + offset2), requantized by s1 * s2 / s_out. */
void mcu_mul_s8(const mcu_mul_params *mul, const mcu_broadcast *bc,
                const int8_t *input1, const int8_t *input2, int8_t *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, mul_row, mul);
}
