/*
 * fp16 layers: FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D with float16 input, weights, bias and output,
 * the layers a precision plan made fp16, on a core with half-precision arithmetic (the Cortex-M55; the host
 * for tests). No TFLite kernel computes these; the order of operations is mcugen's, stated in
 * mcugen/ops/half_layers.py, and every kernel here follows it bit for bit: each product and each sum rounded
 * to float16 on its own statement (never fused), eight lane sums from +0 (lane l takes channel c + l of each
 * run of eight channels of each in-image tap), folded ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)), then
 * the bias, then the fused activation's float32 clamp.
 *
 * Layouts as the float32 kernels': input and output NHWC, a conv's filter [OC, KH, KW, C], a depthwise
 * filter [1, KH, KW, OC], a fully connected filter [units, depth]. Only where the compiler has _Float16. The
 * order's helpers, which the kernels share: mcu_nn_half_sums.h.
 */
#ifndef MCU_NN_HALF_H
#define MCU_NN_HALF_H

#include "mcu_nn_float.h"

#if defined(__FLT16_MAX__)

typedef _Float16 mcu_f16;

void mcu_fully_connected_f16(const mcu_float_activation *activation, int32_t batches, int32_t depth, int32_t units,
                             const mcu_f16 *input, const mcu_f16 *filter, const mcu_f16 *bias, mcu_f16 *output);
void mcu_conv2d_f16(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                    const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                    const mcu_dims *output_dims, mcu_f16 *output);
void mcu_depthwise_conv2d_f16(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                              const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                              const mcu_dims *output_dims, mcu_f16 *output);
/* float32 -> float16 to nearest even (an fp16 layer's input), and back (exact) */
void mcu_quantize_f16(int32_t count, const float *input, mcu_f16 *output);
void mcu_dequantize_f16(int32_t count, const mcu_f16 *input, float *output);

/* Helium: the same, eight lanes at a time */
void mcu_fully_connected_f16_mve(const mcu_float_activation *activation, int32_t batches, int32_t depth,
                                 int32_t units, const mcu_f16 *input, const mcu_f16 *filter, const mcu_f16 *bias,
                                 mcu_f16 *output);
void mcu_conv2d_f16_mve(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                        const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                        const mcu_dims *output_dims, mcu_f16 *output);
/* depth multiplier 1 */
void mcu_depthwise_conv2d_f16_mve(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                                  const mcu_f16 *input, const mcu_dims *filter_dims, const mcu_f16 *filter,
                                  const mcu_f16 *bias, const mcu_dims *output_dims, mcu_f16 *output);

#endif /* __FLT16_MAX__ */

#endif /* MCU_NN_HALF_H */
