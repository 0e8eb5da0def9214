#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"

/* Whether the step's rows (one per batch, `size` values, `step` apart) are all zero, as IsZeroVector. */
static int all_zero(const float *rows, int32_t batches, int32_t size, int32_t step)
{
    for (int32_t b = 0; b < batches; ++b) {
        for (int32_t k = 0; k < size; ++k) {
            if (rows[b * step + k] != 0.0f) {
                return 0;
            }
        }
    }
    return 1;
}

/* One gate of one unit: the bias, plus each operand's product (none where all of the operand is zero). */
static float gate(const mcu_lstm_hybrid_params *lstm, const mcu_lstm_hybrid_gate *g, int32_t unit,
                  const int8_t *qx, float fx, int32_t ox, const int8_t *qh, float fh, int32_t oh)
{
    const int32_t size = lstm->input_size, units = lstm->state_size;
    float v = g->bias[unit];
    if (qx != NULL) {
        const int32_t sum = g->input_row_sums != NULL ? g->input_row_sums[unit] : 0;
        v += (float)mcu_hybrid_dot(g->input_weights + unit * size, qx, size, sum, ox) * (fx * g->input_scale);
    }
    if (qh != NULL) {
        const int32_t sum = g->recurrent_row_sums != NULL ? g->recurrent_row_sums[unit] : 0;
        v += (float)mcu_hybrid_dot(g->recurrent_weights + unit * units, qh, units, sum, oh) *
             (fh * g->recurrent_scale);
    }
    return v;
}

/*
 * Each step quantizes every batch row of the input and of the hidden state first (the recurrent products
 * read the hidden state as it was before the step), then finishes each unit in one go: every step after
 * the products is elementwise. scratch: the rows' factors and offsets, then their int8 values.
 */
void mcu_lstm_hybrid_s8(const mcu_lstm_hybrid_params *lstm, const float *input, float *hidden_state,
                        float *cell_state, int8_t *scratch, float *output)
{
    const int32_t units = lstm->state_size, size = lstm->input_size, batches = lstm->batches;
    float *const factors = (float *)(void *)scratch; /* [2][batches]: the input's, the hidden state's */
    int32_t *const offsets = (int32_t *)(void *)(scratch + 8 * batches);
    int8_t *const qx = scratch + 16 * batches, *const qh = qx + batches * size;
    const float clip = lstm->cell_clip;
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        const int32_t first = lstm->time_major ? t * batches : t, stride = lstm->time_major ? 1 : lstm->time_steps;
        const int x_zero = all_zero(input + first * size, batches, size, stride * size);
        const int h_zero = all_zero(hidden_state, batches, units, units);
        for (int32_t b = 0; b < batches; ++b) {
            if (!x_zero) {
                factors[b] = mcu_hybrid_quantize_row(lstm->asymmetric, size, input + (first + b * stride) * size,
                                                     qx + b * size, &offsets[b]);
            }
            if (!h_zero) {
                factors[batches + b] = mcu_hybrid_quantize_row(lstm->asymmetric, units, hidden_state + b * units,
                                                               qh + b * units, &offsets[batches + b]);
            }
        }
        for (int32_t b = 0; b < batches; ++b) {
            const int8_t *x = x_zero ? NULL : qx + b * size, *h = h_zero ? NULL : qh + b * units;
            const float fx = factors[b], fh = factors[batches + b];
            const int32_t ox = offsets[b], oh = offsets[batches + b];
            float *c = cell_state + b * units, *out = output + (first + b * stride) * units;
            for (int32_t u = 0; u < units; ++u) {
                const float i = mcu_logistic_eigen_f32(gate(lstm, &lstm->input_gate, u, x, fx, ox, h, fh, oh));
                const float f = mcu_logistic_eigen_f32(gate(lstm, &lstm->forget_gate, u, x, fx, ox, h, fh, oh));
                const float g = mcu_tanh_eigen_f32(gate(lstm, &lstm->cell_gate, u, x, fx, ox, h, fh, oh));
                const float o = mcu_logistic_eigen_f32(gate(lstm, &lstm->output_gate, u, x, fx, ox, h, fh, oh));
                float cell = f * c[u];
                cell = cell + g * i;
                if (clip > 0.0f) {
                    cell = cell < clip ? cell : clip;   /* std::min(clip, c) */
                    cell = cell < -clip ? -clip : cell; /* std::max(that, -clip) */
                }
                c[u] = cell;
                out[u] = o * mcu_tanh_eigen_f32(cell);
            }
        }
        for (int32_t b = 0; b < batches; ++b) {
            const float *out = output + (first + b * stride) * units;
            for (int32_t u = 0; u < units; ++u) {
                hidden_state[b * units + u] = out[u];
            }
        }
    }
}
