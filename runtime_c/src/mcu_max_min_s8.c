#include "mcu_nn_support.h"

void mcu_max_min_s8(int32_t minimum, const mcu_broadcast *bc, const int8_t *input1, const int8_t *input2,
                    int8_t *output)
{
    int32_t index[MCU_MAX_DIMS] = {0};
    const int32_t last = bc->rank - 1;
    const int32_t n = bc->shape[last], s1 = bc->stride1[last], s2 = bc->stride2[last];
    do {
        const int8_t *a = input1 + mcu_dot_index(last, index, bc->stride1);
        const int8_t *b = input2 + mcu_dot_index(last, index, bc->stride2);
        for (int32_t i = 0; i < n; ++i) {
            const int8_t x1 = a[i * s1], x2 = b[i * s2];
            *output++ = (x1 < x2) == (minimum != 0) ? x1 : x2;
        }
    } while (mcu_next_index(last, bc->shape, index));
}
