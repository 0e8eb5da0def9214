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

/* first, so that a compiler for another core says this before it misses ACLE's header */
#if !defined(__ARM_FEATURE_DSP)
#error "runtime_c/dsp kernels need an Arm core with the DSP extension; export without --board for the reference kernels"
#endif

#include <arm_acle.h>
#include <stddef.h>
#include <string.h>

#include "mcu_nn_support.h"

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

/*
 * INT4 weights in the DSP kernels: a word of eight nibbles holds four values of two channels (or units)
 * c0 and c1, nibble n (bits 4n..4n+3) being (c0 w0, c0 w1, c1 w0, c1 w1, c0 w2, c0 w3, c1 w2, c1 w3)
 * (kernels/layouts.py s4_pairs). SXTB16 of the word's low nibbles moved to the top of their bytes gives c0's
 * (w0, w2) and, rotated by 8, c1's, each times 16 (the nibble at the top of its byte carries the sign);
 * SXTB16 of the word's high nibbles gives (w1, w3) the same way: seven instructions for the four pairs
 * SMLAD takes against an int8 word's SXTB16 halves, a quarter of the flash and loads of int16 weights
 * (the int8 layout's two words take four SXTB16 and a double load). The sums come out
 * times 16, exactly: the kernels take only layers whose sums stay below 2^27 (mcugen checks K), and
 * add the bias after the shift back, as TFLM's int32 sum does.
 */
#define MCU_S4_PAIRS_(t, e0, o0, e1, o1)                   \
    "lsl " e1 ", " t ", #4\n\t"                            \
    "and " e1 ", " e1 ", #0xF0F0F0F0\n\t"                  \
    "and " o1 ", " t ", #0xF0F0F0F0\n\t"                   \
    "sxtb16 " e0 ", " e1 "\n\t"                            \
    "sxtb16 " e1 ", " e1 ", ror #8\n\t"                    \
    "sxtb16 " o0 ", " o1 "\n\t"                            \
    "sxtb16 " o1 ", " o1 ", ror #8\n\t"

/* c0's (w0, w2) and (w1, w3) times 16 from an INT4 word (MCU_S4_PAIRS_'s layout), for the C loops. */
static inline int16x2_t mcu_s4_even(uint32_t t)
{
    return mcu_even_bytes((t << 4) & 0xF0F0F0F0u);
}

static inline int16x2_t mcu_s4_odd(uint32_t t)
{
    return mcu_even_bytes(t & 0xF0F0F0F0u);
}

/* A sum of INT4 products times 16 (mcu_s4_even/odd's, MCU_S4_PAIRS_'s) plus the bias, wrapping as int32. */
static inline int32_t mcu_s4_sum(int32_t bias, int32_t sum16)
{
    return (int32_t)((uint32_t)bias + (uint32_t)(sum16 >> 4));
}

/* acc + sum x[k] * w[k] over n int8 values, a word of each at a time (the last n % 4 one by one). */
static inline int32_t mcu_dot_s8(int32_t acc, const int8_t *x, const int8_t *w, int32_t n)
{
    int32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        const uint32_t v = mcu_load4(x + k), f = mcu_load4(w + k);
        acc = __smlad(mcu_even_bytes(v), mcu_even_bytes(f), acc);
        acc = __smlad(mcu_odd_bytes(v), mcu_odd_bytes(f), acc);
    }
    for (; k < n; ++k) {
        acc += x[k] * w[k];
    }
    return acc;
}

/* acc + a word of four int8 values (unpacked: even, odd) times the word of weights at w. */
static inline int32_t mcu_dot_word(int32_t acc, int16x2_t even, int16x2_t odd, const int8_t *w)
{
    const uint32_t v = mcu_load4(w);
    return __smlad(odd, mcu_odd_bytes(v), __smlad(even, mcu_even_bytes(v), acc));
}

/* Bytes copied a word at a time: unaligned words are allowed on ARMv7-M. */
static inline void mcu_copy_bytes(int8_t *dst, const int8_t *src, int32_t n)
{
    for (; n >= 4; n -= 4, dst += 4, src += 4) {
        const uint32_t v = mcu_load4(src);
        memcpy(dst, &v, sizeof v);
    }
    for (; n > 0; --n) {
        *dst++ = *src++;
    }
}

/* mcu_requantize_fast takes accumulators with |x| below this (mcugen marks the channels that do). */
#define MCU_REQUANTIZE_FAST_BOUND (1 << 30)

/*
 * The requantization of mcu_requantize in four instructions, for the cases a kernel can prove before
 * its loop: a right shift (shift <= -1, r = -shift), an accumulator with |x| < 2^30 and a multiplier
 * m >= 0. The doubling high multiply h = floor((x * m + 2^30) / 2^31) (mcu_srdhm's exact form) is
 * floor((2x * m + 2^31) / 2^32), SMMULR of 2x (2x fits in int32 under the bound), and SMMLAR adds
 * `round` to it on the way. The second rounding is mcu_rdbpot's (h + 2^(r-1) - [h < 0]) >> r, with
 * [x < 0] for [h < 0]: they differ only where x < 0 and h = 0, and there (2^(r-1) - 1) >> r and
 * 2^(r-1) >> r are both 0. `round` is 2^(r-1), plus o << r to have o added to the result (a channel
 * folds its output offset in so: mcu_channel), within |round| < 2^30 so that h + round fits. SMMULR and
 * SMMLAR in assembly: ACLE names neither, and GCC 12.2 makes the same from C's 64-bit product as SMLAL after
 * two or three moves (SMMULR's), or SMLAL, ADDS and ADC (SMMLAR's).
 */
static inline int32_t mcu_requantize_fast(int32_t x, int32_t multiplier, int32_t round, int32_t right)
{
    int32_t v;
    __asm__("smmlar %0, %1, %2, %3" : "=r"(v) : "r"(x * 2), "r"(multiplier), "r"(round));
    return (v + (x >> 31)) >> right;
}

/* mcu_requantize, through the four-instruction form wherever it is exact (a right shift and |x| < 2^30),
 * which is tested per value: for kernels whose accumulators mcugen cannot bound at build time. */
static inline int32_t mcu_requantize_dsp(int32_t x, int32_t multiplier, int32_t shift)
{
    if (shift < 0 && (uint32_t)x + (MCU_REQUANTIZE_FAST_BOUND - 1) < 2u * MCU_REQUANTIZE_FAST_BOUND - 1u) {
        return mcu_requantize_fast(x, multiplier, 1 << (-shift - 1), -shift);
    }
    return mcu_requantize(x, multiplier, shift);
}

/* mcu_requantize for |x| < 2^(30 - max(shift, 0)), which mcugen proves at build time for the layers it
 * gives it: a right shift through mcu_requantize_fast; otherwise the doubling high multiply of x << shift,
 * floor((x * 2^shift * m + 2^30) / 2^31), is SMMULR of x << (shift + 1), which fits under the bound. */
static inline int32_t mcu_requantize_short(int32_t x, int32_t multiplier, int32_t shift)
{
    if (shift < 0) {
        return mcu_requantize_fast(x, multiplier, 1 << (-shift - 1), -shift);
    }
    int32_t high;
    __asm__("smmulr %0, %1, %2" : "=r"(high) : "r"((int32_t)((uint32_t)x << (shift + 1))), "r"(multiplier));
    return high;
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
 * 15 instructions for four clamps and one store instead of 24. In assembly for the BFIs: the same in C, ACLE's
 * __ssub8 and __sel with the lanes masked and ORed in, builds the word in eight instructions where these take
 * three (GCC 12.2 -O2, the M4: no BFI from masks). min4, max4: mcu_all_bytes of the bounds.
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

/* A fast channel's rounding term with its output offset folded in, 2^(r-1) + (offset << r). */
static inline int32_t mcu_channel_round(const mcu_channel *ch)
{
    return (int32_t)((uint32_t)ch->odd << ch->right) >> 1;
}

/* A fast channel's constants as mcu_requantize_fast takes them, worked out of its row once by a kernel
 * that requantizes it many times from a copy in RAM. */
typedef struct {
    int32_t multiplier;
    int32_t round;
    int32_t right;
} mcu_fast_channel;

static inline mcu_fast_channel mcu_fast_channel_of(const mcu_channel *ch)
{
    const mcu_fast_channel q = {ch->multiplier, mcu_channel_round(ch), ch->right};
    return q;
}

/* requantize(acc) + output_offset, before the clamp (mcu_pack4's input): a fast channel's rounding term
 * holds the offset. */
static inline int32_t mcu_channel_value(int32_t acc, const mcu_channel *ch, int fast, int32_t output_offset)
{
    return fast ? mcu_requantize_fast(acc, ch->multiplier, mcu_channel_round(ch), ch->right)
                : mcu_requantize(acc, ch->multiplier, -ch->right) + output_offset;
}

/* clamp(requantize(acc) + output_offset). `fast` is ch->fast: a caller that tests it once, outside
 * its loop, gets each loop compiled with one requantization. */
static inline int8_t mcu_channel_output(int32_t acc, const mcu_channel *ch, int fast, int32_t output_offset,
                                        mcu_activation act)
{
    return mcu_clamp_s8(mcu_channel_value(acc, ch, fast, output_offset), act);
}

#endif
