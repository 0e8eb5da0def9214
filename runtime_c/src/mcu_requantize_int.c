#include "mcu_nn_support.h"

/* The loop for one pair of element types: `in_bits` and `out_bits` are constants where this is inlined,
 * so that loads, stores and bounds are fixed outside the loop. */
static inline __attribute__((always_inline)) void requantize_as(const mcu_requantize_params *rq, int32_t size,
                                                                const void *input, void *output, int32_t in_bits,
                                                                int32_t out_bits)
{
    const int32_t low = mcu_min_of(out_bits), high = mcu_max_of(out_bits);
    for (int32_t i = 0; i < size; ++i) {
        const int32_t x = (int32_t)((uint32_t)mcu_load(input, i, in_bits) + (uint32_t)rq->input_offset);
        const int32_t y = (int32_t)((uint32_t)mcu_requantize(x, rq->multiplier, rq->shift) + (uint32_t)rq->output_offset);
        mcu_store(output, i, out_bits, y < low ? low : y > high ? high : y);
    }
}

/* TFLM reference_ops::Requantize: the input offset and output offset added with int32 wrap-around
 * (as TFLM's int32 arithmetic does on the oracle), the result clamped to the output type. The int8 and
 * int16 pairs (a model's int16 ends, the joints of its int8 and int16 segments) get loops of their own. */
void mcu_requantize_int(const mcu_requantize_params *rq, int32_t size, const void *input, void *output)
{
    if (rq->input_bits == 16 && rq->output_bits == 8) {
        requantize_as(rq, size, input, output, 16, 8);
    } else if (rq->input_bits == 8 && rq->output_bits == 16) {
        requantize_as(rq, size, input, output, 8, 16);
    } else {
        requantize_as(rq, size, input, output, rq->input_bits, rq->output_bits);
    }
}
