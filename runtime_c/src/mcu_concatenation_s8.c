#include <string.h>

#include "mcu_nn.h"

void mcu_concatenation_s8(const mcu_concat_params *concat, const int8_t *const *inputs, int8_t *output)
{
    for (int32_t o = 0; o < concat->outer; ++o) {
        for (int32_t i = 0; i < concat->count; ++i) {
            const int32_t n = concat->inner[i];
            memcpy(output, inputs[i] + o * n, (size_t)n);
            output += n;
        }
    }
}
