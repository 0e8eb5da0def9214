/* mcu_nn: elementwise ops: the binary ops with broadcasting, tables, activations, SOFTMAX, the type conversions. Conventions: mcu_nn.h. */
#ifndef MCU_NN_ELEMENTWISE_H
#define MCU_NN_ELEMENTWISE_H

#include "mcu_nn_types.h"

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
    /* NULL, or int8 ADD/SUB's inputs rescaled and doubled (what the output rescale's high multiply takes),
     * [2][256] by the input byte read as unsigned: input 1's, then input 2's (negated for SUB), for the DSP
     * kernel that looks them up (mcu_add_s8_x4) */
    const int32_t *rescaled;
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

/* SOFTMAX of int8 over the last axis of `rows` rows of `depth` values, to int8 or int16 (output_bits). */
void mcu_softmax_s8(const mcu_softmax_params *softmax, int32_t rows, int32_t depth,
                    const int8_t *input, void *output);

/* Any elementwise byte -> byte op (int8 or uint8 either side), tabulated at build time:
 * output[i] = table[input[i] + 128], the input byte read as int8. Safe in place (output == input). */
void mcu_lut(const int8_t *table, int32_t size, const int8_t *input, int8_t *output);

/* int16 LEAKY_RELU of `size` values (TFLM QuantizeLeakyRelu). Safe in place. */
void mcu_leaky_relu_s16(const mcu_leaky_relu_params *leaky, int32_t size, const int16_t *input, int16_t *output);

/* int16 RSQRT of `size` values, zero points 0 (TFLM's elementwise kernel): 1 / sqrt(x) by TFLM's integer
 * Newton-Raphson (mcu_inv_sqrt), scaled by 2^20, then requantized by `rescale` (1 / (sqrt(s_in) * s_out),
 * its shift less 20); 0 gives 32767, and so does a negative input (where TFLM fails the invoke). Safe in place. */
void mcu_rsqrt_s16(const mcu_rescale *rescale, int32_t size, const int16_t *input, int16_t *output);

/* int16 LOGISTIC or TANH of `size` values, Q0.15 out. Safe in place. */
void mcu_sigmoid_s16_array(const mcu_sigmoid_params *sigmoid, int32_t size, const int16_t *input, int16_t *output);

/* ADD / SUB / SQUARED_DIFFERENCE with broadcasting, int8 or int16 (bc->bits); output contiguous
 * over bc->shape. */
void mcu_add(const mcu_add_params *add, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output);

/* mcu_add for int8 inputs and output of one shape (size values each), on DSP cores. output may be input1 or
 * input2 (in place). */
void mcu_add_s8_x4(const mcu_add_params *add, int32_t size, const int8_t *input1, const int8_t *input2,
                   int8_t *output);

/* ADD or SUB (add->operation) of two int8 (int16) tensors of `size` values each, one shape (no broadcasting), on
 * Helium (MVE) cores: mcu_add's results. output may be input1 or input2 (in place). */
void mcu_add_s8_mve(const mcu_add_params *add, int32_t size, const int8_t *input1, const int8_t *input2,
                    int8_t *output);
void mcu_add_s16_mve(const mcu_add_params *add, int32_t size, const int16_t *input1, const int16_t *input2,
                     int16_t *output);

/* MUL with broadcasting, int8 or int16 (bc->bits); output contiguous over bc->shape. */
void mcu_mul(const mcu_mul_params *mul, const mcu_broadcast *bc, const void *input1, const void *input2,
             void *output);

/* MUL of two int8 (int16) tensors of `size` values each, one shape (no broadcasting), on Helium (MVE) cores:
 * mcu_mul's results. output may be input1 or input2 (in place). */
void mcu_mul_s8_mve(const mcu_mul_params *mul, int32_t size, const int8_t *input1, const int8_t *input2,
                    int8_t *output);
void mcu_mul_s16_mve(const mcu_mul_params *mul, int32_t size, const int16_t *input1, const int16_t *input2,
                     int16_t *output);

/* MAXIMUM (minimum = 0) or MINIMUM (1) of the raw int8 or int16 values (bc->bits), with broadcasting,
 * as TFLM (no rescale). */
void mcu_max_min(int32_t minimum, const mcu_broadcast *bc, const void *input1, const void *input2, void *output);

typedef enum { MCU_TYPE_INT8, MCU_TYPE_INT16, MCU_TYPE_INT32, MCU_TYPE_UINT32, MCU_TYPE_FLOAT32 } mcu_type;

typedef struct {
    mcu_type source;
    mcu_type target;
} mcu_cast_params;

/* CAST, TFLM's static_cast of each of `size` values: integers wrap when they narrow, round to nearest
 * even into float; float truncates into integers, saturating at the type's ends, NaN giving 0 (what
 * the oracle answers where C leaves it undefined). */
void mcu_cast(const mcu_cast_params *params, int32_t size, const void *input, void *output);

typedef enum {
    MCU_S32_ADD,
    MCU_S32_SUB,
    MCU_S32_MUL,
    MCU_S32_DIV,
    MCU_S32_MAXIMUM,
    MCU_S32_MINIMUM
} mcu_binary_s32_op;

typedef struct {
    mcu_binary_s32_op operation;
    int32_t activation_min; /* the clamp after ADD, SUB, MUL, DIV (ADD's: all of int32, as TFLM) */
    int32_t activation_max;
} mcu_binary_s32_params;

/* Unquantized int32 ADD, SUB, MUL (wrapping, as TFLM's host build), DIV (toward zero; by 0 gives 0,
 * INT32_MIN / -1 gives INT32_MIN), MAXIMUM, MINIMUM, numpy broadcasting (bc's strides count int32s). */
void mcu_binary_s32(const mcu_binary_s32_params *params, const mcu_broadcast *bc, const int32_t *input1,
                    const int32_t *input2, int32_t *output);

/* PRELU with alpha broadcast against the input; output contiguous over bc->shape. */
void mcu_prelu_s8(const mcu_prelu_params *prelu, const mcu_broadcast *bc, const int8_t *input, const int8_t *alpha,
                  int8_t *output);

/* mcu_softmax_s8 with Helium: four values per vector, the exponentials gathered from the table. */
void mcu_softmax_s8_mve(const mcu_softmax_params *softmax, int32_t rows, int32_t depth,
                        const int8_t *input, void *output);

/* SOFTMAX int16 -> int16 over the last axis (TFLM reference_ops::SoftmaxInt16). */
void mcu_softmax_s16(const mcu_softmax_s16_params *softmax, int32_t rows, int32_t depth,
                     const int16_t *input, int16_t *output);

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

/* mcu_requantize_int on DSP cores for int8 or int16 at both ends (not both int8) and a right shift
 * (shift <= -1). */
void mcu_requantize_int_x4(const mcu_requantize_params *rq, int32_t size, const void *input, void *output);

#endif /* MCU_NN_ELEMENTWISE_H */
