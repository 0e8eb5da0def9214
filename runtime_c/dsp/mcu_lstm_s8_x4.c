#include "mcu_nn_dsp.h"

/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM on DSP cores: the results of src/mcu_lstm_s8.c. Per step, each gate's
 * two FCs run four units at a time on mcu_fully_connected_s8_x4's loop (MCU_DOT4; the offsets are
 * folded into the biases, so input words are only unpacked) and the four gates' activations of every
 * unit go to scratch; then each unit's cell and hidden state follow (mcu_lstm_unit), from the hidden
 * state as it was before the step, as in the reference.
 * Weights: interleaved by 4 units (ops/fully_connected.py interleave4), units padded to a multiple of
 * 4 with zero weights and biases. scratch: 4 * (state_size rounded up to 4) int16.
 */

/* Four units' sums of one FC over the `depth` values of x: whole words on MCU_DOT4, the last depth % 4
 * values through a zero-filled word. */
static inline void fc4(const int8_t *x, int32_t depth, const int8_t **w, int32_t acc[4])
{
    MCU_DOT4(x, depth / 4, *w, acc[0], acc[1], acc[2], acc[3]);
    if (depth % 4 != 0) {
        uint32_t last = 0;
        memcpy(&last, x + depth / 4 * 4, (size_t)(depth % 4));
        MCU_DOT4_LAST(mcu_even_bytes(last), mcu_odd_bytes(last), *w, acc[0], acc[1], acc[2], acc[3]);
    }
}

void mcu_lstm_s8_x4(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                    int8_t *output, int16_t *scratch)
{
    const int32_t units = lstm->state_size, units4 = (units + 3) & ~3;
    const mcu_lstm_gate *const gates[4] = {&lstm->forget_gate, &lstm->input_gate, &lstm->cell_gate,
                                           &lstm->output_gate};
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        for (int32_t b = 0; b < lstm->batches; ++b) {
            const mcu_lstm_rows rows = mcu_lstm_rows_of(lstm, t, b, input, hidden_state, cell_state, output);
            for (int32_t k = 0; k < 4; ++k) {
                const mcu_lstm_gate *g = gates[k];
                const int8_t *wx = g->input_weights, *wh = g->recurrent_weights;
                int16_t *activation = scratch + k * units4;
                for (int32_t u = 0; u < units; u += 4) {
                    int32_t in[4], rec[4];
                    memcpy(in, g->input_bias + u, sizeof in);
                    memcpy(rec, g->recurrent_bias + u, sizeof rec);
                    fc4(rows.x, lstm->input_size, &wx, in);
                    fc4(rows.h, units, &wh, rec);
                    for (int32_t j = 0; j < 4 && u + j < units; ++j) {
                        activation[u + j] = (int16_t)mcu_lstm_activate(lstm, g, in[j], rec[j], g != &lstm->cell_gate,
                                                                    mcu_requantize);
                    }
                }
            }
            for (int32_t u = 0; u < units; ++u) {
                rows.out[u] = mcu_lstm_unit(lstm, scratch[u], scratch[units4 + u], scratch[2 * units4 + u],
                                       scratch[3 * units4 + u], &rows.c[u], mcu_requantize_dsp);
            }
            memcpy(rows.h, rows.out, (size_t)units);
        }
    }
}
