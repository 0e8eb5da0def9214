#include "mcu_nn_dsp.h"

/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM on DSP cores: the results of src/mcu_lstm_s8.c, a time step at a time
 * (mcu_lstm_step_dsp) on weights interleaved by 4 units (ops/fully_connected.py interleave4, units padded
 * to a multiple of 4 with zero weights and biases). scratch: 4 * (state_size rounded up to 4) int16.
 */
void mcu_lstm_s8_x4(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                    int8_t *output, int16_t *scratch)
{
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        for (int32_t b = 0; b < lstm->batches; ++b) {
            const mcu_lstm_rows rows = mcu_lstm_rows_of(lstm, t, b, input, hidden_state, cell_state, output);
            if (lstm->short_requantize) {
                mcu_lstm_step_dsp(lstm, rows, scratch, 0, mcu_requantize_short, mcu_requantize_short);
            } else {
                mcu_lstm_step_dsp(lstm, rows, scratch, 0, mcu_requantize, mcu_requantize_dsp);
            }
        }
    }
}
