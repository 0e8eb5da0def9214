#include <string.h>

#include "mcu_nn.h"

void mcu_gather(const mcu_gather_params *gather, const void *input, void *output)
{
    const int32_t n = gather->inner;
    int8_t *out = output;
    for (int32_t o = 0; o < gather->outer; ++o) {
        const int8_t *slab = (const int8_t *)input + o * gather->axis_size * n;
        for (int32_t k = 0; k < gather->count; ++k) {
            memcpy(out, slab + gather->indices[k] * n, (size_t)n);
            out += n;
        }
    }
}
