#include <string.h>

#include "mcu_nn.h"

void mcu_gather_s8(const mcu_gather_params *gather, const int8_t *input, int8_t *output)
{
    const int32_t n = gather->inner;
    for (int32_t o = 0; o < gather->outer; ++o) {
        const int8_t *slab = input + o * gather->axis_size * n;
        for (int32_t k = 0; k < gather->count; ++k) {
            memcpy(output, slab + gather->indices[k] * n, (size_t)n);
            output += n;
        }
    }
}
