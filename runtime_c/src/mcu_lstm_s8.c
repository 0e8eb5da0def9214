#include "mcu_nn_support.h"
#include "mcu_nn_lstm.h"

/* One gate of one unit: both FCs requantized to int16, added with saturation, then activated. */
static int32_t gate(const mcu_lstm_params *lstm, const mcu_lstm_gate *g, int32_t unit, const int8_t *x,
                    const int8_t *h, int32_t sigmoid)
{
    const int8_t *wx = (const int8_t *)g->input_weights + unit * lstm->input_size;
    const int8_t *wh = (const int8_t *)g->recurrent_weights + unit * lstm->state_size;
    int32_t in = g->input_bias[unit]; /* the offsets are folded in: sums wrap as int32, in any order */
    for (int32_t k = 0; k < lstm->input_size; ++k) {
        in += wx[k] * x[k];
    }
    int32_t rec = g->recurrent_bias[unit];
    for (int32_t k = 0; k < lstm->state_size; ++k) {
        rec += wh[k] * h[k];
    }
    return mcu_lstm_activate(lstm, g, in, rec, sigmoid, mcu_requantize);
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
            const mcu_lstm_rows rows = mcu_lstm_rows_of(lstm, t, b, input, hidden_state, cell_state, output);
            for (int32_t u = 0; u < units; ++u) {
                const int32_t f = gate(lstm, &lstm->forget_gate, u, rows.x, rows.h, 1);
                const int32_t i = gate(lstm, &lstm->input_gate, u, rows.x, rows.h, 1);
                const int32_t g = gate(lstm, &lstm->cell_gate, u, rows.x, rows.h, 0);
                const int32_t o = gate(lstm, &lstm->output_gate, u, rows.x, rows.h, 1);
                rows.out[u] = mcu_lstm_unit(lstm, f, i, g, o, &rows.c[u], mcu_requantize);
            }
            for (int32_t u = 0; u < units; ++u) {
                rows.h[u] = rows.out[u];
            }
        }
    }
}
