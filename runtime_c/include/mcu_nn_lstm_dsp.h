/*
 * The DSP LSTM kernels' time step and layer (mcu_lstm_s8_x4, mcu_lstm_s8_w16), on the FC loops.
 */
#ifndef MCU_NN_LSTM_DSP_H
#define MCU_NN_LSTM_DSP_H

#include "mcu_nn_fc_dsp.h"
#include "mcu_nn_lstm.h"

/*
 * The DSP LSTM kernels' time step (mcu_lstm_s8_x4, mcu_lstm_s8_w16), the results of src/mcu_lstm_s8.c's:
 * each gate's two FCs four units at a time on the FC loop (`wide`: weights widened to int16 pairs,
 * MCU_DOT4_W16; else int8, MCU_DOT4), offsets folded into the gates' biases (as TFLM's Prepare does),
 * the four gates' activations of every unit into scratch (4 * units4 int16); then each unit's cell and
 * hidden state (mcu_lstm_unit), from the hidden state as it was before the step, as in the reference.
 * The requantizations: mcu_requantize_short where lstm->short_requantize says every accumulator allows it.
 */
static inline __attribute__((always_inline)) void mcu_lstm_step_dsp(const mcu_lstm_params *lstm, mcu_lstm_rows rows,
                                                                   int16_t *scratch, int wide,
                                                                   mcu_requantize_fn gate_requantize,
                                                                   mcu_requantize_fn unit_requantize)
{
    const int32_t units = lstm->state_size, units4 = (units + 3) & ~3;
    const mcu_lstm_gate *const gates[4] = {&lstm->forget_gate, &lstm->input_gate, &lstm->cell_gate,
                                           &lstm->output_gate};
    for (int32_t k = 0; k < 4; ++k) {
        const mcu_lstm_gate *g = gates[k];
        const void *wx = g->input_weights, *wh = g->recurrent_weights;
        int16_t *activation = scratch + k * units4;
        for (int32_t u = 0; u < units; u += 4) {
            int32_t i0 = g->input_bias[u], i1 = g->input_bias[u + 1], i2 = g->input_bias[u + 2],
                    i3 = g->input_bias[u + 3];
            int32_t r0 = g->recurrent_bias[u], r1 = g->recurrent_bias[u + 1], r2 = g->recurrent_bias[u + 2],
                    r3 = g->recurrent_bias[u + 3];
            mcu_dot4_row_of(rows.x, lstm->input_size, &wx, wide, &i0, &i1, &i2, &i3);
            mcu_dot4_row_of(rows.h, units, &wh, wide, &r0, &r1, &r2, &r3);
            const int32_t in[4] = {i0, i1, i2, i3}, rec[4] = {r0, r1, r2, r3};
            for (int32_t j = 0; j < 4 && u + j < units; ++j) {
                activation[u + j] = (int16_t)mcu_lstm_activate(lstm, g, in[j], rec[j], k != 2, gate_requantize);
            }
        }
    }
    for (int32_t u = 0; u < units; ++u) {
        rows.out[u] = mcu_lstm_unit(lstm, scratch[u], scratch[units4 + u], scratch[2 * units4 + u],
                                    scratch[3 * units4 + u], &rows.c[u], unit_requantize);
    }
    memcpy(rows.h, rows.out, (size_t)units);
}

/* The DSP LSTM kernels' whole layer: every time step of every batch, in the short requantization where
 * lstm->short_requantize allows it. */
static inline __attribute__((always_inline)) void mcu_lstm_dsp(const mcu_lstm_params *lstm, const int8_t *input,
                                                              int8_t *hidden_state, int16_t *cell_state,
                                                              int8_t *output, int16_t *scratch, int wide)
{
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        for (int32_t b = 0; b < lstm->batches; ++b) {
            const mcu_lstm_rows rows = mcu_lstm_rows_of(lstm, t, b, input, hidden_state, cell_state, output);
            if (lstm->short_requantize) {
                mcu_lstm_step_dsp(lstm, rows, scratch, wide, mcu_requantize_short, mcu_requantize_short);
            } else {
                mcu_lstm_step_dsp(lstm, rows, scratch, wide, mcu_requantize, mcu_requantize_dsp);
            }
        }
    }
}

#endif
