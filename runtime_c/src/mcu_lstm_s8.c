#include "mcu_nn_support.h"

/* One gate of one unit: both FCs requantized to int16, added with saturation, then activated. */
static int32_t gate(const mcu_lstm_params *lstm, const mcu_lstm_gate *g, int32_t unit, const int8_t *x,
                    const int8_t *h, int32_t sigmoid)
{
    const int8_t *wx = g->input_weights + unit * lstm->input_size;
    const int8_t *wh = g->recurrent_weights + unit * lstm->state_size;
    int32_t in = g->bias[unit];
    for (int32_t k = 0; k < lstm->input_size; ++k) {
        in += wx[k] * (x[k] + lstm->input_offset);
    }
    int32_t rec = 0;
    for (int32_t k = 0; k < lstm->state_size; ++k) {
        rec += wh[k] * (h[k] + lstm->hidden_offset);
    }
    const int32_t sum = mcu_sat_s16(mcu_sat_s16(mcu_requantize(in, g->input.multiplier, g->input.shift))
                                    + mcu_sat_s16(mcu_requantize(rec, g->recurrent.multiplier, g->recurrent.shift)));
    return sigmoid ? mcu_sigmoid_s16(lstm->sigmoid_table, sum, 0, 0) : mcu_tanh_s16(lstm->sigmoid_table, sum, 0, 0);
}

/*
 * TFLM's integer LSTM step by step. TFLM computes each gate for all units, then the cell update,
 * then the hidden state; every one of those is elementwise per unit, and only the recurrent FCs
 * read the whole hidden state, as it was before the step. So each unit is finished in one go and
 * its new hidden value goes straight to the step's output row, which is copied into the hidden
 * state once every unit has read the old one: no scratch memory.
 */
void mcu_lstm_s8(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                 int8_t *output)
{
    const int32_t units = lstm->state_size;
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        for (int32_t b = 0; b < lstm->batches; ++b) {
            const int32_t row = lstm->time_major ? t * lstm->batches + b : b * lstm->time_steps + t;
            const int8_t *x = input + row * lstm->input_size;
            int8_t *h = hidden_state + b * units;
            int16_t *c = cell_state + b * units;
            int8_t *out = output + row * units;
            for (int32_t u = 0; u < units; ++u) {
                const int32_t f = gate(lstm, &lstm->forget_gate, u, x, h, 1);
                const int32_t i = gate(lstm, &lstm->input_gate, u, x, h, 1);
                const int32_t g = gate(lstm, &lstm->cell_gate, u, x, h, 0);
                int32_t cell = mcu_sat_s16(mcu_requantize(f * c[u], lstm->forget_cell.multiplier, lstm->forget_cell.shift));
                cell = mcu_sat_s16(cell + mcu_sat_s16(mcu_requantize(i * g, lstm->input_cell.multiplier,
                                                                     lstm->input_cell.shift)));
                if (lstm->cell_clip > 0) {
                    cell = cell > lstm->cell_clip ? lstm->cell_clip : cell < -lstm->cell_clip ? -lstm->cell_clip : cell;
                }
                c[u] = (int16_t)cell;
                const int32_t o = gate(lstm, &lstm->output_gate, u, x, h, 1);
                const int32_t tanh = mcu_tanh_s16(lstm->sigmoid_table, cell, lstm->cell_tanh_multiplier,
                                                  lstm->cell_tanh_shift);
                const int32_t y = mcu_requantize(tanh * o, lstm->hidden.multiplier, lstm->hidden.shift)
                                  - lstm->hidden_offset;
                out[u] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
            }
            for (int32_t u = 0; u < units; ++u) {
                h[u] = out[u];
            }
        }
    }
}
