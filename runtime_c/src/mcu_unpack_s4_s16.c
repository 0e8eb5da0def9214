#include "mcu_nn_support.h"

/*
 * INT4 weights, two to a byte with the low nibble first, into int16 values in [-8, 7]: the weights of
 * a kernel that reads them widened (mcu_unpack_s4 gives int8 ones).
 */
void mcu_unpack_s4_s16(const int8_t *packed, int32_t count, int16_t *output)
{
    for (int32_t i = 0; i < count; ++i) {
        const uint8_t nibble = (uint8_t)((uint8_t)packed[i / 2] >> (4 * (i % 2))) & 0x0Fu;
        output[i] = (int16_t)((nibble ^ 0x08u) - 8);
    }
}
