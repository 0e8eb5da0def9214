#include "mcu_nn.h"

void mcu_arg_min_max_s8(const mcu_arg_params *arg, const int8_t *input, int32_t *output)
{
    for (int32_t o = 0; o < arg->outer; ++o) {
        for (int32_t i = 0; i < arg->inner; ++i) {
            const int8_t *x = input + o * arg->axis_size * arg->inner + i;
            int32_t best = 0;
            for (int32_t k = 1; k < arg->axis_size; ++k) {
                const int8_t v = x[k * arg->inner], b = x[best * arg->inner];
                if (arg->minimum ? v < b : v > b) {
                    best = k;
                }
            }
            *output++ = best;
        }
    }
}
