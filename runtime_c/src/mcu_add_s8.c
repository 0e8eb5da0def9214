#include "mcu_nn_support.h"

static void add_row(const void *params, int32_t n, const int8_t *a, int32_t step_a, const int8_t *b,
                    int32_t step_b, int8_t *output)
{
    const mcu_add_params *add = params;
    for (int32_t i = 0; i < n; ++i) {
        const int32_t x1 = (a[i * step_a] + add->input1_offset) * (1 << add->left_shift);
        const int32_t x2 = (b[i * step_b] + add->input2_offset) * (1 << add->left_shift);
        const int32_t y1 = mcu_requantize(x1, add->input1_multiplier, add->input1_shift);
        const int32_t y2 = mcu_requantize(x2, add->input2_multiplier, add->input2_shift);
        int32_t raw;
        switch (add->operation) {
        case MCU_ADD: raw = y1 + y2; break;
        case MCU_SUB: raw = y1 - y2; break;
        default: raw = (y1 - y2) * (y1 - y2); break;
        }
        const int32_t y = mcu_requantize(raw, add->output_multiplier, add->output_shift) + add->output_offset;
        output[i] = mcu_clamp_s8(y, add->activation);
    }
}

/*
 * TFLM int8 ADD/SUB/SQUARED_DIFFERENCE: each input is offset, shifted left by left_shift and rescaled
 * to 1/(2*max scale); the two are combined in int32 and rescaled to the output. Every rescale
 * double-rounds.
 */
void mcu_add_s8(const mcu_add_params *add, const mcu_broadcast *bc,
                const int8_t *input1, const int8_t *input2, int8_t *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, add_row, add);
}
