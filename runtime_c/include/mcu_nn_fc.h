/* mcu_nn: FULLY_CONNECTED (int8, INT4 weights, 16x8, and the DSP and Helium variants) and BATCH_MATMUL.
 * Conventions: mcu_nn.h; mcu_fc_params is mcu_nn_conv.h's (a conv fused into an FC takes it too). */
#ifndef MCU_NN_FC_H
#define MCU_NN_FC_H

#include "mcu_nn_conv.h"
#include "mcu_nn_types.h"

/* BATCH_MATMUL's shape and quantization: `batches` output matrices of rows x cols, each summing depth
 * products; where each batch's operands start (broadcasting) and how their elements are strided
 * (transposed where adj_x / adj_y). bits: 8 (int8) or 16 (16x8, zero points 0). */
typedef struct {
    int32_t batches;
    const int32_t *lhs_offsets;
    const int32_t *rhs_offsets;
    int32_t rows, cols, depth;
    int32_t lhs_row_stride, lhs_depth_stride;
    int32_t rhs_depth_stride, rhs_col_stride;
    int32_t lhs_offset, rhs_offset, output_offset; /* -zero points; the output's zero point */
    mcu_rescale rescale;
    mcu_activation activation;
    int32_t bits;
} mcu_batch_matmul_params;

/* BATCH_MATMUL: L [..., rows, depth] (or [..., depth, rows] with adj_x), R [..., depth, cols] (or
 * [..., cols, depth] with adj_y), output [..., rows, cols]; int8 or int16 (mcu_batch_matmul_params.bits). */
void mcu_batch_matmul(const mcu_batch_matmul_params *p, const void *lhs, const void *rhs, void *output);

/* FULLY_CONNECTED. input [N, accum] (input_dims n, c), filter [Cout, accum], bias [Cout] or NULL,
 * output [N, Cout] (output_dims n, c). One multiplier per output unit (all equal when per-tensor). */
void mcu_fully_connected_s8(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                            const mcu_dims *input_dims, const int8_t *input,
                            const int8_t *filter, const int32_t *bias,
                            const mcu_dims *output_dims, int8_t *output);

/* FULLY_CONNECTED on an INT4 filter read packed (as mcu_conv2d_s4): mcu_fully_connected_s8's results. */
void mcu_fully_connected_s4(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                            const mcu_dims *input_dims, const int8_t *input,
                            const int8_t *filter, const int32_t *bias,
                            const mcu_dims *output_dims, int8_t *output);

/* FULLY_CONNECTED on Helium (MVE) cores: mcu_fully_connected_s8's results for a filter offset of 0, the
 * input offset folded into bias_folded[o] = bias[o] + input_offset * sum_d filter[o, d] (wrapping). */
void mcu_fully_connected_s8_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int8_t *filter, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output);

/* mcu_fully_connected_s8_mve on an INT4 filter read packed, each unit's row as mcu_conv2d_s4_mve's. */
void mcu_fully_connected_s4_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int8_t *filter, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output);

/* FULLY_CONNECTED on DSP cores, on constants mcugen lays out for it: the filter interleaved, per group
 * of 4 units and per 4 values, as the 4 units' words ([ceil(Cout/4)][K4/4][4][4] int8, zero-padded,
 * K4 = accum rounded up to 4), and bias_folded[o] = bias[o] + input_offset * sum_d filter[o, d]
 * (wrapping as int32; zero up to a whole group of 4). Results equal mcu_fully_connected_s8's. */
void mcu_fully_connected_s8_x4(const mcu_fc_params *fc, const mcu_channel *channels,
                               const mcu_dims *input_dims, const int8_t *input,
                               const int8_t *filter, const int32_t *bias_folded,
                               const mcu_dims *output_dims, int8_t *output);

/* mcu_fully_connected_s8_x4 on INT4 weights read packed: per group of 4 units and per 4 values, the words
 * of units 0-1 and 2-3 (kernels/layouts.py s4_pairs); K4 * 128 * 128 below 2^31. */
void mcu_fully_connected_s4_x4(const mcu_fc_params *fc, const mcu_channel *channels,
                               const mcu_dims *input_dims, const int8_t *input,
                               const int8_t *filter, const int32_t *bias_folded,
                               const mcu_dims *output_dims, int8_t *output);

/* mcu_fully_connected_s8_x4 on a filter widened to int16 at build time: per group of 4 units and per 4
 * values, each unit's (w0, w2, w1, w3) ([ceil(Cout/4)][K4/4][4][4] int16, zero-padded, word-aligned), the
 * pairs SXTB16 makes of an input word. Results equal mcu_fully_connected_s8's. */
void mcu_fully_connected_s8_w16(const mcu_fc_params *fc, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int16_t *filter_pairs, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output);

/* mcu_fully_connected_s8_x4 without a filter offset, on twin words: per group of 4 units and per 4 values
 * (w0..w3), the words of units 0-1 for (w0, w2) and (w1, w3), then units 2-3's, each halfword unit u's weight
 * + 128 in its low byte and unit u + 1's weight in its high byte ([ceil(Cout/4)][K4/4][4][4] int8, zero
 * weights past the filter). Units 1 and 3 of each group: 128 * sum |w| < 2^23. Results equal
 * mcu_fully_connected_s8's. */
void mcu_fully_connected_s8_twin(const mcu_fc_params *fc, const mcu_channel *channels,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const int8_t *filter_twins, const int32_t *bias_folded,
                                 const mcu_dims *output_dims, int8_t *output);

/* 16x8 FULLY_CONNECTED: rows [N, depth] int16, filter [units, depth] int8, bias [units] int64 (see
 * mcu_conv2d_s16), output [N, units] int16. */
void mcu_fully_connected_s16(const mcu_fc_params *fc, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                             const mcu_dims *input_dims, const int16_t *input,
                             const int8_t *filter, const int64_t *bias,
                             const mcu_dims *output_dims, int16_t *output);

/* mcu_fully_connected_s16 with Helium, for layers without input or filter offsets whose sums of
 * products fit int32 (depth * 32768 * 128 < 2^31). */
void mcu_fully_connected_s16_mve(const mcu_fc_params *fc, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                                 const mcu_dims *input_dims, const int16_t *input,
                                 const int8_t *filter, const int64_t *bias,
                                 const mcu_dims *output_dims, int16_t *output);

#endif /* MCU_NN_FC_H */
