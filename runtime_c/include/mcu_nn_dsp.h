/*
 * Helpers of the optimized kernels in runtime_c/dsp/, for cores with the DSP extension (Cortex-M4,
 * M7, M33...). Four int8 values are read as one word; SXTB16 sign-extends bytes 0 and 2 (or, with
 * its rotation, bytes 1 and 3) into a pair of int16; SADD16 adds an offset to both halves; SMLAD
 * multiplies two pairs and adds both products to an accumulator, SMLABB/SMLATT one product.
 * The products and sums are the reference kernels', in another order: int32 addition wraps and is
 * associative, so the results are identical (the tests run both on the same models).
 */
#ifndef MCU_NN_DSP_H
#define MCU_NN_DSP_H

#include <arm_acle.h>
#include <string.h>

#include "mcu_nn_support.h"

#if !defined(__ARM_FEATURE_DSP)
#error "runtime_c/dsp kernels need a core with the DSP extension; boards without it use runtime_c/src"
#endif

/* Four int8 values from any address (memcpy compiles to one LDR: ARMv7-M allows unaligned words). */
static inline uint32_t mcu_load4(const int8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Bytes 0 and 2 of v as two int16. */
static inline int16x2_t mcu_even_bytes(uint32_t v)
{
    return __sxtb16((int8x4_t)v);
}

/* Bytes 1 and 3 of v as two int16: SXTB16 with its built-in rotation, which ACLE has no intrinsic
 * for (GCC would spend a separate ROR on it). */
static inline int16x2_t mcu_odd_bytes(uint32_t v)
{
    int16x2_t pair;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(pair) : "r"(v));
    return pair;
}

/* An int16 value in both halves (offsets are within [-255, 255]). */
static inline int16x2_t mcu_both_halves(int32_t value)
{
    return (int16x2_t)(((uint32_t)value & 0xFFFFu) | ((uint32_t)value << 16));
}

/* mcu_requantize_fast takes accumulators with |x| below this (mcugen marks the channels that do). */
#define MCU_REQUANTIZE_FAST_BOUND (1 << 30)

/*
 * The requantization of mcu_requantize in five instructions, for the cases a kernel can prove
 * before its loop: a right shift (shift <= -1, r = -shift) and an accumulator with |x| < 2^30.
 * The doubling high multiply floor((x * m + 2^30) / 2^31) (mcu_srdhm's exact form) is
 * floor((2x * m + 2^31) / 2^32), which is SMMULR of 2x (2x fits in int32 under the bound); the
 * second rounding is mcu_rdbpot's (h + 2^(r-1) - [h < 0]) >> r, with `round` = 2^(r-1).
 */
static inline int32_t mcu_requantize_fast(int32_t x, int32_t multiplier, int32_t round, int32_t right)
{
    int32_t high;
    __asm__("smmulr %0, %1, %2" : "=r"(high) : "r"(x * 2), "r"(multiplier));
    return (high + round - (int32_t)((uint32_t)high >> 31)) >> right;
}

/* A byte in all four lanes (SIMD bounds for mcu_pack4). */
static inline uint32_t mcu_all_bytes(int32_t value)
{
    return 0x01010101u * (uint8_t)(int8_t)value;
}

/*
 * Four outputs (requantized, output offset added) as one word of int8, each clamped to [min, max]:
 * SSAT saturates a lane to [-128, 127] (within which every activation range lies), BFI packs, then
 * SSUB8 sets a byte's GE flag where it is >= the other operand's and SEL picks bytes by them:
 * 15 instructions for four clamps and one store instead of 24. min4, max4: mcu_all_bytes of the bounds.
 */
static inline uint32_t mcu_pack4(int32_t v0, int32_t v1, int32_t v2, int32_t v3, uint32_t min4, uint32_t max4)
{
    uint32_t word = (uint32_t)__ssat(v0, 8), scratch;
    __asm__("bfi %[w], %[b1], #8, #8\n\t"
            "bfi %[w], %[b2], #16, #8\n\t"
            "bfi %[w], %[b3], #24, #8\n\t"
            "ssub8 %[t], %[w], %[lo]\n\t"
            "sel %[w], %[w], %[lo]\n\t"
            "ssub8 %[t], %[hi], %[w]\n\t"
            "sel %[w], %[w], %[hi]"
            : [w] "+&r"(word), [t] "=&r"(scratch)
            : [b1] "r"(__ssat(v1, 8)), [b2] "r"(__ssat(v2, 8)), [b3] "r"(__ssat(v3, 8)), [lo] "r"(min4),
              [hi] "r"(max4)
            : "cc");
    return word;
}

/* requantize(acc) + output_offset, before the clamp (mcu_pack4's input). */
static inline int32_t mcu_channel_value(int32_t acc, const mcu_channel *ch, int fast, int32_t output_offset)
{
    return (fast ? mcu_requantize_fast(acc, ch->multiplier, ch->round, ch->right)
                 : mcu_requantize(acc, ch->multiplier, ch->shift)) + output_offset;
}

/* clamp(requantize(acc) + output_offset). `fast` is ch->fast: a caller that tests it once, outside
 * its loop, gets each loop compiled with one requantization. */
static inline int8_t mcu_channel_output(int32_t acc, const mcu_channel *ch, int fast, int32_t output_offset,
                                        mcu_activation act)
{
    return mcu_clamp_s8(mcu_channel_value(acc, ch, fast, output_offset), act);
}

#endif
