#include "mcu_nn_support.h"

/* TFLM reference_ops::Requantize: the input offset and output offset added with int32 wrap-around
 * (as TFLM's int32 arithmetic does on the oracle), the result clamped to the output type. */
void mcu_requantize_int(const mcu_requantize_params *rq, int32_t size, const void *input, void *output)
{
    for (int32_t i = 0; i < size; ++i) {
        const int32_t x = (int32_t)((uint32_t)mcu_load(input, i, rq->input_bits) + (uint32_t)rq->input_offset);
        const int32_t y = (int32_t)((uint32_t)mcu_requantize(x, rq->multiplier, rq->shift) + (uint32_t)rq->output_offset);
        const int32_t low = mcu_min_of(rq->output_bits), high = mcu_max_of(rq->output_bits);
        mcu_store(output, i, rq->output_bits, y < low ? low : y > high ? high : y);
    }
}
