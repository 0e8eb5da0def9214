/* mcu_nn: the types every kernel family shares (conventions: mcu_nn.h). */
#ifndef MCU_NN_TYPES_H
#define MCU_NN_TYPES_H

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
 * time (ops/_quant.py channel_table, its fields CHANNEL_FIELDS), in 8 bytes like TFLM's multiplier and
 * shift: `fast` when the 4-instruction mcu_requantize_fast is exact for every accumulator the layer can
 * produce (a right shift, |accumulator| < 2^30, multiplier >= 0) and the output offset folds into its
 * rounding term, odd << (right - 1) (mcu_channel_round: worked out per channel at run time, not kept). */
typedef struct {
    int32_t multiplier;
    int8_t right;  /* -shift: TFLM's shift negated */
    uint8_t fast;  /* 1, or 2 where the kernel's sums are the doubled accumulator (mcu_conv2d_s8_w16's weights and
                    * bias doubled by mcugen, kernels/conv.py w16_constants); 0: mcu_requantize */
    int16_t odd;   /* 2 x the output offset + 1 (the layer's: here for the kernels that read no offset) */
} mcu_channel;

/* One requantization: real multiplier = multiplier * 2^(shift - 31), as everywhere in mcu_nn. */
typedef struct {
    int32_t multiplier;
    int32_t shift;
} mcu_rescale;

#endif /* MCU_NN_TYPES_H */
