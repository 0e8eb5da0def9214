#include "mcu_nn_support.h"

/* TFLM's LUTLookup: entry 256 + (x >> 7) plus the slope to the next times the 7 low bits, rounded. */
static int16_t lookup(const int16_t *lut, int32_t value)
{
    const int32_t index = 256 + (value >> 7);
    const int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
    return (int16_t)(lut[index] + ((slope * (value & 0x7F) + 64) >> 7));
}

/*
 * TFLM reference_ops::SoftmaxInt16. Per row: each (x - max) is rescaled so that [-65535, 0] covers
 * the exp table's [-10, 0] and read from it (Q0.15); the exps are kept in the output row while
 * their sum is made; the sum, normalised by its leading zeros, goes through the 1 / (1 + x) table;
 * each exp times that reciprocal is shifted back and rounded into [0, 32767].
 */
void mcu_softmax_s16(const mcu_softmax_s16_params *softmax, int32_t rows, int32_t depth,
                     const int16_t *input, int16_t *output)
{
    for (int32_t r = 0; r < rows; ++r, input += depth, output += depth) {
        int32_t max = INT16_MIN;
        for (int32_t c = 0; c < depth; ++c) {
            max = input[c] > max ? input[c] : max;
        }
        int32_t sum = 0;
        for (int32_t c = 0; c < depth; ++c) {
            const int32_t scaled = mcu_requantize(input[c] - max, softmax->input_multiplier, softmax->input_shift);
            output[c] = lookup(softmax->exp_lut, mcu_sat_s16(scaled + 32767));
            sum += output[c];
        }
        const int32_t headroom = mcu_clz((uint32_t)sum);
        const int32_t shifted = (int32_t)((((int64_t)sum << (headroom - 1)) + (1 << 13)) >> 14);
        const int32_t reciprocal = lookup(softmax->one_over_lut, mcu_sat_s16(shifted - (1 << 15) - (1 << 16)));
        const int32_t right = 31 - headroom;
        for (int32_t c = 0; c < depth; ++c) {
            const int32_t y = (int32_t)(((int64_t)output[c] * reciprocal + ((int64_t)1 << (right - 1))) >> right);
            output[c] = (int16_t)(y < 0 ? 0 : y > 32767 ? 32767 : y);
        }
    }
}
