#include "mcu_nn_support.h"

static void max_min_row(const void *params, int32_t n, const int8_t *a, int32_t step_a, const int8_t *b,
                        int32_t step_b, int8_t *output)
{
    const int32_t minimum = *(const int32_t *)params;
    for (int32_t i = 0; i < n; ++i) {
        const int8_t x1 = a[i * step_a], x2 = b[i * step_b];
        output[i] = (x1 < x2) == (minimum != 0) ? x1 : x2;
    }
}

void mcu_max_min_s8(int32_t minimum, const mcu_broadcast *bc, const int8_t *input1, const int8_t *input2,
                    int8_t *output)
{
    mcu_broadcast_rows(bc, input1, input2, output, max_min_row, &minimum);
}
