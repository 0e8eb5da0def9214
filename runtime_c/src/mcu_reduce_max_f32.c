#include <float.h>

#include "mcu_nn_support.h"

/*
 * REDUCE_MAX and REDUCE_MIN in float32 (TFLM's reference ReduceGeneric): for every position of the kept
 * axes, from the lowest float (REDUCE_MIN: the largest), each reduced value in the input's row-major
 * order taken where `in > current` (`in < current`), so a NaN is passed over.
 */
void mcu_reduce_max_f32(const mcu_reduce_params *params, int32_t minimum, const float *input, float *output)
{
    int32_t kept[MCU_MAX_DIMS] = {0};
    do {
        const float *base = input + mcu_dot_index(params->kept_rank, kept, params->kept_stride);
        int32_t reduced[MCU_MAX_DIMS] = {0};
        float best = minimum ? FLT_MAX : -FLT_MAX;
        do {
            const float in = base[mcu_dot_index(params->reduced_rank, reduced, params->reduced_stride)];
            best = (minimum ? in < best : in > best) ? in : best;
        } while (mcu_next_index(params->reduced_rank, params->reduced_shape, reduced));
        *output++ = best;
    } while (mcu_next_index(params->kept_rank, params->kept_shape, kept));
}
