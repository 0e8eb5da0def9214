#include "mcu_nn_lstm_dsp.h"

/* UNIDIRECTIONAL_SEQUENCE_LSTM on DSP cores (mcu_lstm_dsp) on weights widened to int16 pairs by 4 units
 * (kernels/layouts.py widen4): twice the weights' flash. */
void mcu_lstm_s8_w16(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                     int8_t *output, int16_t *scratch)
{
    mcu_lstm_dsp(lstm, input, hidden_state, cell_state, output, scratch, 1);
}
