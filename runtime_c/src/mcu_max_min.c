#include "mcu_nn_support.h"

static void max_min_row(const void *params, int32_t bits, int32_t n, const void *a, int32_t step_a, const void *b,
                        int32_t step_b, void *output)
{
    const int32_t minimum = *(const int32_t *)params;
    for (int32_t i = 0; i < n; ++i) {
        const int32_t x1 = mcu_load(a, i * step_a, bits), x2 = mcu_load(b, i * step_b, bits);
        mcu_store(output, i, bits, (x1 < x2) == (minimum != 0) ? x1 : x2);
    }
}

void mcu_max_min(int32_t minimum, const mcu_broadcast *bc, const void *input1, const void *input2, void *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, max_min_row, &minimum);
}
