/*
 * Arithmetic shared by the kernels: TFLM's requantization (gemmlowp double rounding) and the few
 * fixed-point helpers softmax needs. The numpy twin is mcugen/numerics/requant.py; both spell out the same
 * rounding, and tests hold them equal.
 *
 * Signed right shifts of negative values are arithmetic on every compiler mcugen targets (GCC,
 * Clang, arm-none-eabi-gcc), as TFLM and gemmlowp also assume.
 */
#ifndef MCU_NN_SUPPORT_H
#define MCU_NN_SUPPORT_H

#include <stdint.h>
#include <string.h>

#if defined(__ARM_FEATURE_SAT)
#include <arm_acle.h>
#endif

#include "mcu_nn.h"

/* gemmlowp SaturatingRoundingDoublingHighMul: a * b / 2^31, rounded. gemmlowp adds a nudge of 2^30
 * (1 - 2^30 for a negative product) and divides truncating toward zero; for a negative product that
 * equals flooring (ab + 2^30) / 2^31, the same expression as for a positive one, so one add and an
 * arithmetic shift do it (mcugen/numerics/requant.py, step 2'). Only INT32_MIN * INT32_MIN overflows: it
 * saturates. */
static inline int32_t mcu_srdhm(int32_t a, int32_t b)
{
    if (a == b && a == INT32_MIN) {
        return INT32_MAX;
    }
    return (int32_t)(((int64_t)a * (int64_t)b + (1 << 30)) >> 31);
}

/* gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away from zero. gemmlowp
 * rounds up when the dropped bits exceed half, half being 2^(e-1) - 1 for x >= 0 and 2^(e-1) for
 * x < 0; that is flooring (x + 2^(e-1) - [x < 0]) / 2^e (mcugen/numerics/requant.py, step 3'), computed in
 * 64 bits because the sum can pass INT32_MAX. */
static inline int32_t mcu_rdbpot(int32_t x, int32_t exponent)
{
    if (exponent == 0) {
        return x;
    }
    return (int32_t)(((int64_t)x + ((int64_t)1 << (exponent - 1)) - (x < 0)) >> exponent);
}

/* TFLM MultiplyByQuantizedMultiplier: x * multiplier * 2^(shift - 31), rounded twice, for the
 * multipliers QuantizeMultiplier makes (>= 0, so the srdhm never saturates). A positive shift is a
 * left shift that wraps as int32, then the doubling high multiply. Otherwise, with r = -shift, the
 * two roundings are mcu_srdhm then mcu_rdbpot, i.e. floor((floor((p + 2^30) / 2^31) + 2^(r-1)
 * - [h < 0]) / 2^r) for p = x * multiplier, which nests into one floor (floor(floor(a/b)/c) =
 * floor(a/(b*c))): (p + 2^30 + 2^(30+r) - [p < -2^30] * 2^31) >> (31 + r). No term passes 2^62. */
static inline int32_t mcu_requantize(int32_t x, int32_t multiplier, int32_t shift)
{
    if (shift > 0) {
        return mcu_srdhm((int32_t)((uint32_t)x << shift), multiplier);
    }
    const int64_t half = (int64_t)1 << 30;
    const int64_t p = (int64_t)x * multiplier;
    if (shift == 0) {
        return (int32_t)((p + half) >> 31);
    }
    const int64_t nudged = p + half - (p < -half ? 2 * half : 0);
    /* >> (31 + r) as the high word >> (r - 1): r >= 1 here, and a 64-bit shift by a variable costs more */
    return (int32_t)((nudged + ((int64_t)1 << (30 - shift))) >> 32) >> (-shift - 1);
}

/* TFLM MultiplyByQuantizedMultiplier on an int64 accumulator (the 16x8 kernels'): the multiplier
 * rounded to 16 bits (0x7FFF from 0x7FFF0000 up), one rounding shift by 15 - shift; mcugen.ops._int16
 * is the Python twin. The result fits int32 for the accumulators a layer's ranges allow. */
static inline int32_t mcu_requantize64(int64_t x, int32_t multiplier, int32_t shift)
{
    const int64_t reduced = multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF;
    const int32_t total = 15 - shift;
    return (int32_t)((x * reduced + ((int64_t)1 << (total - 1))) >> total);
}

/* The 16x8 kernels' epilogue: an int32 accumulator (an int32 bias) wraps and is requantized as in the
 * int8 kernels, an int64 one by mcu_requantize64. */
static inline int32_t mcu_requantize_wide(int64_t acc, int32_t accumulator_bits, int32_t multiplier, int32_t shift)
{
    if (accumulator_bits == 32) {
        return mcu_requantize((int32_t)(uint32_t)(uint64_t)acc, multiplier, shift);
    }
    return mcu_requantize64(acc, multiplier, shift);
}

/* Element i of a signed integer array of `bits` (8, 16 or 32), for kernels that take several types;
 * mcu_store narrows as a C assignment does. mcu_min_of/mcu_max_of: that type's range. */
static inline int32_t mcu_load(const void *base, int32_t i, int32_t bits)
{
    return bits == 32 ? ((const int32_t *)base)[i] : bits == 16 ? ((const int16_t *)base)[i] : ((const int8_t *)base)[i];
}

static inline void mcu_store(void *base, int32_t i, int32_t bits, int32_t value)
{
    if (bits == 32) {
        ((int32_t *)base)[i] = value;
    } else if (bits == 16) {
        ((int16_t *)base)[i] = (int16_t)value;
    } else {
        ((int8_t *)base)[i] = (int8_t)value;
    }
}

static inline int32_t mcu_min_of(int32_t bits)
{
    return bits == 32 ? INT32_MIN : bits == 16 ? INT16_MIN : INT8_MIN;
}

static inline int32_t mcu_max_of(int32_t bits)
{
    return bits == 32 ? INT32_MAX : bits == 16 ? INT16_MAX : INT8_MAX;
}

static inline int32_t mcu_clz(uint32_t x)
{
    int32_t n = 0;
    while (n < 32 && !(x & 0x80000000u)) {
        x <<= 1;
        ++n;
    }
    return n;
}

/* gemmlowp SaturatingRoundingMultiplyByPOT with a positive exponent: x << exponent, saturated where
 * |x| passes 2^(31 - exponent) - 1. */
static inline int32_t mcu_sat_shl(int32_t x, int32_t exponent)
{
    const int32_t threshold = (int32_t)((1u << (31 - exponent)) - 1u);
    return x > threshold ? INT32_MAX : x < -threshold ? INT32_MIN : (int32_t)((uint32_t)x << exponent);
}

/* TFLM GetInvSqrtQuantizedMultiplierExp(value, kReverseShift): 1 / sqrt(value) as the (multiplier,
 * shift) MultiplyByQuantizedMultiplier takes (0 and 1 give (INT32_MAX, 0)). The value normalised to
 * [2^27, 2^29) by bit pairs, five Newton-Raphson steps x <- 1.5x - (v/2)x^3 in Q3.28, x scaled by
 * sqrt(2)/2 in Q0.31; mcugen/numerics/fixedpoint.py inv_sqrt_multiplier is the Python twin. */
static inline mcu_rescale mcu_inv_sqrt(int32_t value)
{
    mcu_rescale r = {INT32_MAX, 0};
    if (value <= 1) {
        return r;
    }
    int32_t shift = 11;
    while (value >= (1 << 29)) {
        value /= 4;
        ++shift;
    }
    const int32_t pairs = (mcu_clz((uint32_t)value) - 1) / 2 - 1;
    shift -= pairs;
    value <<= 2 * pairs;
    const int32_t half_input = mcu_rdbpot(value >> 1, 1), half_three = (1 << 28) + (1 << 27);
    int32_t x = 1 << 28; /* 1.0 in Q3.28 */
    for (int32_t i = 0; i < 5; ++i) {
        const int32_t x3 = mcu_sat_shl(mcu_srdhm(mcu_srdhm(x, x), x), 6);
        x = mcu_sat_shl((int32_t)((uint32_t)mcu_srdhm(half_three, x) - (uint32_t)mcu_srdhm(half_input, x3)), 3);
    }
    x = mcu_srdhm(x, 1518500250); /* sqrt(2)/2 in Q0.31 */
    if (shift < 0) {
        x = (int32_t)((uint32_t)x << -shift);
        shift = 0;
    }
    r.multiplier = x;
    r.shift = -shift;
    return r;
}

/* Q0.31 x in [0, 1) -> 1 / (1 + x) in Q0.31: gemmlowp's three Newton-Raphson steps on the half
 * denominator in Q2.29, starting from 48/17 - 32/17 * d. */
static inline int32_t mcu_one_over_one_plus_x(int32_t x)
{
    const int64_t sum = (int64_t)x + INT32_MAX;
    const int32_t half_denominator = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
    int32_t r = 1515870810 + mcu_srdhm(half_denominator, -1010580540);
    for (int i = 0; i < 3; ++i) {
        const int32_t one_minus = (1 << 29) - mcu_srdhm(half_denominator, r);
        const int32_t step = mcu_srdhm(r, one_minus);
        /* Rescale Q4 -> Q2: a saturating multiply by 4 */
        r += step > (INT32_MAX >> 2) ? INT32_MAX : step < -(INT32_MAX >> 2) ? INT32_MIN : step * 4;
    }
    /* Q1 -> Q0: saturating doubling */
    return r > (INT32_MAX >> 1) ? INT32_MAX : r < -(INT32_MAX >> 1) ? INT32_MIN : r * 2;
}

static inline int32_t mcu_clamp(int32_t x, mcu_activation act)
{
    return x < act.min ? act.min : x > act.max ? act.max : x;
}

static inline int16_t mcu_clamp_s16(int32_t x, mcu_activation act)
{
    return (int16_t)mcu_clamp(x, act);
}

/* SSAT where the core has it: GCC finds it in the clamp alone, but not once a loop holds the bounds in
 * registers (the LSTM kernels' two compares and moves per value). */
static inline int32_t mcu_sat_s16(int32_t x)
{
#if defined(__ARM_FEATURE_SAT)
    return __ssat(x, 16);
#else
    return x < INT16_MIN ? INT16_MIN : x > INT16_MAX ? INT16_MAX : x;
#endif
}

/* TFLM's int16 LOGISTIC and TANH (reference_integer_ops), Q0.15 out: the input scaled by
 * (x * multiplier + round) >> shift (a multiplier of 0 means 3 << shift and no shift), then
 * TFLM's table of sigmoid(i / 24) in unsigned 0.16 interpolated on |x| (9 fraction bits for the
 * sigmoid, 8 for the tanh, which is 2 sigmoid(2x) - 1) and folded back by the sign. */
static inline int32_t mcu_scale_s16(int32_t x, int32_t multiplier, int32_t shift)
{
    if (multiplier == 0) {
        multiplier = 3 << shift;
        shift = 0;
    }
    /* TFLM's product is int32 and wraps past it (an input scale above 5.3: a multiplier above 65536) */
    const uint32_t scaled = (uint32_t)x * (uint32_t)multiplier + (shift > 0 ? 1u << (shift - 1) : 0u);
    return (int32_t)scaled >> shift;
}

static inline uint32_t mcu_sigmoid_lookup(const int16_t *table, uint32_t magnitude, int32_t fraction_bits)
{
    const uint32_t entry = magnitude >> fraction_bits;
    const uint32_t low = (uint16_t)table[entry], high = (uint16_t)table[entry + 1];
    return (low << fraction_bits) + (magnitude & ((1u << fraction_bits) - 1)) * (high - low);
}

static inline int16_t mcu_sigmoid_s16(const int16_t *table, int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t v = mcu_scale_s16(x, multiplier, shift);
    const uint32_t magnitude = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    uint32_t r = magnitude >> 9 >= 255 ? 0x7FFFu << 10 : mcu_sigmoid_lookup(table, magnitude, 9);
    r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
    return (int16_t)(r >> 10);
}

static inline int16_t mcu_tanh_s16(const int16_t *table, int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t v = mcu_scale_s16(x, multiplier, shift);
    const uint32_t magnitude = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    int32_t r = (int32_t)(magnitude >> 8 >= 255 ? 0xFFFFu << 8 : mcu_sigmoid_lookup(table, magnitude, 8));
    r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    return (int16_t)(r >> 8);
}

static inline int8_t mcu_clamp_s8(int32_t x, mcu_activation act)
{
    if (x < act.min) {
        x = act.min;
    }
    if (x > act.max) {
        x = act.max;
    }
    return (int8_t)x;
}

/* TFLM's ActivationFunctionWithMinMax on a float: std::min(std::max(x, lo), hi), so a NaN passes through. */
/* (int32_t)r as the x86 oracle converts it: toward zero; NaN and values outside int32 give INT32_MIN
 * (cvttss2si), where C leaves the conversion undefined and an Arm core would saturate. */
static inline int32_t mcu_truncate_f32_x86(float r)
{
    return r >= -2147483648.0f && r < 2147483648.0f ? (int32_t)r : INT32_MIN;
}

/* int32(round(r)), half away from zero, as the x86 oracle converts it (mcu_truncate_f32_x86's INT32_MIN). */
static inline int32_t mcu_round_f32_x86(float r)
{
    const int32_t q = mcu_truncate_f32_x86(r);
    if (q == INT32_MIN) { /* outside int32, NaN, or -2^31 itself, which rounds to itself */
        return INT32_MIN;
    }
    const float fraction = r - (float)q;
    return q + (fraction >= 0.5f) - (fraction <= -0.5f);
}

static inline float mcu_clamp_f32(float x, mcu_float_activation act)
{
    x = x < act.min ? act.min : x;
    return act.max < x ? act.max : x;
}

/* TFLM's float LOGISTIC: past 16.619047 the quotient rounds to 1 anyway; below -9, e^x alone. */
static inline float mcu_logistic_f32(float x)
{
    return x > 16.619047164916992188f ? 1.0f : x < -9.0f ? mcu_expf(x) : 1.0f / (1.0f + mcu_expf(-x));
}

/* Advances a little-endian-last index (last axis fastest) over shape[0..rank); returns 0 at the end. */
static inline int mcu_next_index(int32_t rank, const int32_t *shape, int32_t *index)
{
    for (int32_t k = rank - 1; k >= 0; --k) {
        if (++index[k] < shape[k]) {
            return 1;
        }
        index[k] = 0;
    }
    return 0;
}

static inline int32_t mcu_dot_index(int32_t rank, const int32_t *index, const int32_t *stride)
{
    int32_t offset = 0;
    for (int32_t k = 0; k < rank; ++k) {
        offset += index[k] * stride[k];
    }
    return offset;
}

/* One output element of a broadcasting binary op from its two input elements, already in the output
 * type's range. */
typedef int32_t (*mcu_pair_fn)(const void *params, int32_t a, int32_t b);

/* Walks the output of a broadcast (bc, contiguous; int8 or int16 elements) row by row along its last
 * axis, output[i] = element(params, a[i * step_a], b[i * step_b]). The element type is chosen once per
 * row, so each row's loop is typed. Static inline, and `element` should be too: GCC -O2 then inlines
 * the element into both loops (a plain static element stays a call per value: +0.6% on ResNet-8). */
static inline void mcu_broadcast_rows(const mcu_broadcast *bc, const void *input1, const void *input2,
                                      void *output, mcu_pair_fn element, const void *params)
{
    int32_t index[MCU_MAX_DIMS] = {0};
    const int32_t last = bc->rank - 1, n = bc->shape[last], step1 = bc->stride1[last], step2 = bc->stride2[last];
    int32_t at = 0;
    do {
        const int32_t offset1 = mcu_dot_index(last, index, bc->stride1), offset2 = mcu_dot_index(last, index, bc->stride2);
        if (bc->bits == 16) {
            const int16_t *a = (const int16_t *)input1 + offset1, *b = (const int16_t *)input2 + offset2;
            int16_t *out = (int16_t *)output + at;
            for (int32_t i = 0; i < n; ++i) {
                out[i] = (int16_t)element(params, a[i * step1], b[i * step2]);
            }
        } else {
            const int8_t *a = (const int8_t *)input1 + offset1, *b = (const int8_t *)input2 + offset2;
            int8_t *out = (int8_t *)output + at;
            for (int32_t i = 0; i < n; ++i) {
                out[i] = (int8_t)element(params, a[i * step1], b[i * step2]);
            }
        }
        at += n;
    } while (mcu_next_index(last, bc->shape, index));
}

#endif /* MCU_NN_SUPPORT_H */
