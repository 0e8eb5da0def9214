#include "mcu_nn_support.h"

/*
 * TFLM QuantizedMeanOrSum for MEAN: the zero-point-corrected sum over the reduced axes is
 * requantized once by s_in / (s_out * count); mcugen folded the 1/count into the multiplier.
 */
void mcu_mean_s8(const mcu_reduce_params *reduce, const int8_t *input, int8_t *output)
{
    int32_t kept[MCU_MAX_DIMS] = {0};
    do {
        const int8_t *base = input + mcu_dot_index(reduce->kept_rank, kept, reduce->kept_stride);
        int32_t index[MCU_MAX_DIMS] = {0};
        int32_t sum = 0;
        do {
            sum += base[mcu_dot_index(reduce->reduced_rank, index, reduce->reduced_stride)] + reduce->input_offset;
        } while (mcu_next_index(reduce->reduced_rank, reduce->reduced_shape, index));
        const int32_t y = mcu_requantize(sum, reduce->multiplier, reduce->shift) + reduce->output_offset;
        *output++ = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
    } while (mcu_next_index(reduce->kept_rank, reduce->kept_shape, kept));
}
