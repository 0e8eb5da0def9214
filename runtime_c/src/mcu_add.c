#include "mcu_nn_support.h"

static inline int32_t add_one(const mcu_add_params *add, int32_t a, int32_t b)
{
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

/* The element type is fixed per row so that the loop over a row holds no type test. */
static void add_row(const void *params, int32_t bits, int32_t n, const void *a, int32_t step_a, const void *b,
                    int32_t step_b, void *output)
{
    if (bits == 16) {
        const int16_t *a16 = a, *b16 = b;
        for (int32_t i = 0; i < n; ++i) {
            ((int16_t *)output)[i] = (int16_t)add_one(params, a16[i * step_a], b16[i * step_b]);
        }
    } else {
        const int8_t *a8 = a, *b8 = b;
        for (int32_t i = 0; i < n; ++i) {
            ((int8_t *)output)[i] = (int8_t)add_one(params, a8[i * step_a], b8[i * step_b]);
        }
    }
}

/*
 * TFLM ADD/SUB/SQUARED_DIFFERENCE, int8 or int16: each input is offset, shifted left by left_shift
 * and rescaled to 1/(2*max scale); the two are combined in int32 and rescaled to the output. Every
 * rescale double-rounds.
 */
void mcu_add(const mcu_add_params *add, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, add_row, add);
}
