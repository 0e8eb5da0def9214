/* mcu_nn: recurrent layers that keep state: SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM. Conventions: mcu_nn.h. */
#ifndef MCU_NN_RECURRENT_H
#define MCU_NN_RECURRENT_H

#include "mcu_nn_types.h"

/* An SVDF layer's geometry (every SVDF kernel's): input [batches, input_size], feature weights [filters,
 * input_size], time weights and state [batches, filters, memory], output [batches, filters / rank]. */
typedef struct {
    int32_t batches;
    int32_t input_size;
    int32_t filters;
    int32_t memory;
    int32_t rank;
} mcu_svdf_shape;

/* SVDF, int8: the state int8 or int16 (state_bits 8 or 16), bias [filters / rank] (int32). */
typedef struct {
    mcu_svdf_shape shape;
    int32_t state_bits;
    int32_t input_offset;
    int32_t state_zero_point;
    int32_t output_offset;
    mcu_rescale feature; /* s_input * s_feature / s_state */
    mcu_rescale time;    /* s_state * s_time / s_output */
} mcu_svdf_params;

/* One LSTM gate: FC(input) + FC(hidden state), each int8 x int8 -> int16 at scale 2^-12. The offsets
 * are folded into the biases (as TFLM's Prepare does), so neither FC adds them to its inputs. */
typedef struct {
    const void *input_weights;     /* [state_size, input_size] int8 (mcu_lstm_s8_x4: interleaved by 4 units;
                                      * _w16: widened to int16 pairs likewise; _mve: padded) */
    const void *recurrent_weights; /* [state_size, state_size] (likewise) */
    const int32_t *input_bias;       /* [state_size]: bias + input_offset * sum of the unit's input weights */
    const int32_t *recurrent_bias;   /* [state_size]: hidden_offset * sum of its recurrent weights */
    mcu_rescale input;               /* s_input * s_weights / 2^-12 */
    mcu_rescale recurrent;           /* s_hidden * s_weights / 2^-12 */
} mcu_lstm_gate;

/* UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations: input [batches, time_steps, input_size] (or
 * [time_steps, batches, input_size] when time_major), output likewise with state_size; the hidden
 * state [batches, state_size] int8, the cell state [batches, state_size] int16. Gates are Q0.15:
 * sigmoid, but tanh for the cell gate. */
typedef struct {
    int32_t batches;
    int32_t time_steps;
    int32_t input_size;
    int32_t state_size;
    int32_t time_major;
    int32_t input_offset;  /* -input zero point */
    int32_t hidden_offset; /* -hidden state zero point */
    mcu_lstm_gate input_gate;
    mcu_lstm_gate forget_gate;
    mcu_lstm_gate cell_gate;
    mcu_lstm_gate output_gate;
    mcu_rescale forget_cell; /* forget gate x cell state -> cell state */
    mcu_rescale input_cell;  /* input gate x cell gate -> cell state */
    mcu_rescale hidden;      /* tanh(cell) x output gate -> hidden state (plus -hidden_offset) */
    int32_t cell_tanh_multiplier; /* tanh(cell)'s input scaling, as mcu_tanh_s16 takes it */
    int32_t cell_tanh_shift;
    int32_t cell_clip;     /* |cell| <= cell_clip, 0: no clip */
    const int16_t *sigmoid_table; /* [256] TFLM's sigmoid(i / 24) in unsigned 0.16, stored as int16 */
    int32_t short_requantize; /* 1: every accumulator requantized (gates' FC sums, the unit's products) is
                               * within mcu_requantize_short's bound: the DSP kernels take it */
} mcu_lstm_params;

/* SVDF (TFLM's integer SVDF): shifts the state one slot left, stores each filter's requantized
 * feature dot product in its newest slot, then sums time weights x state per unit, adds the bias and
 * requantizes to int8. Updates `state` in place; weights_time and state are int8 or int16 (state_bits). */
void mcu_svdf_s8(const mcu_svdf_params *svdf, const int8_t *input, const int8_t *weights_feature,
                 const void *weights_time, const int32_t *bias, void *state, int8_t *output);

/* mcu_svdf_s8 on DSP cores, int8 state and time weights: weights_feature interleaved by 4 filters
 * (kernels/layouts.py interleave4, filters padded to a multiple of 4), feature_bias[f] = input_offset *
 * sum of filter f's weights (padded likewise), bias_folded[u] = bias[u] - state_zero_point * sum of unit
 * u's time weights (wrapping as int32). */
void mcu_svdf_s8_x4(const mcu_svdf_params *svdf, const int8_t *input, const int8_t *weights_feature,
                    const int32_t *feature_bias, const int8_t *weights_time, const int32_t *bias_folded,
                    int8_t *state, int8_t *output);

/* mcu_svdf_s8_x4's contract on Helium (MVE) cores, weights_feature as [filters rounded up to 4][input_size]
 * (the rows past filters zero). */
void mcu_svdf_s8_mve(const mcu_svdf_params *svdf, const int8_t *input, const int8_t *weights_feature,
                     const int32_t *feature_bias, const int8_t *weights_time, const int32_t *bias_folded,
                     int8_t *state, int8_t *output);

/* UNIDIRECTIONAL_SEQUENCE_LSTM (TFLM's integer LSTM): runs every time step, updating both states
 * in place; each step's hidden state is also its output row. */
void mcu_lstm_s8(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                 int8_t *output);

/* mcu_lstm_s8 on DSP cores, with each gate's weights interleaved by 4 units (kernels/layouts.py
 * interleave4, units padded to a multiple of 4 with zero weights and zero biases): each gate's FCs
 * run four units at a time (MCU_DOT4); scratch holds the four gates' activations of one step, 4 *
 * (state_size rounded up to 4) int16. */
void mcu_lstm_s8_x4(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                    int8_t *output, int16_t *scratch);

/* mcu_lstm_s8_x4 with each gate's weights widened to int16 pairs (kernels/layouts.py widen4):
 * MCU_DOT4_W16 for twice the weights' flash. */
void mcu_lstm_s8_w16(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                     int8_t *output, int16_t *scratch);

/* mcu_lstm_s8 with Helium, four units at a time (gates, activations and state updates on four lanes):
 * weights row-major with units padded to a multiple of 4 by zero rows, biases padded with zeros. */
void mcu_lstm_s8_mve(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                     int8_t *output);

#endif /* MCU_NN_RECURRENT_H */
