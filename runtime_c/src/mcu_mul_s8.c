#include "mcu_nn_support.h"

/* TFLM int8 MUL: (x1 + offset1) * (x2 + offset2), requantized by s1 * s2 / s_out. */
void mcu_mul_s8(const mcu_mul_params *mul, const mcu_broadcast *bc,
                const int8_t *input1, const int8_t *input2, int8_t *output)
{
    int32_t index[MCU_MAX_DIMS] = {0};
    const int32_t last = bc->rank - 1;
    const int32_t n = bc->shape[last], s1 = bc->stride1[last], s2 = bc->stride2[last];
    do {
        const int8_t *a = input1 + mcu_dot_index(last, index, bc->stride1);
        const int8_t *b = input2 + mcu_dot_index(last, index, bc->stride2);
        for (int32_t i = 0; i < n; ++i) {
            const int32_t product = (a[i * s1] + mul->input1_offset) * (b[i * s2] + mul->input2_offset);
            const int32_t y = mcu_requantize(product, mul->multiplier, mul->shift) + mul->output_offset;
            *output++ = mcu_clamp_s8(y, mul->activation);
        }
    } while (mcu_next_index(last, bc->shape, index));
}
