#include "mcu_nn_support.h"

/*
 * TFLM QuantizedMeanOrSum for MEAN, int8 or int16: the zero-point-corrected sum over the reduced
 * axes (an int32 that wraps, as TFLM's) is requantized once by s_in / (s_out * count); mcugen
 * folded the 1/count into the multiplier.
 */
void mcu_mean(const mcu_reduce_params *reduce, const void *input, void *output)
{
    int32_t kept[MCU_MAX_DIMS] = {0};
    int32_t at = 0;
    do {
        const int32_t base = mcu_dot_index(reduce->kept_rank, kept, reduce->kept_stride);
        int32_t index[MCU_MAX_DIMS] = {0};
        uint32_t sum = 0;
        do {
            const int32_t v = mcu_load(input, base + mcu_dot_index(reduce->reduced_rank, index, reduce->reduced_stride),
                                       reduce->bits);
            sum += (uint32_t)(v + reduce->input_offset);
        } while (mcu_next_index(reduce->reduced_rank, reduce->reduced_shape, index));
        const int32_t y = mcu_requantize((int32_t)sum, reduce->multiplier, reduce->shift) + reduce->output_offset;
        mcu_store(output, at++, reduce->bits, mcu_clamp(y, (mcu_activation){mcu_min_of(reduce->bits),
                                                                            mcu_max_of(reduce->bits)}));
    } while (mcu_next_index(reduce->kept_rank, reduce->kept_shape, kept));
}
