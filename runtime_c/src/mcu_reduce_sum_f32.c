#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/*
 * SUM and MEAN in float32 (TFLM's reference ReduceSum and Mean): for every position of the kept axes,
 * the reduced values summed from 0.0f in the input's row-major order; MEAN (mean = 1) then divides by
 * their count, as a float.
 */
void mcu_reduce_sum_f32(const mcu_reduce_params *params, int32_t mean, const float *input, float *output)
{
    int32_t kept[MCU_MAX_DIMS] = {0};
    int32_t count = 1;
    for (int32_t k = 0; k < params->reduced_rank; ++k) {
        count *= params->reduced_shape[k];
    }
    do {
        const float *base = input + mcu_dot_index(params->kept_rank, kept, params->kept_stride);
        int32_t reduced[MCU_MAX_DIMS] = {0};
        float total = 0.0f;
        do {
            total += base[mcu_dot_index(params->reduced_rank, reduced, params->reduced_stride)];
        } while (mcu_next_index(params->reduced_rank, params->reduced_shape, reduced));
        *output++ = mean ? total / (float)count : total;
    } while (mcu_next_index(params->kept_rank, params->kept_shape, kept));
}
