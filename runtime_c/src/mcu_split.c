#include <string.h>

#include "mcu_nn.h"

void mcu_split(const mcu_concat_params *split, const void *input, void *const *outputs)
{
    const int8_t *in = input;
    for (int32_t o = 0; o < split->outer; ++o) {
        for (int32_t i = 0; i < split->count; ++i) {
            const int32_t n = split->inner[i];
            memcpy((int8_t *)outputs[i] + o * n, in, (size_t)n);
            in += n;
        }
    }
}
