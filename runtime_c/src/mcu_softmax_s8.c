#include "mcu_nn_support.h"

/*
 * TFLM reference_ops::Softmax for int8 in, int8 or int16 out. exp(x - max) comes from the table
 * (Q0.31), the sum is kept in Q12.19, and 1/sum is TFLM's GetReciprocal (normalise by the leading
 * zeros, then 1/(1 + x)). Each output is exp * (1/sum) scaled to 2^-bits and shifted by the output
 * type's minimum (its zero point).
 */
void mcu_softmax_s8(const mcu_softmax_params *softmax, int32_t rows, int32_t depth,
                    const int8_t *input, void *output)
{
    const int32_t bits = softmax->output_bits;
    const int32_t low = mcu_min_of(bits), high = mcu_max_of(bits);
    for (int32_t r = 0; r < rows; ++r, input += depth) {
        int32_t max = -128;
        for (int32_t c = 0; c < depth; ++c) {
            max = input[c] > max ? input[c] : max;
        }
        int32_t sum = 0;
        for (int32_t c = 0; c < depth; ++c) {
            sum += mcu_rdbpot(softmax->exp_lut[max - input[c]], 12);
        }
        const int32_t headroom = mcu_clz((uint32_t)sum);
        const int32_t bits_over_unit = 12 - headroom;
        const int32_t scale = mcu_one_over_one_plus_x((int32_t)(((uint32_t)sum << headroom) - 0x80000000u));
        for (int32_t c = 0; c < depth; ++c) {
            const int32_t e = softmax->exp_lut[max - input[c]];
            int32_t y = mcu_rdbpot(mcu_srdhm(scale, e), bits_over_unit + 31 - bits) + low;
            mcu_store(output, r * depth + c, bits, y > high ? high : y); /* never below low */
        }
    }
}
