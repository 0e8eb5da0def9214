/*
 * The Helium DEPTHWISE_CONV_2D kernel with depth multiplier 1, four channels per vector, for int8 weights
 * (mcu_depthwise_conv2d_s8_mve) and INT4 ones read packed (mcu_depthwise_conv2d_s4_mve).
 */
#ifndef MCU_NN_DW_MVE_H
#define MCU_NN_DW_MVE_H

#include "mcu_nn_mve.h"
#include "mcu_nn_window.h"

/*
 * DEPTHWISE_CONV_2D with depth multiplier 1 on Helium (MVE) cores: the results of
 * mcu_depthwise_conv2d_s8, four channels per vector, on constants mcugen lays out for it:
 *   filter_x4:   [ceil(C/4)][KH*KW][4] int8 (`bits` 8), each group's taps in order, zero past C; or
 *                (`bits` 4) those values two to a byte, the low nibble first, each group's unpacked
 *                past the window (from a word boundary: KH*KW*4 bytes) before its outputs;
 *   bias_folded: [ceil(C/4) * 4], bias[c] + input_offset * sum of channel c's taps (wrapping as int32),
 *                so the input offset is added to no input value: the window pads with the zero point;
 *   window:      scratch of rows * cols * 4 bytes (as mcu_depthwise_conv2d_s8_x4's), word-aligned.
 * The window's padding is filled with the zero point once per layer, then per group its pixels are copied
 * in (mcu_window_group4's layout), and four outputs at a time (along a row, then down the columns a row's
 * fours leave) share each tap's weight vector: one widening load of the weights, and per output a widening
 * load of its four inputs, a multiply and an add. The output may be the input (in place), as with
 * mcu_depthwise_conv2d_s8_x4.
 */
void mcu_depthwise_mve(
    const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const int8_t *filter_x4, int bits, const int32_t *bias_folded,
    const mcu_dims *output_dims, int8_t *output, int8_t *window);

#endif /* MCU_NN_DW_MVE_H */
