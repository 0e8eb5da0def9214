#include "mcu_nn_support.h"

static inline int32_t add_one(const void *params, int32_t a, int32_t b)
{
    const mcu_add_params *add = params;
    const int32_t x1 = (a + add->input1_offset) * (1 << add->left_shift);
    const int32_t x2 = (b + add->input2_offset) * (1 << add->left_shift);
    const int32_t y1 = mcu_requantize(x1, add->input1_multiplier, add->input1_shift);
    const int32_t y2 = mcu_requantize(x2, add->input2_multiplier, add->input2_shift);
    int32_t raw;
    switch (add->operation) {
    case MCU_ADD: raw = y1 + y2; break;
    case MCU_SUB: raw = y1 - y2; break;
    default: raw = (y1 - y2) * (y1 - y2); break;
    }
    return mcu_clamp(mcu_requantize(raw, add->output_multiplier, add->output_shift) + add->output_offset,
                     add->activation);
}

/*
 * TFLM ADD/SUB/SQUARED_DIFFERENCE, int8 or int16: each input is offset, shifted left by left_shift
 * and rescaled to 1/(2*max scale); the two are combined in int32 and rescaled to the output. Every
 * rescale double-rounds.
 */
void mcu_add(const mcu_add_params *add, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, add_one, add);
}
