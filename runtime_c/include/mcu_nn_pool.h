/* mcu_nn: pooling and reductions: AVERAGE_POOL_2D, MAX_POOL_2D, MEAN, REDUCE_MAX, ARG_MAX / ARG_MIN. Conventions: mcu_nn.h. */
#ifndef MCU_NN_POOL_H
#define MCU_NN_POOL_H

#include "mcu_nn_types.h"

typedef struct {
    mcu_tile stride;
    mcu_tile padding;
    mcu_tile filter;
    mcu_activation activation; /* within the element type's range */
    int32_t bits;              /* 8: int8 elements, 16: int16 */
} mcu_pool_params;

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

/* ARG_MAX / ARG_MIN over the middle axis of [outer, axis_size, inner]. */
typedef struct {
    int32_t outer;
    int32_t axis_size;
    int32_t inner;
    int32_t minimum;  /* 1: ARG_MIN */
    int32_t is_float; /* float32 values, else int8 */
} mcu_arg_params;

/* AVERAGE_POOL_2D: mean of the in-image taps, rounded half away from zero. [N,H,W,C] -> [N,OH,OW,C]. */
void mcu_avgpool(const mcu_pool_params *pool, const mcu_dims *input_dims, const void *input,
                 const mcu_dims *output_dims, void *output);

/* mcu_avgpool for int8 on DSP cores (four channels per word; windows of over 255 taps on mcu_avgpool). */
void mcu_avgpool_s8_x4(const mcu_pool_params *pool, const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *output_dims, int8_t *output);

/* MAX_POOL_2D over the in-image taps. [N,H,W,C] -> [N,OH,OW,C]. */
void mcu_maxpool(const mcu_pool_params *pool, const mcu_dims *input_dims, const void *input,
                 const mcu_dims *output_dims, void *output);

/* AVERAGE_POOL_2D and MAX_POOL_2D of int8 (pool->bits 8) on Helium (MVE) cores: the results of mcu_avgpool and
 * mcu_maxpool, channels four (average) or sixteen (max) per vector. */
void mcu_avgpool_s8_mve(const mcu_pool_params *pool, const mcu_dims *input_dims, const int8_t *input,
                        const mcu_dims *output_dims, int8_t *output);
void mcu_maxpool_s8_mve(const mcu_pool_params *pool, const mcu_dims *input_dims, const int8_t *input,
                        const mcu_dims *output_dims, int8_t *output);

/* ARG_MAX / ARG_MIN of int8 or float32: the int32 position of the first largest (smallest) value along the
 * axis (a NaN is never taken, nor passed: one at position 0 stays the answer). */
void mcu_arg_min_max(const mcu_arg_params *arg, const void *input, int32_t *output);

/* MEAN, int8 or int16: requantized sum over the reduced axes (TFLM's QuantizedMeanOrSum). */
void mcu_mean(const mcu_reduce_params *reduce, const void *input, void *output);

/* REDUCE_MAX over the reduced axes (values copied, equal quantization). */
void mcu_reduce_max_s8(const mcu_reduce_params *reduce, const int8_t *input, int8_t *output);

#endif /* MCU_NN_POOL_H */
