#include <string.h>

#include "mcu_nn.h"

void mcu_split_s8(const mcu_concat_params *split, const int8_t *input, int8_t *const *outputs)
{
    for (int32_t o = 0; o < split->outer; ++o) {
        for (int32_t i = 0; i < split->count; ++i) {
            const int32_t n = split->inner[i];
            memcpy(outputs[i] + o * n, input, (size_t)n);
            input += n;
        }
    }
}
