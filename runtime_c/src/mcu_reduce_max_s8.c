#include "mcu_nn_support.h"

void mcu_reduce_max_s8(const mcu_reduce_params *reduce, const int8_t *input, int8_t *output)
{
    int32_t kept[MCU_MAX_DIMS] = {0};
    do {
        const int8_t *base = input + mcu_dot_index(reduce->kept_rank, kept, reduce->kept_stride);
        int32_t index[MCU_MAX_DIMS] = {0};
        int32_t best = -128;
        do {
            const int32_t v = base[mcu_dot_index(reduce->reduced_rank, index, reduce->reduced_stride)];
            best = v > best ? v : best;
        } while (mcu_next_index(reduce->reduced_rank, reduce->reduced_shape, index));
        *output++ = (int8_t)best;
    } while (mcu_next_index(reduce->kept_rank, reduce->kept_shape, kept));
}
