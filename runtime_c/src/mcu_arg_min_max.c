#include "mcu_nn.h"

/* Whether the value at a beats the one at b: TFLM's std::greater / std::less (a NaN beats nothing and
 * nothing beats it). */
static inline int32_t beats(const mcu_arg_params *arg, const void *input, int32_t a, int32_t b)
{
    if (arg->is_float) {
        const float va = ((const float *)input)[a], vb = ((const float *)input)[b];
        return arg->minimum ? va < vb : va > vb;
    }
    const int8_t va = ((const int8_t *)input)[a], vb = ((const int8_t *)input)[b];
    return arg->minimum ? va < vb : va > vb;
}

void mcu_arg_min_max(const mcu_arg_params *arg, const void *input, int32_t *output)
{
    for (int32_t o = 0; o < arg->outer; ++o) {
        for (int32_t i = 0; i < arg->inner; ++i) {
            const int32_t first = o * arg->axis_size * arg->inner + i;
            int32_t best = 0;
            for (int32_t k = 1; k < arg->axis_size; ++k) {
                if (beats(arg, input, first + k * arg->inner, first + best * arg->inner)) {
                    best = k;
                }
            }
            *output++ = best;
        }
    }
}
