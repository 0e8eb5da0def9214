#include "mcu_nn_support.h"

static int32_t load(const void *base, int32_t i, int32_t bits)
{
    return bits == 32 ? ((const int32_t *)base)[i] : bits == 16 ? ((const int16_t *)base)[i] : ((const int8_t *)base)[i];
}

/* TFLM reference_ops::Requantize: the input offset and output offset added with int32 wrap-around
 * (as TFLM's int32 arithmetic does on the oracle), the result clamped to the output type. */
void mcu_requantize_int(const mcu_requantize_params *rq, int32_t size, const void *input, void *output)
{
    for (int32_t i = 0; i < size; ++i) {
        const int32_t x = (int32_t)((uint32_t)load(input, i, rq->input_bits) + (uint32_t)rq->input_offset);
        int32_t y = (int32_t)((uint32_t)mcu_requantize(x, rq->multiplier, rq->shift) + (uint32_t)rq->output_offset);
        y = y < rq->min ? rq->min : y > rq->max ? rq->max : y;
        if (rq->output_bits == 32) {
            ((int32_t *)output)[i] = y;
        } else if (rq->output_bits == 16) {
            ((int16_t *)output)[i] = (int16_t)y;
        } else {
            ((int8_t *)output)[i] = (int8_t)y;
        }
    }
}
