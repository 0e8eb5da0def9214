#include "mcu_nn_support.h"

void mcu_fft_auto_scale_s16(int32_t size, const int16_t *input, int16_t *output, int32_t *scale_bits)
{
    /* TFLM's MaxAbs16 word for word: -(-32768) stored back into an int16 is -32768 again */
    int16_t largest = 0;
    for (int32_t i = 0; i < size; ++i) {
        const int16_t value = input[i];
        if (value > largest) {
            largest = value;
        } else if (-value > largest) {
            largest = (int16_t)(uint16_t)(-(int32_t)value);
        }
    }
    /* MostSignificantBit32 of its uint32 value, 32 for 0 as TFLM's GCC build has it */
    const uint32_t magnitude = (uint32_t)(int32_t)largest;
    const int32_t msb = magnitude ? 32 - __builtin_clz(magnitude) : 32;
    int32_t bits = 16 - msb - 1;
    bits = bits < 0 ? 0 : bits;
    for (int32_t i = 0; i < size; ++i) {
        output[i] = (int16_t)(uint16_t)((uint32_t)(int32_t)input[i] << bits);
    }
    *scale_bits = bits;
}
