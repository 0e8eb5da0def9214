#include "mcu_nn_mve.h"

/*
 * SVDF with int8 state and time weights on Helium (MVE): the results of src/mcu_svdf_s8.c. The feature
 * dot products four filters at a time (mcu_dot4_rows_s8: sixteen products per instruction), the input
 * offset folded into feature_bias, the four requantized and clamped together; each unit's time dot product
 * over its rank * memory consecutive state and weight values (mcu_dot_row_s8), the state zero point folded
 * into bias_folded, four units requantized together; the state shifted sixteen bytes per instruction pair.
 * Sums wrap as int32 in any order, so the results are the reference's.
 */
void mcu_svdf_s8_mve(const mcu_svdf_params *svdf, const int8_t *input, const int8_t *weights_feature,
                     const int32_t *feature_bias, const int8_t *weights_time, const int32_t *bias_folded,
                     int8_t *state, int8_t *output)
{
    const int32_t size = svdf->shape.input_size, filters = svdf->shape.filters, memory = svdf->shape.memory;
    /* one slot left, sixteen bytes at a time: each vector is loaded before the store below it */
    const int32_t cells = svdf->shape.batches * filters * memory;
    for (int32_t i = 0; i < cells - 1; i += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(cells - 1 - i));
        vstrbq_p_s8(state + i, vldrbq_z_s8(state + i + 1, p), p);
    }
    const int32x4_t low = vdupq_n_s32(-128), high = vdupq_n_s32(127);
    for (int32_t b = 0; b < svdf->shape.batches; ++b) {
        const int8_t *x = input + b * size;
        for (int32_t f = 0; f < filters; f += 4) {
            int32_t v[4];
            const int32x4_t sums = mcu_dot4_rows_s8(x, size, weights_feature + f * size, feature_bias + f);
            vstrwq_s32(v, vminq_s32(vmaxq_s32(mcu_requantize_n(sums, svdf->feature.multiplier, svdf->feature.shift),
                                              low), high));
            for (int32_t j = 0; j < 4 && f + j < filters; ++j) {
                state[(b * filters + f + j) * memory + memory - 1] = (int8_t)(svdf->state_zero_point + v[j]);
            }
        }
    }
    /* a unit's filters are consecutive rows of the time weights and of the state: one dot product */
    const int32_t units = filters / svdf->shape.rank, span = svdf->shape.rank * memory;
    for (int32_t b = 0; b < svdf->shape.batches; ++b) {
        const int8_t *row = state + b * filters * memory;
        for (int32_t u = 0; u < units; u += 4) {  /* requantized four at a time */
            int32_t acc[4] = {0, 0, 0, 0};
            const int32_t n = units - u < 4 ? units - u : 4;
            for (int32_t k = 0; k < n; ++k) {
                acc[k] = mcu_dot_row_s8(row + (u + k) * span, span, weights_time + (u + k) * span, bias_folded[u + k]);
            }
            const int32x4_t y = vaddq_n_s32(mcu_requantize_n(vldrwq_s32(acc), svdf->time.multiplier, svdf->time.shift),
                                            svdf->output_offset);
            vstrbq_p_s32(output + b * units + u, vminq_s32(vmaxq_s32(y, low), high), vctp32q((uint32_t)n));
        }
    }
}
