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
 *   They take no locks; the few that need working memory (scratch) get it as an argument, planned by
 *   mcugen in the arena (sizes computed in one place, by the op's lowering in mcugen/ops/).
 * - Floating point is used by the float32 boundary kernels (QUANTIZE from float32, DEQUANTIZE to
 *   float32) and by the float32 layers (mcu_nn_float.h): the FPU where the core has one, else soft float.
 */
#ifndef MCU_NN_H
#define MCU_NN_H

/* The kernels by family; each header declares its kernels' parameters and prototypes. */
#include "mcu_nn_types.h"
#include "mcu_nn_conv.h"
#include "mcu_nn_fc.h"
#include "mcu_nn_pool.h"
#include "mcu_nn_elementwise.h"
#include "mcu_nn_movement.h"
#include "mcu_nn_recurrent.h"
#include "mcu_nn_float.h"
#include "mcu_nn_half.h"
#include "mcu_nn_signal.h"

#endif /* MCU_NN_H */
