#include "mcu_nn_support.h"

/*
 * INT4 weights, two to a byte with the low nibble first, into int8 values in [-8, 7], as TFLM's
 * UnpackDenseInt4IntoInt8 does before its int8 kernels run; an odd count leaves the last high nibble.
 */
void mcu_unpack_s4(const int8_t *packed, int32_t count, int8_t *output)
{
    for (int32_t i = 0; i < count / 2; ++i) {
        const uint8_t byte = (uint8_t)packed[i];
        output[2 * i] = (int8_t)((byte & 0x0Fu) ^ 0x08u) - 8;
        output[2 * i + 1] = (int8_t)((byte >> 4) ^ 0x08u) - 8;
    }
    if (count % 2 != 0) {
        output[count - 1] = (int8_t)(((uint8_t)packed[count / 2] & 0x0Fu) ^ 0x08u) - 8;
    }
}
