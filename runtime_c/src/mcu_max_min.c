#include <stddef.h>

#include "mcu_nn_support.h"

static inline int32_t max_one(const void *params, int32_t a, int32_t b)
{
    (void)params;
    return a > b ? a : b;
}

static inline int32_t min_one(const void *params, int32_t a, int32_t b)
{
    (void)params;
    return a < b ? a : b;
}

void mcu_max_min(int32_t minimum, const mcu_broadcast *bc, const void *input1, const void *input2, void *output)
{
    /* two calls, not one with a chosen pointer, so that each inlines its element function */
    if (minimum) {
        mcu_broadcast_rows(bc, input1, input2, output, min_one, NULL);
    } else {
        mcu_broadcast_rows(bc, input1, input2, output, max_one, NULL);
    }
}
