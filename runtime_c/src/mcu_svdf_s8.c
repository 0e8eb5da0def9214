#include <string.h>

#include "mcu_nn_support.h"

/*
 * TFLM EvalIntegerSvdfReference, without its two scratch buffers: each unit's `rank` filter sums are
 * added as they are made (int32 sums wrap the same in any order). The newest state value is the
 * clamped requantized dot product plus the state zero point, narrowed as TFLM's assignment narrows it.
 * The state and the time weights share one type, int8 or int16 (state_bits): TFLM compiles its kernel twice.
 */
void mcu_svdf_s8(const mcu_svdf_params *svdf, const int8_t *input, const int8_t *weights_feature,
                 const void *weights_time, const int32_t *bias, void *state, int8_t *output)
{
    const int32_t bits = svdf->state_bits;
    const int32_t low = mcu_min_of(bits), high = mcu_max_of(bits);
    const int32_t cells = svdf->shape.batches * svdf->shape.filters * svdf->shape.memory;
    const int32_t size = bits / 8;
    memmove(state, (const int8_t *)state + size, (size_t)(cells - 1) * (size_t)size); /* one slot left */
    for (int32_t b = 0; b < svdf->shape.batches; ++b) {
        const int8_t *x = input + b * svdf->shape.input_size;
        for (int32_t f = 0; f < svdf->shape.filters; ++f) {
            const int8_t *w = weights_feature + f * svdf->shape.input_size;
            int32_t acc = 0;
            for (int32_t c = 0; c < svdf->shape.input_size; ++c) {
                acc += w[c] * (x[c] + svdf->input_offset);
            }
            acc = mcu_requantize(acc, svdf->feature.multiplier, svdf->feature.shift);
            acc = acc < low ? low : acc > high ? high : acc;
            mcu_store(state, (b * svdf->shape.filters + f) * svdf->shape.memory + svdf->shape.memory - 1, bits,
                      svdf->state_zero_point + acc);
        }
    }
    const int32_t units = svdf->shape.filters / svdf->shape.rank;
    for (int32_t b = 0; b < svdf->shape.batches; ++b) {
        for (int32_t u = 0; u < units; ++u) {
            int32_t acc = bias[u];
            for (int32_t f = u * svdf->shape.rank; f < (u + 1) * svdf->shape.rank; ++f) {
                const int32_t row = b * svdf->shape.filters + f;
                for (int32_t m = 0; m < svdf->shape.memory; ++m) {
                    acc += mcu_load(weights_time, f * svdf->shape.memory + m, bits)
                           * (mcu_load(state, row * svdf->shape.memory + m, bits) - svdf->state_zero_point);
                }
            }
            int32_t y = mcu_requantize(acc, svdf->time.multiplier, svdf->time.shift) + svdf->output_offset;
            output[b * units + u] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
        }
    }
}
