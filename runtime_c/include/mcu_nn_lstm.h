/*
 * The LSTM kernels' shared arithmetic (src/mcu_lstm_s8.c and its DSP and Helium variants): a gate's
 * activation from its two FC sums, the rows one batch's time step reads and writes, one unit's step.
 */
#ifndef MCU_NN_LSTM_H
#define MCU_NN_LSTM_H

#include "mcu_nn_support.h"

/* A requantization with mcu_requantize's contract (the DSP kernels pass a faster one). */
typedef int32_t (*mcu_requantize_fn)(int32_t x, int32_t multiplier, int32_t shift);

/* An LSTM gate's activation from its two FC sums (offsets folded into their biases): each requantized
 * to int16 at 2^-12 and saturated, added with saturation, then sigmoid (or tanh for the cell gate). */
static inline __attribute__((always_inline)) int32_t mcu_lstm_activate(
    const mcu_lstm_params *lstm, const mcu_lstm_gate *g, int32_t in, int32_t rec, int32_t sigmoid,
    mcu_requantize_fn requantize)
{
    const int32_t sum = mcu_sat_s16(mcu_sat_s16(requantize(in, g->input.multiplier, g->input.shift))
                                    + mcu_sat_s16(requantize(rec, g->recurrent.multiplier, g->recurrent.shift)));
    return sigmoid ? mcu_sigmoid_s16(lstm->sigmoid_table, sum, 0, 0) : mcu_tanh_s16(lstm->sigmoid_table, sum, 0, 0);
}

/* What one batch's time step t of an LSTM reads and writes: its input row, that batch's hidden and cell
 * states, its output row (time-major or batch-major). */
typedef struct {
    const int8_t *x;
    int8_t *h;
    int16_t *c;
    int8_t *out;
} mcu_lstm_rows;

static inline mcu_lstm_rows mcu_lstm_rows_of(const mcu_lstm_params *lstm, int32_t t, int32_t b, const int8_t *input,
                                             int8_t *hidden_state, int16_t *cell_state, int8_t *output)
{
    const int32_t row = lstm->time_major ? t * lstm->batches + b : b * lstm->time_steps + t;
    const mcu_lstm_rows rows = {input + row * lstm->input_size, hidden_state + b * lstm->state_size,
                                cell_state + b * lstm->state_size, output + row * lstm->state_size};
    return rows;
}

/* One LSTM unit's step from its gates (forget, input, cell, output; Q0.15): the new cell state in *c,
 * the new hidden value returned. */
static inline __attribute__((always_inline)) int8_t mcu_lstm_unit(const mcu_lstm_params *lstm, int32_t f, int32_t i,
                                                                 int32_t g, int32_t o, int16_t *c,
                                                                 mcu_requantize_fn requantize)
{
    int32_t cell = mcu_sat_s16(requantize(f * *c, lstm->forget_cell.multiplier, lstm->forget_cell.shift));
    cell = mcu_sat_s16(cell + mcu_sat_s16(requantize(i * g, lstm->input_cell.multiplier, lstm->input_cell.shift)));
    if (lstm->cell_clip > 0) {
        cell = cell > lstm->cell_clip ? lstm->cell_clip : cell < -lstm->cell_clip ? -lstm->cell_clip : cell;
    }
    *c = (int16_t)cell;
    const int32_t tanh = mcu_tanh_s16(lstm->sigmoid_table, cell, lstm->cell_tanh_multiplier, lstm->cell_tanh_shift);
    const int32_t y = requantize(tanh * o, lstm->hidden.multiplier, lstm->hidden.shift) - lstm->hidden_offset;
    return (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
}

#endif /* MCU_NN_LSTM_H */
