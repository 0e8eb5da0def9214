#include "mcu_nn_mve.h"
#include "mcu_nn_lstm.h"
#include "mcu_nn_elementwise_mve.h"

/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM with Helium: the results of src/mcu_lstm_s8.c, four units at a time.
 * Each gate's two FCs are mcu_dot4_rows_s8 (the offsets folded into the biases), requantized, saturated,
 * added and activated on four lanes (the tables read by gathers); the cell and hidden updates follow
 * on the same lanes. As in the reference, the recurrent FCs read the hidden state of the step before:
 * new values go to the step's output row, copied into the hidden state once all units are done.
 * Weights row-major with units padded to a multiple of 4 by zero rows, biases likewise.
 */
static inline int32x4_t gate(const mcu_lstm_params *lstm, const mcu_lstm_gate *g, int32_t u, const int8_t *x,
                             const int8_t *h, int32_t sigmoid)
{
    const int8_t *wx = (const int8_t *)g->input_weights, *wh = (const int8_t *)g->recurrent_weights;
    const int32x4_t in = mcu_requantize_n(mcu_dot4_rows_s8(x, lstm->input_size, wx + u * lstm->input_size,
                                                           g->input_bias + u),
                                          g->input.multiplier, g->input.shift);
    const int32x4_t rec = mcu_requantize_n(
        mcu_dot4_rows_s8(h, lstm->state_size, wh + u * lstm->state_size, g->recurrent_bias + u),
        g->recurrent.multiplier, g->recurrent.shift);
    const int32x4_t sum = mcu_sat_s16_x4(vaddq_s32(mcu_sat_s16_x4(in), mcu_sat_s16_x4(rec)));
    return sigmoid ? mcu_sigmoid_s16_x4(lstm->sigmoid_table, sum, 0, 0) : mcu_tanh_s16_x4(lstm->sigmoid_table, sum, 0, 0);
}

/* Q0.15 gate values kept as int16 (the reference stores them so): sign-extend the low halves. */
static inline int32x4_t as_s16(int32x4_t x)
{
    return vshrq_n_s32(vshlq_n_s32(x, 16), 16);
}

void mcu_lstm_s8_mve(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                     int8_t *output)
{
    const int32_t units = lstm->state_size;
    /* the cell state is int16 already: without a clip these bounds change nothing */
    const int32x4_t high = vdupq_n_s32(lstm->cell_clip > 0 ? lstm->cell_clip : INT16_MAX);
    const int32x4_t low = vdupq_n_s32(lstm->cell_clip > 0 ? -lstm->cell_clip : INT16_MIN);
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        for (int32_t b = 0; b < lstm->batches; ++b) {
            const mcu_lstm_rows rows = mcu_lstm_rows_of(lstm, t, b, input, hidden_state, cell_state, output);
            for (int32_t u = 0; u < units; u += 4) {
                const mve_pred16_t lanes = vctp32q((uint32_t)(units - u));
                const int32x4_t f = as_s16(gate(lstm, &lstm->forget_gate, u, rows.x, rows.h, 1));
                const int32x4_t i = as_s16(gate(lstm, &lstm->input_gate, u, rows.x, rows.h, 1));
                const int32x4_t g = as_s16(gate(lstm, &lstm->cell_gate, u, rows.x, rows.h, 0));
                const int32x4_t o = as_s16(gate(lstm, &lstm->output_gate, u, rows.x, rows.h, 1));
                int32x4_t cell = mcu_sat_s16_x4(mcu_requantize_n(vmulq_s32(f, vldrhq_z_s32(rows.c + u, lanes)),
                                                                 lstm->forget_cell.multiplier, lstm->forget_cell.shift));
                cell = mcu_sat_s16_x4(vaddq_s32(cell, mcu_sat_s16_x4(mcu_requantize_n(
                    vmulq_s32(i, g), lstm->input_cell.multiplier, lstm->input_cell.shift))));
                cell = vmaxq_s32(vminq_s32(cell, high), low);
                vstrhq_p_s32(rows.c + u, cell, lanes);
                const int32x4_t tanh = as_s16(mcu_tanh_s16_x4(lstm->sigmoid_table, cell, lstm->cell_tanh_multiplier,
                                                              lstm->cell_tanh_shift));
                int32x4_t y = vsubq_n_s32(mcu_requantize_n(vmulq_s32(tanh, o), lstm->hidden.multiplier,
                                                           lstm->hidden.shift), lstm->hidden_offset);
                y = vmaxq_s32(vminq_s32(y, vdupq_n_s32(127)), vdupq_n_s32(-128));
                vstrbq_p_s32(rows.out + u, y, lanes);
            }
            memcpy(rows.h, rows.out, (size_t)units);
        }
    }
}
