#include "mcu_nn.h"

void mcu_lut(const int8_t *table, int32_t size, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < size; ++i) {
        output[i] = table[input[i] + 128];
    }
}
