#include "mcu_nn_support.h"

static inline int32_t mul_one(const mcu_mul_params *mul, int32_t a, int32_t b)
{
    const int32_t product = (a + mul->input1_offset) * (b + mul->input2_offset);
    return mcu_clamp(mcu_requantize(product, mul->multiplier, mul->shift) + mul->output_offset, mul->activation);
}

/* The element type is fixed per row so that the loop over a row holds no type test. */
static void mul_row(const void *params, int32_t bits, int32_t n, const void *a, int32_t step_a, const void *b,
                    int32_t step_b, void *output)
{
    if (bits == 16) {
        const int16_t *a16 = a, *b16 = b;
        for (int32_t i = 0; i < n; ++i) {
            ((int16_t *)output)[i] = (int16_t)mul_one(params, a16[i * step_a], b16[i * step_b]);
        }
    } else {
        const int8_t *a8 = a, *b8 = b;
        for (int32_t i = 0; i < n; ++i) {
            ((int8_t *)output)[i] = (int8_t)mul_one(params, a8[i * step_a], b8[i * step_b]);
        }
    }
}

/* TFLM MUL, int8 or int16: (x1 + offset1) * (x2 + offset2), requantized by s1 * s2 / s_out. */
void mcu_mul(const mcu_mul_params *mul, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, mul_row, mul);
}
