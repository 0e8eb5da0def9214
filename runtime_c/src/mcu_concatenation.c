#include <string.h>

#include "mcu_nn.h"

void mcu_concatenation(const mcu_concat_params *concat, const void *const *inputs, void *output)
{
    int8_t *out = output;
    for (int32_t o = 0; o < concat->outer; ++o) {
        for (int32_t i = 0; i < concat->count; ++i) {
            const int32_t n = concat->inner[i];
            memcpy(out, (const int8_t *)inputs[i] + o * n, (size_t)n);
            out += n;
        }
    }
}
