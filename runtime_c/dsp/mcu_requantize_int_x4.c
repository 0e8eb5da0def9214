#include "mcu_nn_dsp.h"

/*
 * mcu_requantize_int on DSP cores, for int8 and int16 ends and a right shift (mcugen takes only those):
 * |x - zero point| < 2^17, far below 2^30, so the four-instruction SMMLAR form is exact for every value.
 * Four values per pass of the loop.
 */
static inline __attribute__((always_inline)) void requantize_as(const mcu_requantize_params *rq, int32_t size,
                                                                const void *input, void *output, int32_t in_bits,
                                                                int32_t out_bits)
{
    const int32_t low = mcu_min_of(out_bits), high = mcu_max_of(out_bits), right = -rq->shift;
    const int32_t round = 1 << (right - 1), multiplier = rq->multiplier;
#pragma GCC unroll 4
    for (int32_t i = 0; i < size; ++i) {
        const int32_t x = mcu_load(input, i, in_bits) + rq->input_offset;
        const int32_t y = mcu_requantize_fast(x, multiplier, round, right) + rq->output_offset;
        mcu_store(output, i, out_bits, y < low ? low : y > high ? high : y);
    }
}

void mcu_requantize_int_x4(const mcu_requantize_params *rq, int32_t size, const void *input, void *output)
{
    if (rq->input_bits == 16 && rq->output_bits == 8) {
        requantize_as(rq, size, input, output, 16, 8);
    } else if (rq->input_bits == 8 && rq->output_bits == 16) {
        requantize_as(rq, size, input, output, 8, 16);
    } else {
        requantize_as(rq, size, input, output, 16, 16);
    }
}
