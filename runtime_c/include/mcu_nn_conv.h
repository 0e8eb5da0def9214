/* mcu_nn: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV: int8, 16x8, and the DSP variants. Conventions: mcu_nn.h. */
#ifndef MCU_NN_CONV_H
#define MCU_NN_CONV_H

#include "mcu_nn_elementwise.h" /* the fused conv + ADD takes mcu_add_params */
#include "mcu_nn_types.h"

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
    int32_t per_tensor; /* the DSP kernels' channel table: 0 a row per unit, 1 one group of four rows for every
                         * group (a per-tensor requantization, as TFLM keeps one) */
} mcu_fc_params;

/* INT4 weights (two to a byte, low nibble first) to int8 or int16 values in [-8, 7]: an INT4 filter's
 * layer on an int8 kernel unpacks its weights, in the layout that kernel reads, into its scratch before
 * it runs (the _s4 kernels read them packed instead). */
void mcu_unpack_s4(const int8_t *packed, int32_t count, int8_t *output);
void mcu_unpack_s4_s16(const int8_t *packed, int32_t count, int16_t *output);

/* CONV_2D. input [N,H,W,Cin], filter [Cout,KH,KW,Cin], bias [Cout] or NULL, output [N,OH,OW,Cout]. */
void mcu_conv2d_s8(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                   const mcu_dims *input_dims, const int8_t *input,
                   const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                   const mcu_dims *output_dims, int8_t *output);

/* CONV_2D on an INT4 filter, two weights to a byte (low nibble first, TFLM's packing), read packed:
 * mcu_conv2d_s8's results on the unpacked filter. Layouts as mcu_conv2d_s8's. */
void mcu_conv2d_s4(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                   const mcu_dims *input_dims, const int8_t *input,
                   const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                   const mcu_dims *output_dims, int8_t *output);

/* CONV_2D on Helium (MVE) cores: mcu_conv2d_s8's results, the input offset folded into bias_folded[o] =
 * bias[o] + input_offset * sum of unit o's weights (wrapping), scratch `patch` of KH * KW * Cin bytes. */
void mcu_conv2d_s8_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                       const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias_folded,
                       const mcu_dims *output_dims, int8_t *output, int8_t *patch);

/* mcu_conv2d_s8_mve on an INT4 filter read packed: each channel's KH * KW * Cin weights in blocks of 32,
 * byte j of a block's 16 holding weight j in its low nibble and weight j + 16 in its high one, zero-padded
 * to whole blocks (kernels/layouts.py s4_blocks). */
void mcu_conv2d_s4_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                       const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias_folded,
                       const mcu_dims *output_dims, int8_t *output, int8_t *patch);

/* Output positions mcu_conv2d_s8_x6 computes at a time. */
#define MCU_CONV_BLOCK 6

/* CONV_2D on DSP cores, MCU_CONV_BLOCK output positions at a time: the results of mcu_conv2d_s8,
 * with the filter laid out for it (each channel's taps padded with zeros to K8, pairs of channels'
 * words alternating: kernels/layouts.py x6_filter), a bias per output channel (never NULL), one mcu_channel per
 * output channel, and scratch
 * (4-byte aligned, planned in the arena) of MCU_CONV_BLOCK * K8 int16 then K8 bytes, K8 =
 * KH*KW*Cin rounded up to 8. With a 1x1 kernel, no padding and Cout <= Cin, output may be input. */
void mcu_conv2d_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                      const mcu_dims *input_dims, const int8_t *input,
                      const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                      const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* mcu_conv2d_s8_x6 on INT4 weights read packed: per channel pair (an odd last one paired with zeros) and
 * per four taps of x6_filter's order, a word of the pair's nibbles (kernels/layouts.py s4_pairs); K8 * 255 * 8
 * below 2^27 (the loop sums times 16). */
void mcu_conv2d_s4_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                      const mcu_dims *input_dims, const int8_t *input,
                      const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                      const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* mcu_conv2d_s8_x6 on INT4 weights four output channels a word (mcu_nn_conv_quads_dsp.h; kernels/layouts.py
 * s4_quads_filter): output channels a multiple of 4, each quad's sums within s4_quads_fit's bounds, every
 * channel fast, its bias doubled. */
void mcu_conv2d_s4_quads(const mcu_conv_params *conv, const mcu_channel *channels,
                         const mcu_dims *input_dims, const int8_t *input,
                         const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                         const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* mcu_conv2d_s8_x6 on weights widened to int16 at build time: x6_filter's layout with each word of four
 * taps as the int16 (w0, w2, w1, w3) (kernels/layouts.py w16_filter, word-aligned); a channel whose
 * mcu_channel.fast is 2 has its weights and bias doubled (kernels/conv.py w16_constants). */
void mcu_conv2d_s8_w16(const mcu_conv_params *conv, const mcu_channel *channels,
                       const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *filter_dims, const int16_t *filter_pairs, const int32_t *bias,
                       const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* mcu_conv2d_s8_x6 on twin words, int8 weights at their size: x6_filter's layout with each channel pair's
 * four taps as the int16 256 * w1 + w0 in the order (w0, w2, w1, w3) (kernels/layouts.py twin_filter), an odd last
 * channel's words as x6_filter's; every pair's bias1 + sum of c1's products within [-2^23, 2^23)
 * (kernels/layouts.py twin_pairs_fit). */
void mcu_conv2d_s8_twin(const mcu_conv_params *conv, const mcu_channel *channels,
                        const mcu_dims *input_dims, const int8_t *input,
                        const mcu_dims *filter_dims, const int8_t *filter_twins, const int32_t *bias,
                        const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* 16x8 CONV_2D on DSP cores (mcu_conv2d_s16's contract and results) for layers whose sums of products fit
 * int32 (KH*KW*Cin * 32768 * 128 < 2^31), on mcu_conv2d_s8_x6's loop: the filter laid out as its, each four
 * taps reordered (w0, w2, w1, w3) (kernels/layouts.py x6_filter); scratch (4-byte aligned) of MCU_CONV_BLOCK * K8
 * int16 then K8 int16, K8 = KH*KW*Cin rounded up to 8. With a 1x1 kernel, no padding and Cout <= Cin, output
 * may be input. */
void mcu_conv2d_s16_x6(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                       const mcu_dims *input_dims, const int16_t *input,
                       const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                       const mcu_dims *output_dims, int16_t *output, int16_t *scratch);

/* mcu_conv2d_live_s8_w16 on INT4 weights read packed (mcu_conv2d_s4_x6's layout of the live channels). */
void mcu_conv2d_live_s4_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                           const mcu_dims *input_dims, const int8_t *input,
                           const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                           const int16_t *live, const int8_t *pruned, const mcu_dims *output_dims, int8_t *output,
                           int16_t *scratch);

/* mcu_conv2d_s8_w16 on a layer's live channels only (weights not all zero): filter_dims n of them, their
 * filter_pairs, bias and channels rows; live[i]: the output channel of the i-th; pruned: out_c bytes, the
 * value of every pruned channel at each position. */
void mcu_conv2d_live_s8_w16(const mcu_conv_params *conv, const mcu_channel *channels,
                            const mcu_dims *input_dims, const int8_t *input,
                            const mcu_dims *filter_dims, const int16_t *filter_pairs, const int32_t *bias,
                            const int16_t *live, const int8_t *pruned, const mcu_dims *output_dims, int8_t *output,
                            int16_t *scratch);

/* mcu_conv2d_live_s8_w16 on int8 weights (mcu_conv2d_s8_x6's layout of the live channels), widened in registers. */
void mcu_conv2d_live_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                           const mcu_dims *input_dims, const int8_t *input,
                           const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                           const int16_t *live, const int8_t *pruned, const mcu_dims *output_dims, int8_t *output,
                           int16_t *scratch);

/* mcu_conv2d_live_s8_w16 on twin words (mcu_conv2d_s8_twin's layout of the live channels). */
void mcu_conv2d_live_s8_twin(const mcu_conv_params *conv, const mcu_channel *channels,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter_twins, const int32_t *bias,
                             const int16_t *live, const int8_t *pruned, const mcu_dims *output_dims, int8_t *output,
                             int16_t *scratch);

/* mcu_conv2d_s8_w16 for kernels whose rows (KW*Cin bytes) are longer than a word and not whole words (a
 * first layer on a 3-channel image): each patch's rows split into their whole words, widened straight
 * from the image, and their tails, gathered; the filter's taps in that order (kernels/layouts.py patch_order). */
void mcu_conv2d_split_s8_w16(const mcu_conv_params *conv, const mcu_channel *channels,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int16_t *filter_pairs, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* mcu_conv2d_split_s8_w16 on int8 weights (mcu_conv2d_s8_x6's layout, taps in patch_order), widened in
 * registers. */
void mcu_conv2d_split_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                            const mcu_dims *input_dims, const int8_t *input,
                            const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                            const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* mcu_conv2d_split_s8_w16 on twin words (mcu_conv2d_s8_twin's layout, taps in patch_order). */
void mcu_conv2d_split_s8_twin(const mcu_conv_params *conv, const mcu_channel *channels,
                              const mcu_dims *input_dims, const int8_t *input,
                              const mcu_dims *filter_dims, const int8_t *filter_twins, const int32_t *bias,
                              const mcu_dims *output_dims, int8_t *output, int16_t *scratch);

/* filter_bits of mcu_conv2d_rows_s8_x6 for mcu_conv2d_s8_twin's weights (int8, twinned) and
 * mcu_conv2d_s4_quads' (INT4, four channels a word). */
#define MCU_FILTER_TWIN (-8)
#define MCU_FILTER_S4_QUADS (-4)

/* Output rows [first, first + rows) of mcu_conv2d_s8_x6 (filter_bits 8), mcu_conv2d_s8_w16 (16), mcu_conv2d_s4_x6
 * (4), mcu_conv2d_s8_twin (MCU_FILTER_TWIN) or mcu_conv2d_s4_quads (MCU_FILTER_S4_QUADS) (one image), written
 * as an image of `rows` rows: how a fused call runs a conv strip by strip. */
void mcu_conv2d_rows_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                           const mcu_dims *input_dims, const int8_t *input,
                           const mcu_dims *filter_dims, const void *filter, int32_t filter_bits, const int32_t *bias,
                           const mcu_dims *output_dims, int32_t first, int32_t rows, int8_t *output,
                           int16_t *scratch);

/* Make `rows` hold the rows of mcu_conv2d_rows_s8_x6's conv (one image, whole output mid_dims) that an output
 * row of the next layer reads (`span` from `top`) when it held [held[0], held[1]) (updated): rows no longer
 * needed leave from the front, the missing ones are computed after the kept ones. Sets `in` to the held
 * rows' dims and returns the next layer's top padding moved so that they are its input. Rows only go down. */
int32_t mcu_conv2d_hold_rows_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                                   const mcu_dims *input_dims, const int8_t *input,
                                   const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                   const int32_t *bias, const mcu_dims *mid_dims, int32_t top, int32_t span,
                                   int32_t *held, int8_t *rows, int16_t *scratch, mcu_dims *in);

/* mcu_conv2d_rows_s8_x6's conv (one image) then FULLY_CONNECTED on its whole output as one row, strip_rows conv
 * rows at a time through `tile` (strip_rows * OW * C bytes): the conv's output never exists whole.
 * The FC takes fc_filter [units, OH*OW*C] (no filter offset), fc_bias_folded[u] = bias[u] +
 * input_offset * sum_k fc_filter[u][k] (wrapping as int32), one fc_channels entry per unit, and
 * acc (one int32 per unit); its output is [1, units] (fc_output_dims c). */
void mcu_conv2d_fc_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                         const mcu_dims *input_dims, const int8_t *input,
                         const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                         const int32_t *bias,
                         const mcu_dims *output_dims, int32_t strip_rows,
                         const mcu_fc_params *fc, const mcu_channel *fc_channels, const int8_t *fc_filter,
                         const int32_t *fc_bias_folded, const mcu_dims *fc_output_dims, int8_t *output,
                         int16_t *scratch, int8_t *tile, int32_t *acc);

/* mcu_conv2d_rows_s8_x6's conv (one image) then ADD (the conv's output as input 1) with a residual of the
 * conv's output shape, strip_rows rows at a time through `tile` (strip_rows * OW * C bytes): the
 * conv's output never exists whole. output may be residual (in place). */
void mcu_conv2d_add_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                          const mcu_dims *input_dims, const int8_t *input,
                          const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                          const int32_t *bias,
                          const mcu_dims *output_dims, int32_t strip_rows,
                          const mcu_add_params *add, const int8_t *residual, int8_t *output,
                          int16_t *scratch, int8_t *tile);

/* mcu_conv2d_rows_s8_x6's conv (one image, output mid_dims) then mcu_depthwise_conv2d_s8_x4 on its output,
 * one depthwise output row at a time from `rows` ((KH-1) * dilation_h + 1 conv output rows, OW * C bytes
 * each): the conv's output never exists whole. window: the depthwise's for one output row. output must
 * not be input. */
void mcu_conv2d_depthwise_s8_x4(const mcu_conv_params *conv, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                const int32_t *bias, const mcu_dims *mid_dims,
                                const mcu_dw_conv_params *dw, const mcu_channel *dw_channels,
                                const mcu_dims *dw_filter_dims, const int16_t *filter_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int16_t *scratch, int8_t *rows, int8_t *window);

/* mcu_conv2d_depthwise_s8_x4 with the depthwise layer's INT4 weights read packed (mcu_depthwise_conv2d_s4_x4's). */
void mcu_conv2d_depthwise_s4_x4(const mcu_conv_params *conv, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                const int32_t *bias, const mcu_dims *mid_dims,
                                const mcu_dw_conv_params *dw, const mcu_channel *dw_channels,
                                const mcu_dims *dw_filter_dims, const int8_t *packed_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int16_t *scratch, int8_t *rows, int8_t *window);

/* mcu_conv2d_rows_s8_x6's conv (one image, output mid_dims), a second such conv (conv2, filter2, ...) on its
 * output, and ADD (the second conv's output as input 1) with a residual of the output's shape, strip_rows
 * output rows at a time: `rows` ((strip_rows-1) * stride2_h + (KH2-1) * dilation2_h + 1 rows of mid_dims, at
 * most its height) holds the first conv's rows they read, `tile` (strip_rows * OW * C bytes) the second's
 * rows; neither conv's output exists whole. residual NULL: it is input.
 * scratch: the larger of the two convs'. output may be residual, or input when the first conv reads no
 * input row after the output row written over it (mcugen checks). */
void mcu_conv2d_conv2d_add_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                 const int32_t *bias, const mcu_dims *mid_dims,
                                 const mcu_conv_params *conv2, const mcu_channel *channels2,
                                 const mcu_dims *filter2_dims, const void *filter2, int32_t filter2_bits,
                                 const int32_t *bias2, const mcu_dims *output_dims, int32_t strip_rows,
                                 const mcu_add_params *add, const int8_t *residual, int8_t *output,
                                 int16_t *scratch, int8_t *rows, int8_t *tile);

/* mcu_conv2d_conv2d_add_s8_x6 where the residual is a third conv (conv3, filter3, ...: a ResNet block's
 * projection shortcut) of the first conv's input, output output_dims: its strips go into `shortcut`
 * (strip_rows * OW * C bytes) and are added to the second conv's (input 1); no conv's output exists whole.
 * scratch: the largest of the three convs'. output may be input when no input byte is read after an output
 * strip written over it (mcugen checks). */
void mcu_conv2d_conv2d_add_shortcut_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                                          const mcu_dims *input_dims, const int8_t *input,
                                          const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                          const int32_t *bias, const mcu_dims *mid_dims,
                                          const mcu_conv_params *conv2, const mcu_channel *channels2,
                                          const mcu_dims *filter2_dims, const void *filter2, int32_t filter2_bits,
                                          const int32_t *bias2, const mcu_dims *output_dims, int32_t strip_rows,
                                          const mcu_conv_params *conv3, const mcu_channel *channels3,
                                          const mcu_dims *filter3_dims, const void *filter3, int32_t filter3_bits,
                                          const int32_t *bias3, const mcu_add_params *add, int8_t *output,
                                          int16_t *scratch, int8_t *rows, int8_t *tile, int8_t *shortcut);

/* DEPTHWISE_CONV_2D. input [N,H,W,Cin], filter [1,KH,KW,Cout] (Cout = Cin * depth_multiplier),
 * bias [Cout] or NULL, output [N,OH,OW,Cout]. */
void mcu_depthwise_conv2d_s8(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output);

/* DEPTHWISE_CONV_2D on an INT4 filter read packed (as mcu_conv2d_s4): mcu_depthwise_conv2d_s8's results. */
void mcu_depthwise_conv2d_s4(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output);

/* DEPTHWISE_CONV_2D on Helium (MVE) cores, depth multiplier 1: mcu_depthwise_conv2d_s8's results.
 * filter_x4 [ceil(C/4)][KH*KW][4] int8 (zero past C), bias_folded [ceil(C/4)*4] = bias[c] + input_offset *
 * sum of channel c's taps (wrapping as int32), window: scratch of rows * cols * 4 bytes as for
 * mcu_depthwise_conv2d_s8_x4. output may be input (in place). */
void mcu_depthwise_conv2d_s8_mve(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const mcu_dims *filter_dims, const int8_t *filter_x4, const int32_t *bias_folded,
                                 const mcu_dims *output_dims, int8_t *output, int8_t *window);

/* mcu_depthwise_conv2d_s8_mve on INT4 weights read packed: its filter's values two to a byte (low nibble
 * first), each group's unpacked into the scratch past the window (KH*KW*4 bytes, from a word boundary). */
void mcu_depthwise_conv2d_s4_mve(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const mcu_dims *filter_dims, const int8_t *filter_x4, const int32_t *bias_folded,
                                 const mcu_dims *output_dims, int8_t *output, int8_t *window);

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

/* mcu_depthwise_conv2d_s8_x4 on INT4 weights read packed: its filter's values two to a byte (low nibble
 * first), each group's unpacked into the scratch past the window (KH*KW*4 int16, from a word boundary)
 * before the group's outputs. */
void mcu_depthwise_conv2d_s4_x4(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const int8_t *packed_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int8_t *window);

/* DEPTHWISE_CONV_2D 3x3, stride 1 or 2, no dilation, depth multiplier 1, on DSP cores, a channel at a time:
 * filter [C][3][3] int8 = each channel's kernel rows, its kernel columns where OH > OW;
 * bias_folded[c] = bias[c] + input_offset * sum of channel c's taps (wrapping as int32); channels: one per
 * output channel; scratch: `windows` windows (1, or 4: four channels' filled at once) and a pass's sums,
 * word-aligned (the kernel's file gives its size). output may be input (in place). Results equal
 * mcu_depthwise_conv2d_s8's. */
void mcu_depthwise_conv2d_s8_x2(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const mcu_dims *filter_dims, const int8_t *filter,
                                 const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                 int16_t *scratch, int32_t windows);

/* TRANSPOSE_CONV, int8 or 16x8 (bits; accumulator_bits 32 wraps as TFLM's int8 scratch): input
 * [N,H,W,IC], filter [OC,KH,KW,IC], bias [OC] as int64, output [N,OH,OW,OC]; dilation unused. */
void mcu_transpose_conv(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t bits,
                        int32_t accumulator_bits, const mcu_dims *input_dims, const void *input,
                        const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                        const mcu_dims *output_dims, void *output);

/* 16x8 CONV_2D: input [N,H,W,Cin] int16, filter [Cout,KH,KW,Cin] int8, bias [Cout] int64 (the values
 * of an int32 bias when accumulator_bits is 32), output [N,OH,OW,Cout] int16; no zero points. */
void mcu_conv2d_s16(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                    const mcu_dims *input_dims, const int16_t *input,
                    const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                    const mcu_dims *output_dims, int16_t *output);

/* 16x8 CONV_2D with Helium (mcu_conv2d_s16's contract and results) for layers whose sums of products fit
 * int32: the filter as the reference's; scratch (`patch`) of KH*KW*Cin int16, unused for 1x1 kernels
 * without padding. */
void mcu_conv2d_s16_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                        const mcu_dims *input_dims, const int16_t *input,
                        const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                        const mcu_dims *output_dims, int16_t *output, int16_t *patch);

/* 16x8 DEPTHWISE_CONV_2D: input [N,H,W,C] int16, filter [1,KH,KW,C*M] int8, bias int64, output int16. */
void mcu_depthwise_conv2d_s16(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                              const mcu_dims *input_dims, const int16_t *input,
                              const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                              const mcu_dims *output_dims, int16_t *output);

/* 16x8 DEPTHWISE_CONV_2D 3x3, stride 1, no dilation, depth multiplier 1, on DSP cores, a channel at a time
 * (mcu_depthwise_conv2d_s16's results): filter_pairs [C][3][4] int16 = each kernel row (w0, w1, w1, w2),
 * each kernel column where OH > OW; scratch as mcu_depthwise_conv2d_s8_x2's with one window. output may be
 * input (in place). */
void mcu_depthwise_conv2d_s16_x2(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                                 const mcu_dims *input_dims, const int16_t *input,
                                 const mcu_dims *filter_dims, const int16_t *filter_pairs, const int64_t *bias,
                                 const mcu_dims *output_dims, int16_t *output, int16_t *scratch);

/* 16x8 DEPTHWISE_CONV_2D with Helium (mcu_depthwise_conv2d_s16's contract and results), depth multiplier
 * 1, for layers whose sums of products fit int32 (KH * KW * 32768 * 128 < 2^31). */
void mcu_depthwise_conv2d_s16_mve(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                                  const mcu_dims *input_dims, const int16_t *input,
                                  const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                                  const mcu_dims *output_dims, int16_t *output);


#endif /* MCU_NN_CONV_H */
