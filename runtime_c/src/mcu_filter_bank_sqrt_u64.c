#include "mcu_nn_support.h"

/* TFLM's Sqrt32/Sqrt64: digit by digit from the highest even bit, then one more where the remainder
 * exceeds the root (unless the root is the type's largest). */
static uint32_t root(uint64_t num)
{
    const int wide = (num >> 32) != 0;
    if (num == 0) {
        return 0;
    }
    const int top = 63 - __builtin_clzll(num); /* the highest set bit */
    uint64_t bit = (uint64_t)1 << (top & ~1), res = 0;
    while (bit) {
        if (num >= res + bit) {
            num -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (num > res && res != (wide ? 0xFFFFFFFFu : 0xFFFFu)) {
        ++res;
    }
    return (uint32_t)res;
}

void mcu_filter_bank_sqrt_u64(int32_t channels, const uint64_t *input, const int32_t *scale_bits, uint32_t *output)
{
    const uint32_t shift = (uint32_t)*scale_bits & 31u; /* beyond 31 C has no value; x86's shifter masks so */
    for (int32_t i = 0; i < channels; ++i) {
        output[i] = root(input[i]) >> shift;
    }
}
