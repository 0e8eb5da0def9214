/*
 * mcu_nn: int8 kernels for mcugen, bit-exact with TensorFlow Lite Micro's reference kernels.
 *
 * Conventions (as CMSIS-NN):
 * - Activations are int8 in [N,H,W,C] order, channel fastest. Real value r = scale * (q - zero_point).
 * - Signatures take a params struct, a quant struct, then (dims, data) pairs from inputs to the output.
 * - Offsets are added to raw values: input_offset = -input_zero_point (in [-127, 128]),
 *   output_offset = output_zero_point (in [-128, 127]).
 * - Multipliers are Q0.31 integers in [2^30, 2^31) (or 0) with a power-of-two shift in [-31, 30]:
 *   real multiplier = multiplier * 2^(shift - 31). mcugen computes them at build time, as TFLM's Prepare does.
 * - Kernels do no checking and never fail: mcugen validated every shape and range when it generated the call.
 *   They take no locks; the few that need working memory (scratch) get it as an argument, planned by mcugen
 *   in the arena (sizes computed in one place, by the op's lowering in mcugen/ops/). Only the two float32 boundary kernels (QUANTIZE from
 *   float32, DEQUANTIZE to float32) use floating point: the FPU where the core has one, else soft float.
 */
#ifndef MCU_NN_H
#define MCU_NN_H

#include <stdint.h>

/* Generated with each model: renames the kernels it calls after the model (mcu_conv2d_s8 becomes
 * kws_mcu_conv2d_s8 for the model kws), so that several models, each with its own copy of the
 * kernels, link into one firmware. */
#include "mcu_nn_names.h"

#if defined(__GNUC__)
#define MCU_ALIGN(n) __attribute__((aligned(n)))
#else
#define MCU_ALIGN(n)
#endif

/* Rank limit of the generic N-D kernels (copy, broadcast, reduce); mcugen merges axes to fit. */
#define MCU_MAX_DIMS 8

typedef struct {
    int32_t n; /* batch */
    int32_t h; /* height (rows) */
    int32_t w; /* width (columns) */
    int32_t c; /* channels, fastest-varying */
} mcu_dims;

typedef struct {
    int32_t h;
    int32_t w;
} mcu_tile;

/* Output clamp in the quantized domain, within the output type's range: fused RELU/RELU6/RELU_N1_TO_1 or none. */
typedef struct {
    int32_t min;
    int32_t max;
} mcu_activation;

/* One (multiplier, shift) per output channel. */
typedef struct {
    const int32_t *multiplier;
    const int32_t *shift;
} mcu_per_channel_quant;

/* One output channel's requantization as the DSP kernels use it, worked out by mcugen at build
 * time (ops/_quant.py channel_table): `fast` when the 5-instruction mcu_requantize_fast is exact
 * for every accumulator the layer can produce (a right shift and |accumulator| < 2^30). */
typedef struct {
    int32_t multiplier;
    int32_t shift;
    int32_t round; /* 2^(-shift - 1) when fast */
    int32_t right; /* -shift */
    int32_t fast;
} mcu_channel;

typedef struct {
    int32_t input_offset;
    int32_t output_offset;
    mcu_tile stride;
    mcu_tile padding;  /* leading (top, left) pad; trailing pad is implied by the output size */
    mcu_tile dilation;
    mcu_activation activation;
} mcu_conv_params;

typedef struct {
    int32_t input_offset;
    int32_t output_offset;
    int32_t depth_multiplier; /* output channel oc reads input channel oc / depth_multiplier */
    mcu_tile stride;
    mcu_tile padding;
    mcu_tile dilation;
    mcu_activation activation;
} mcu_dw_conv_params;

typedef struct {
    int32_t input_offset;
    int32_t filter_offset; /* -filter zero point (0 for symmetric weights) */
    int32_t output_offset;
    mcu_activation activation;
} mcu_fc_params;

typedef struct {
    mcu_tile stride;
    mcu_tile padding;
    mcu_tile filter;
    mcu_activation activation; /* within the element type's range */
    int32_t bits;              /* 8: int8 elements, 16: int16 */
} mcu_pool_params;

typedef struct {
    int32_t diff_min;       /* x - max(x) below this contributes nothing (TFLM's diff_min) */
    const int32_t *exp_lut; /* [256]: exp(beta * scale * -d) in Q0.31 for d = max(x) - x in 0..255 */
    int32_t output_bits;    /* 8: int8 output, scale 1/256, zero point -128; 16: int16, 1/65536, -32768 */
} mcu_softmax_params;

/* How two inputs map onto a contiguous output of up to MCU_MAX_DIMS axes; strides count elements,
 * stride 0 broadcasts. All three arrays hold elements of `bits` (8 or 16). */
typedef struct {
    int32_t rank;
    int32_t shape[MCU_MAX_DIMS];
    int32_t stride1[MCU_MAX_DIMS];
    int32_t stride2[MCU_MAX_DIMS];
    int32_t bits;
} mcu_broadcast;

typedef enum { MCU_ADD, MCU_SUB, MCU_SQUARED_DIFFERENCE } mcu_add_operation;

/* ADD, SUB and SQUARED_DIFFERENCE: both inputs are shifted left, rescaled to a common scale,
 * combined (sum, difference or squared difference), then rescaled. */
typedef struct {
    int32_t input1_offset;
    int32_t input2_offset;
    int32_t output_offset;
    int32_t left_shift; /* int8: 20 for ADD/SUB, 7 for SQUARED_DIFFERENCE (255^2 * 2^14 fits int32); int16: 15 */
    int32_t input1_multiplier;
    int32_t input1_shift;
    int32_t input2_multiplier;
    int32_t input2_shift;
    int32_t output_multiplier;
    int32_t output_shift;
    mcu_add_operation operation;
    mcu_activation activation;
} mcu_add_params;

/* PRELU: x - zp_in >= 0 rescaled by (multiplier1, shift1); below, times alpha - zp_alpha and
 * rescaled by (multiplier2, shift2). */
typedef struct {
    int32_t input_offset;  /* -zp_in */
    int32_t alpha_offset;  /* -zp_alpha */
    int32_t output_offset; /* zp_out */
    int32_t multiplier1;
    int32_t shift1;
    int32_t multiplier2;
    int32_t shift2;
} mcu_prelu_params;

typedef struct {
    int32_t input1_offset;
    int32_t input2_offset;
    int32_t output_offset;
    int32_t multiplier;
    int32_t shift;
    mcu_activation activation;
} mcu_mul_params;

/* out[out_offset + sum(i_k * out_stride_k)] = in[in_offset + sum(i_k * in_stride_k)], 0 <= i_k < shape_k,
 * in bytes. */
typedef struct {
    int32_t rank;
    int32_t shape[MCU_MAX_DIMS];
    int32_t in_stride[MCU_MAX_DIMS];
    int32_t out_stride[MCU_MAX_DIMS];
    int32_t in_offset;
    int32_t out_offset;
} mcu_copy_params;

typedef struct {
    mcu_copy_params copy;  /* places the input inside the output */
    int32_t output_size;   /* elements */
    int32_t pad_value;     /* in the elements' range */
    int32_t bits;          /* 8 or 16 */
} mcu_pad_params;

/* RESIZE_BILINEAR: per output row and column, the two neighbours in the input and the weight of the
 * second in 1/1024 (negative near the border with half-pixel centers, where both neighbours agree). */
typedef struct {
    const int32_t *y0, *y1, *fy; /* [output height] */
    const int32_t *x0, *x1, *fx; /* [output width] */
} mcu_resize_bilinear_params;

/* SPACE_TO_BATCH_ND (to_batch = 1) and BATCH_TO_SPACE_ND (0) between space [batch, space_h, space_w, depth]
 * and batched [block_h * block_w * batch, batched_h, batched_w, depth]:
 *   batched[(i * block_w + j) * batch + n, y, x, :] = space[n, y * block_h + i - top, x * block_w + j - left, :]
 * (top, left) are the paddings or the crops; space positions outside the tensor are filled with
 * `fill` (to_batch) or dropped. */
typedef struct {
    int32_t batch;
    int32_t space_h;
    int32_t space_w;
    int32_t batched_h;
    int32_t batched_w;
    int32_t depth;
    int32_t block_h;
    int32_t block_w;
    int32_t top;
    int32_t left;
    int32_t to_batch;
    int32_t fill; /* in [-128, 127] */
} mcu_space_batch_params;

/* CONCATENATION: the output is `outer` repetitions of each input's next inner[i] bytes, inputs in order.
 * SPLIT: the inverse, each of the `count` outputs taking its inner[i] bytes in turn. */
typedef struct {
    int32_t outer;
    int32_t count; /* tensors joined or split off */
    const int32_t *inner;
} mcu_concat_params;

/* Reduces the `reduced` axes for every position of the `kept` axes; the output is contiguous. */
typedef struct {
    int32_t kept_rank;
    int32_t kept_shape[MCU_MAX_DIMS];
    int32_t kept_stride[MCU_MAX_DIMS];
    int32_t reduced_rank;
    int32_t reduced_shape[MCU_MAX_DIMS];
    int32_t reduced_stride[MCU_MAX_DIMS];
    int32_t input_offset;  /* MEAN: -input zero point */
    int32_t output_offset; /* MEAN: output zero point */
    int32_t multiplier;    /* MEAN: s_in / (s_out * count), folded at build time */
    int32_t shift;
    int32_t bits;          /* MEAN: 8 or 16 */
} mcu_reduce_params;

/* GATHER: for each of `outer` slabs of axis_size x inner bytes, the inner bytes at each index in turn. */
typedef struct {
    int32_t outer;
    int32_t axis_size;
    int32_t inner;          /* bytes: the values after the axis times their size */
    int32_t count;          /* number of indices */
    const int32_t *indices; /* [count], each in [0, axis_size) */
} mcu_gather_params;

/* ARG_MAX / ARG_MIN over the middle axis of [outer, axis_size, inner]. */
typedef struct {
    int32_t outer;
    int32_t axis_size;
    int32_t inner;
    int32_t minimum; /* 1: ARG_MIN */
} mcu_arg_params;

/* A float32 boundary: real = scale * (q - zero_point), with q int8 (bits 8) or int16 (bits 16). */
typedef struct {
    float scale;
    int32_t zero_point;
    int32_t bits;
} mcu_float_quant;

/* QUANTIZE between integer types: elements of input_bits (8, 16, 32; signed) to output_bits. */
typedef struct {
    int32_t input_bits;
    int32_t output_bits;
    int32_t input_offset;
    int32_t output_offset;
    int32_t multiplier;
    int32_t shift;
} mcu_requantize_params;

/* SOFTMAX int16 -> int16 (output scale 1/32768): TFLM's two 513-entry int16 tables, built by mcugen. */
typedef struct {
    int32_t input_multiplier; /* input differences onto the exp table's [-10, 0] */
    int32_t input_shift;
    const int16_t *exp_lut;      /* exp over [-10, 0] */
    const int16_t *one_over_lut; /* 1 / (1 + x) over [0, 1] */
} mcu_softmax_s16_params;

/* One requantization: real multiplier = multiplier * 2^(shift - 31), as everywhere in mcu_nn. */
typedef struct {
    int32_t multiplier;
    int32_t shift;
} mcu_rescale;

/* SVDF: input [batches, input_size], feature weights [filters, input_size], time weights and state
 * [batches, filters, memory] (state_bits 8: int8, 16: int16), bias [filters / rank] (int32),
 * output [batches, filters / rank]. */
typedef struct {
    int32_t batches;
    int32_t input_size;
    int32_t filters;
    int32_t memory;
    int32_t rank;
    int32_t state_bits;
    int32_t input_offset;
    int32_t state_zero_point;
    int32_t output_offset;
    mcu_rescale feature; /* s_input * s_feature / s_state */
    mcu_rescale time;    /* s_state * s_time / s_output */
} mcu_svdf_params;

/* One LSTM gate: FC(input) + FC(hidden state), each int8 x int8 -> int16 at scale 2^-12. */
typedef struct {
    const int8_t *input_weights;     /* [state_size, input_size] */
    const int8_t *recurrent_weights; /* [state_size, state_size] */
    const int32_t *bias;             /* [state_size], added to the input FC */
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
} mcu_lstm_params;

/* LEAKY_RELU (int16): x + input_offset >= 0 rescaled by the identity pair, else by the alpha pair (of
 * |alpha|, the result negated for a negative alpha, as TFLM). */
typedef struct {
    int32_t input_offset;
    int32_t output_offset;
    int32_t identity_multiplier;
    int32_t identity_shift;
    int32_t alpha_multiplier;
    int32_t alpha_shift;
    int32_t alpha_negate;
} mcu_leaky_relu_params;

/* int16 LOGISTIC and TANH: the input scaled as mcu_scale_s16 scales it, then TFLM's table. */
typedef struct {
    int32_t multiplier; /* 0: TFLM's power-of-two case, 3 << shift and no shift */
    int32_t shift;
    int32_t tanh;       /* 0: LOGISTIC */
    const int16_t *sigmoid_table; /* [256], as in mcu_lstm_params */
} mcu_sigmoid_params;

typedef struct {
    const int32_t *rows; /* [output h]: source row of each output row */
    const int32_t *cols; /* [output w]: source column of each output column */
} mcu_resize_params;

/* CONV_2D. input [N,H,W,Cin], filter [Cout,KH,KW,Cin], bias [Cout] or NULL, output [N,OH,OW,Cout]. */
void mcu_conv2d_s8(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                   const mcu_dims *input_dims, const int8_t *input,
                   const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                   const mcu_dims *output_dims, int8_t *output);

/* Output positions mcu_conv2d_s8_x6 computes at a time. */
#define MCU_CONV_BLOCK 6

/* CONV_2D on DSP cores, MCU_CONV_BLOCK output positions at a time: the results of mcu_conv2d_s8,
 * with the filter followed by 3 spare bytes, one mcu_channel per output channel, and scratch
 * (4-byte aligned, planned in the arena) of MCU_CONV_BLOCK * K4 int16 then K4 bytes, K4 =
 * KH*KW*Cin rounded up to 4. With a 1x1 kernel, no padding and Cout <= Cin, output may be input. */
void mcu_conv2d_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                      const mcu_dims *input_dims, const int8_t *input,
                      const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                      const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* Output rows [first, first + rows) of mcu_conv2d_s8_x6 (one image), written as an image of `rows`
 * rows: how a fused call runs a conv strip by strip. */
void mcu_conv2d_rows_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                           const mcu_dims *input_dims, const int8_t *input,
                           const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                           const mcu_dims *output_dims, int32_t first, int32_t rows, int8_t *output,
                           int16_t *scratch);

/* mcu_conv2d_s8_x6 (one image) then FULLY_CONNECTED on its whole output as one row, strip_rows conv
 * rows at a time through `tile` (strip_rows * OW * C bytes): the conv's output never exists whole.
 * The FC takes fc_filter [units, OH*OW*C] (no filter offset), fc_bias_folded[u] = bias[u] +
 * input_offset * sum_k fc_filter[u][k] (wrapping as int32), one fc_channels entry per unit, and
 * acc (one int32 per unit); its output is [1, units] (fc_output_dims c). */
void mcu_conv2d_fc_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                         const mcu_dims *input_dims, const int8_t *input,
                         const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                         const mcu_dims *output_dims, int32_t strip_rows,
                         const mcu_fc_params *fc, const mcu_channel *fc_channels, const int8_t *fc_filter,
                         const int32_t *fc_bias_folded, const mcu_dims *fc_output_dims, int8_t *output,
                         int16_t *scratch, int8_t *tile, int32_t *acc);

/* mcu_conv2d_s8_x6 (one image) then ADD (the conv's output as input 1) with a residual of the
 * conv's output shape, strip_rows rows at a time through `tile` (strip_rows * OW * C bytes): the
 * conv's output never exists whole. output may be residual (in place). */
void mcu_conv2d_add_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                          const mcu_dims *input_dims, const int8_t *input,
                          const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                          const mcu_dims *output_dims, int32_t strip_rows,
                          const mcu_add_params *add, const int8_t *residual, int8_t *output,
                          int16_t *scratch, int8_t *tile);

/* DEPTHWISE_CONV_2D. input [N,H,W,Cin], filter [1,KH,KW,Cout] (Cout = Cin * depth_multiplier),
 * bias [Cout] or NULL, output [N,OH,OW,Cout]. */
void mcu_depthwise_conv2d_s8(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output);

/* DEPTHWISE_CONV_2D with depth multiplier 1 on DSP cores, on a filter mcugen widens and groups by 4
 * channels (int16 [ceil(C/4)][KH*KW][4], channels in the order c, c+2, c+1, c+3) and a window of
 * rows * cols * 4 bytes of scratch (rows = (OH-1)*stride_h + (KH-1)*dilation_h + 1, cols likewise);
 * bias_folded[c] = bias[c] + input_offset * sum of channel c's filter taps (wrapping as int32), zero
 * up to a whole group of 4; channels: one per output channel, then copies of the last up to a whole
 * group. output may be input (in place). Results equal mcu_depthwise_conv2d_s8's. */
void mcu_depthwise_conv2d_s8_x4(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const int16_t *filter_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int8_t *window);

/* FULLY_CONNECTED. input [N, accum] (input_dims n, c), filter [Cout, accum], bias [Cout] or NULL,
 * output [N, Cout] (output_dims n, c). One multiplier per output unit (all equal when per-tensor). */
void mcu_fully_connected_s8(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                            const mcu_dims *input_dims, const int8_t *input,
                            const int8_t *filter, const int32_t *bias,
                            const mcu_dims *output_dims, int8_t *output);

/* FULLY_CONNECTED on DSP cores, on constants mcugen lays out for it: the filter interleaved, per group
 * of 4 units and per 4 values, as the 4 units' words ([ceil(Cout/4)][K4/4][4][4] int8, zero-padded,
 * K4 = accum rounded up to 4), and bias_folded[o] = bias[o] + input_offset * sum_d filter[o, d]
 * (wrapping as int32; zero up to a whole group of 4). Results equal mcu_fully_connected_s8's. */
void mcu_fully_connected_s8_x4(const mcu_fc_params *fc, const mcu_channel *channels,
                               const mcu_dims *input_dims, const int8_t *input,
                               const int8_t *filter, const int32_t *bias_folded,
                               const mcu_dims *output_dims, int8_t *output);

/* AVERAGE_POOL_2D: mean of the in-image taps, rounded half away from zero. [N,H,W,C] -> [N,OH,OW,C]. */
void mcu_avgpool(const mcu_pool_params *pool, const mcu_dims *input_dims, const void *input,
                 const mcu_dims *output_dims, void *output);

/* MAX_POOL_2D over the in-image taps. [N,H,W,C] -> [N,OH,OW,C]. */
void mcu_maxpool(const mcu_pool_params *pool, const mcu_dims *input_dims, const void *input,
                 const mcu_dims *output_dims, void *output);

/* SOFTMAX of int8 over the last axis of `rows` rows of `depth` values, to int8 or int16 (output_bits). */
void mcu_softmax_s8(const mcu_softmax_params *softmax, int32_t rows, int32_t depth,
                    const int8_t *input, void *output);

/* Any elementwise int8 -> int8 op, tabulated at build time: output[i] = table[input[i] + 128].
 * Safe in place (output == input). */
void mcu_lut_s8(const int8_t *table, int32_t size, const int8_t *input, int8_t *output);

/* TRANSPOSE_CONV, int8 or 16x8 (bits; accumulator_bits 32 wraps as TFLM's int8 scratch): input
 * [N,H,W,IC], filter [OC,KH,KW,IC], bias [OC] as int64, output [N,OH,OW,OC]; dilation unused. */
void mcu_transpose_conv(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t bits,
                        int32_t accumulator_bits, const mcu_dims *input_dims, const void *input,
                        const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                        const mcu_dims *output_dims, void *output);

/* int16 LEAKY_RELU of `size` values (TFLM QuantizeLeakyRelu). Safe in place. */
void mcu_leaky_relu_s16(const mcu_leaky_relu_params *leaky, int32_t size, const int16_t *input, int16_t *output);

/* int16 LOGISTIC or TANH of `size` values, Q0.15 out. Safe in place. */
void mcu_sigmoid_s16_array(const mcu_sigmoid_params *sigmoid, int32_t size, const int16_t *input, int16_t *output);

/* ADD / SUB / SQUARED_DIFFERENCE with broadcasting, int8 or int16 (bc->bits); output contiguous
 * over bc->shape. */
void mcu_add(const mcu_add_params *add, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output);

/* MUL with broadcasting, int8 or int16 (bc->bits); output contiguous over bc->shape. */
void mcu_mul(const mcu_mul_params *mul, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output);

/* MAXIMUM (minimum = 0) or MINIMUM (1) of the raw int8 or int16 values (bc->bits), with broadcasting,
 * as TFLM (no rescale). */
void mcu_max_min(int32_t minimum, const mcu_broadcast *bc, const void *input1, const void *input2, void *output);

/* PRELU with alpha broadcast against the input; output contiguous over bc->shape. */
void mcu_prelu_s8(const mcu_prelu_params *prelu, const mcu_broadcast *bc, const int8_t *input, const int8_t *alpha,
                  int8_t *output);

/* RESIZE_BILINEAR of raw int8 values (NHWC), TFLM's integer arithmetic. */
void mcu_resize_bilinear_s8(const mcu_resize_bilinear_params *resize, const mcu_dims *input_dims,
                            const int8_t *input, const mcu_dims *output_dims, int8_t *output);

/* SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND (values copied). */
void mcu_space_batch_s8(const mcu_space_batch_params *sb, const int8_t *input, int8_t *output);

/* Strided N-D copy of bytes: TRANSPOSE, STRIDED_SLICE, TILE and data-movement in general (a wider
 * element is one more axis of its bytes). */
void mcu_copy_strided(const mcu_copy_params *copy, const void *input, void *output);

/* PAD / PADV2, int8 or int16: fill with pad_value, then copy the input into place. */
void mcu_pad(const mcu_pad_params *pad, const void *input, void *output);

/* CONCATENATION (and PACK) of `count` tensors along one axis, values copied as bytes. */
void mcu_concatenation(const mcu_concat_params *concat, const void *const *inputs, void *output);

/* SPLIT, SPLIT_V, UNPACK: one tensor cut into `count` along one axis (values copied as bytes). */
void mcu_split(const mcu_concat_params *split, const void *input, void *const *outputs);

/* GATHER with constant indices: values copied as bytes, any type. */
void mcu_gather(const mcu_gather_params *gather, const void *input, void *output);

/* ARG_MAX / ARG_MIN: the int32 position of the first largest (smallest) value along the axis. */
void mcu_arg_min_max_s8(const mcu_arg_params *arg, const int8_t *input, int32_t *output);

/* MEAN, int8 or int16: requantized sum over the reduced axes (TFLM's QuantizedMeanOrSum). */
void mcu_mean(const mcu_reduce_params *reduce, const void *input, void *output);

/* REDUCE_MAX over the reduced axes (values copied, equal quantization). */
void mcu_reduce_max_s8(const mcu_reduce_params *reduce, const int8_t *input, int8_t *output);

/* RESIZE_NEAREST_NEIGHBOR: [N,H,W,C] -> [N,OH,OW,C] with precomputed source rows and columns. Values
 * are only copied, so any element type: the dims' c counts the bytes of one pixel (C x element size). */
void mcu_resize_nearest(const mcu_resize_params *resize, const mcu_dims *input_dims, const void *input,
                        const mcu_dims *output_dims, void *output);

/* SVDF (TFLM's integer SVDF): shifts the state one slot left, stores each filter's requantized
 * feature dot product in its newest slot, then sums time weights x state per unit, adds the bias and
 * requantizes to int8. Updates `state` in place; weights_time and state are int8 or int16 (state_bits). */
void mcu_svdf_s8(const mcu_svdf_params *svdf, const int8_t *input, const int8_t *weights_feature,
                 const void *weights_time, const int32_t *bias, void *state, int8_t *output);

/* UNIDIRECTIONAL_SEQUENCE_LSTM (TFLM's integer LSTM): runs every time step, updating both states
 * in place; each step's hidden state is also its output row. */
void mcu_lstm_s8(const mcu_lstm_params *lstm, const int8_t *input, int8_t *hidden_state, int16_t *cell_state,
                 int8_t *output);

/* SOFTMAX int16 -> int16 over the last axis (TFLM reference_ops::SoftmaxInt16). */
void mcu_softmax_s16(const mcu_softmax_s16_params *softmax, int32_t rows, int32_t depth,
                     const int16_t *input, int16_t *output);

/* 16x8 CONV_2D: input [N,H,W,Cin] int16, filter [Cout,KH,KW,Cin] int8, bias [Cout] int64 (the values
 * of an int32 bias when accumulator_bits is 32), output [N,OH,OW,Cout] int16; no zero points. */
void mcu_conv2d_s16(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                    const mcu_dims *input_dims, const int16_t *input,
                    const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                    const mcu_dims *output_dims, int16_t *output);

/* 16x8 DEPTHWISE_CONV_2D: input [N,H,W,C] int16, filter [1,KH,KW,C*M] int8, bias int64, output int16. */
void mcu_depthwise_conv2d_s16(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                              const mcu_dims *input_dims, const int16_t *input,
                              const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                              const mcu_dims *output_dims, int16_t *output);

/* 16x8 FULLY_CONNECTED: rows [N, depth] int16, filter [units, depth] int8, bias [units] int64 (see
 * mcu_conv2d_s16), output [N, units] int16. */
void mcu_fully_connected_s16(const mcu_fc_params *fc, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                             const mcu_dims *input_dims, const int16_t *input,
                             const int8_t *filter, const int64_t *bias,
                             const mcu_dims *output_dims, int16_t *output);

/* QUANTIZE float32 -> int8 or int16 (TFLM AffineQuantize): round(x / scale) + zero_point, half away
 * from zero, saturated to the output type; x / scale is one float32 division; NaN and quotients
 * beyond int32 as the x86 oracle converts them (see the .c file). */
void mcu_quantize_f32(const mcu_float_quant *quant, int32_t size, const float *input, void *output);

/* DEQUANTIZE int8 or int16 -> float32: scale * (x - zero_point), rounded once (as TFLM's double
 * product cast to float). */
void mcu_dequantize_f32(const mcu_float_quant *quant, int32_t size, const void *input, float *output);

/* QUANTIZE between integer types (TFLM Requantize): (x - zp_in) * multiplier * 2^(shift - 31), rounded
 * twice, + zp_out, clamped to the output type. */
void mcu_requantize_int(const mcu_requantize_params *rq, int32_t size, const void *input, void *output);

#endif /* MCU_NN_H */
