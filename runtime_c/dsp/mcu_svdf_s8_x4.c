#include "mcu_nn_fc_dsp.h"

/*
 * SVDF with int8 state and time weights on DSP cores: the results of src/mcu_svdf_s8.c. The feature
 * dot products run four filters at a time on the FC loop (MCU_DOT4), the input offset folded into
 * feature_bias (input_offset * sum of each filter's weights); the time dot products take a word of
 * state and of weights at a time (SXTB16, two SMLAD per four values), the state zero point folded
 * into bias_folded (bias[u] - state_zero_point * sum of unit u's time weights). Sums wrap as int32
 * in any order, so the results are the reference's.
 * weights_feature: interleaved by 4 filters (kernels/layouts.py interleave4; filters padded to a
 * multiple of 4, and feature_bias with them).
 */

void mcu_svdf_s8_x4(const mcu_svdf_params *svdf, const int8_t *input, const int8_t *weights_feature,
                    const int32_t *feature_bias, const int8_t *weights_time, const int32_t *bias_folded,
                    int8_t *state, int8_t *output)
{
    const int32_t size = svdf->shape.input_size, filters = svdf->shape.filters, memory = svdf->shape.memory;
    const int32_t cells = svdf->shape.batches * filters * memory;
    /* one slot left, a word at a time (unaligned words are allowed on ARMv7-M): forward, each word is
     * read before any of its bytes is written */
    int32_t i = 0;
    for (; i + 4 <= cells - 1; i += 4) {
        const uint32_t v = mcu_load4(state + i + 1);
        memcpy(state + i, &v, sizeof v);
    }
    for (; i < cells - 1; ++i) {
        state[i] = state[i + 1];
    }
    for (int32_t b = 0; b < svdf->shape.batches; ++b) {
        const int8_t *x = input + b * size, *w = weights_feature;
        uint32_t last = 0; /* the row's last size % 4 values, zero-filled */
        memcpy(&last, x + size / 4 * 4, (size_t)(size % 4));
        for (int32_t f = 0; f < filters; f += 4) {
            int32_t acc[4];
            memcpy(acc, feature_bias + f, sizeof acc);
            MCU_DOT4(x, size / 4, w, acc[0], acc[1], acc[2], acc[3]);
            if (size % 4 != 0) {
                MCU_DOT4_LAST(mcu_even_bytes(last), mcu_odd_bytes(last), w, acc[0], acc[1], acc[2], acc[3]);
            }
            for (int32_t j = 0; j < 4 && f + j < filters; ++j) {
                int32_t v = mcu_requantize_dsp(acc[j], svdf->feature.multiplier, svdf->feature.shift);
                v = v < -128 ? -128 : v > 127 ? 127 : v;
                state[(b * filters + f + j) * memory + memory - 1] = (int8_t)(svdf->state_zero_point + v);
            }
        }
    }
    /* a unit's filters are consecutive rows of the time weights and of the state: one dot product */
    const int32_t units = filters / svdf->shape.rank, span = svdf->shape.rank * memory;
    for (int32_t b = 0; b < svdf->shape.batches; ++b) {
        const int8_t *row = state + b * filters * memory;
        for (int32_t u = 0; u < units; ++u) {
            const int32_t acc = mcu_dot_s8(bias_folded[u], row + u * span, weights_time + u * span, span);
            const int32_t y = mcu_requantize_dsp(acc, svdf->time.multiplier, svdf->time.shift) + svdf->output_offset;
            output[b * units + u] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
        }
    }
}
