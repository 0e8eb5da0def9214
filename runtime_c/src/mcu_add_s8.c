#include "mcu_nn_support.h"

/*
 * TFLM int8 ADD/SUB: each input is offset, shifted left by left_shift and rescaled to 1/(2*max scale);
 * the two are combined in int32 and rescaled to the output. Every rescale double-rounds.
 */
void mcu_add_s8(const mcu_add_params *add, const mcu_broadcast *bc,
                const int8_t *input1, const int8_t *input2, int8_t *output)
{
    int32_t index[MCU_MAX_DIMS] = {0};
    const int32_t last = bc->rank - 1;
    const int32_t n = bc->shape[last], s1 = bc->stride1[last], s2 = bc->stride2[last];
    do {
        const int8_t *a = input1 + mcu_dot_index(last, index, bc->stride1);
        const int8_t *b = input2 + mcu_dot_index(last, index, bc->stride2);
        for (int32_t i = 0; i < n; ++i) {
            const int32_t x1 = (a[i * s1] + add->input1_offset) * (1 << add->left_shift);
            const int32_t x2 = (b[i * s2] + add->input2_offset) * (1 << add->left_shift);
            const int32_t y1 = mcu_requantize(x1, add->input1_multiplier, add->input1_shift);
            const int32_t y2 = mcu_requantize(x2, add->input2_multiplier, add->input2_shift);
            const int32_t raw = add->subtract ? y1 - y2 : y1 + y2;
            const int32_t y = mcu_requantize(raw, add->output_multiplier, add->output_shift) + add->output_offset;
            *output++ = mcu_clamp_s8(y, add->activation);
        }
    } while (mcu_next_index(last, bc->shape, index));
}
