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
#include <stddef.h>
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

/*
 * INT4 weights in the DSP kernels: a word of eight nibbles holds four values of two channels (or units)
 * c0 and c1, nibble n (bits 4n..4n+3) being (c0 w0, c0 w1, c1 w0, c1 w1, c0 w2, c0 w3, c1 w2, c1 w3)
 * (ops/_conv.py s4_pairs). SXTB16 of the word's low nibbles moved to the top of their bytes gives c0's
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

/* Four values of input against the four units' words: acc[u] += SMLAD pairs. */
#define MCU_FC_FOUR_VALUES_                                     \
    "ldr %[even], [%[x]], #4\n\t"                          \
    "sxtb16 %[odd], %[even], ror #8\n\t"                   \
    "sxtb16 %[even], %[even]\n\t"                          \
    "ldrd %[w01], %[w23], [%[w]], #8\n\t"                  \
    "sxtb16 %[t], %[w01], ror #8\n\t"                      \
    "sxtb16 %[w01], %[w01]\n\t"                            \
    "smlad %[a0], %[even], %[w01], %[a0]\n\t"              \
    "smlad %[a0], %[odd], %[t], %[a0]\n\t"                 \
    "sxtb16 %[t], %[w23], ror #8\n\t"                      \
    "sxtb16 %[w23], %[w23]\n\t"                            \
    "smlad %[a1], %[even], %[w23], %[a1]\n\t"              \
    "smlad %[a1], %[odd], %[t], %[a1]\n\t"                 \
    "ldrd %[w01], %[w23], [%[w]], #8\n\t"                  \
    "sxtb16 %[t], %[w01], ror #8\n\t"                      \
    "sxtb16 %[w01], %[w01]\n\t"                            \
    "smlad %[a2], %[even], %[w01], %[a2]\n\t"              \
    "smlad %[a2], %[odd], %[t], %[a2]\n\t"                 \
    "sxtb16 %[t], %[w23], ror #8\n\t"                      \
    "sxtb16 %[w23], %[w23]\n\t"                            \
    "smlad %[a3], %[even], %[w23], %[a3]\n\t"              \
    "smlad %[a3], %[odd], %[t], %[a3]\n\t"

/*
 * Four units' dot products with x over 4 * whole int8 values, added to the int32 lvalues a0..a3: the
 * filter in the order ops/fully_connected.py interleave4 lays it out (per four values, the four units'
 * words one after the other), read from the pointer lvalue w on, which is left past them. The input
 * offset is folded into the caller's bias, so input words are only unpacked. Per four values: one load
 * and two SXTB16 of input, two double loads and six SXTB16 of filter, eight SMLAD (16 MACs). In
 * assembly for the pair loads (LDRD), which GCC splits under this register pressure; two blocks of four
 * values per turn (an odd one first). A statement macro, so that the sums and the pointer stay the
 * caller's registers (through pointers, GCC keeps them in memory around the loop).
 */
/* The FC loops' turns (MCU_DOT4, MCU_DOT4_W16): `four` (four values against the four units) once where
 * the count of four-value blocks, (end - x) / 4, is odd, then twice a turn. */
#define MCU_DOT4_TURNS_(four)                             \
    "sub %[even], %[end], %[x]\n\t"                       \
    "tst %[even], #4\n\t"                                 \
    "beq 2f\n\t" four "2:\n\t"                            \
    "cmp %[x], %[end]\n\t"                                \
    "beq 3f\n\t"                                          \
    "1:\n\t" four four "cmp %[x], %[end]\n\t"              \
    "bne 1b\n\t"                                          \
    "3:"

#define MCU_DOT4(x_, whole_, w_, a0_, a1_, a2_, a3_)                                                      \
    do {                                                                                                  \
        const int8_t *mcu_x_ = (x_), *const mcu_end_ = mcu_x_ + 4 * (whole_);                            \
        uint32_t mcu_even_, mcu_odd_, mcu_w01_, mcu_w23_, mcu_t_;                                         \
        __asm__ volatile(MCU_DOT4_TURNS_(MCU_FC_FOUR_VALUES_)                                             \
                         : [a0] "+r"(a0_), [a1] "+r"(a1_), [a2] "+r"(a2_), [a3] "+r"(a3_), [x] "+r"(mcu_x_),    \
                           [w] "+r"(w_), [even] "=&r"(mcu_even_), [odd] "=&r"(mcu_odd_), [w01] "=&r"(mcu_w01_), \
                           [w23] "=&r"(mcu_w23_), [t] "=&r"(mcu_t_)                                        \
                         : [end] "r"(mcu_end_)                                                            \
                         : "cc", "memory");                                                               \
    } while (0)

/* Four values of input against the four units' int16 weights (two LDM of four words). */
#define MCU_FC16_FOUR_VALUES_                                   \
    "ldr %[even], [%[x]], #4\n\t"                          \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                  \
    "sxtb16 %[odd], %[even], ror #8\n\t"                   \
    "sxtb16 %[even], %[even]\n\t"                          \
    "smlad %[a0], %[even], r8, %[a0]\n\t"                  \
    "smlad %[a0], %[odd], r9, %[a0]\n\t"                   \
    "smlad %[a1], %[even], r10, %[a1]\n\t"                 \
    "smlad %[a1], %[odd], r11, %[a1]\n\t"                  \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                  \
    "smlad %[a2], %[even], r8, %[a2]\n\t"                  \
    "smlad %[a2], %[odd], r9, %[a2]\n\t"                   \
    "smlad %[a3], %[even], r10, %[a3]\n\t"                 \
    "smlad %[a3], %[odd], r11, %[a3]\n\t"

/*
 * MCU_DOT4 on weights widened to int16 at build time (ops/fully_connected.py widen4: per four values,
 * each unit's pairs (w0, w2) and (w1, w3), the pairs SXTB16 makes of the input word), at w_, a word-
 * aligned int16 pointer lvalue left past them. Per four values: one load and two SXTB16 of input, two
 * LDM of four words, eight SMLAD: 13 instructions and 22 cycles on the M4 for 16 MACs where the int8
 * layout takes 21 and 26 (the SXTB16 of the weights leave the loop, an LDM of four words costs 5
 * cycles where two LDRD cost 6), for twice the weights' flash. LDM names its registers in ascending
 * order, so the weights go to fixed ones (r8-r11, clobbered). Two blocks of four values per turn (an
 * odd one first).
 */
#define MCU_DOT4_W16(x_, whole_, w_, a0_, a1_, a2_, a3_)                                                  \
    do {                                                                                                  \
        const int8_t *mcu_x_ = (x_), *const mcu_end_ = mcu_x_ + 4 * (whole_);                            \
        uint32_t mcu_even_, mcu_odd_;                                                                     \
        __asm__ volatile(MCU_DOT4_TURNS_(MCU_FC16_FOUR_VALUES_)                                           \
                         : [a0] "+r"(a0_), [a1] "+r"(a1_), [a2] "+r"(a2_), [a3] "+r"(a3_), [x] "+r"(mcu_x_),    \
                           [w] "+r"(w_), [even] "=&r"(mcu_even_), [odd] "=&r"(mcu_odd_)                   \
                         : [end] "r"(mcu_end_)                                                            \
                         : "r8", "r9", "r10", "r11", "cc", "memory");                                     \
    } while (0)

/* Four values of input against the four units' INT4 words (two: units 0 and 1, then 2 and 3). */
#define MCU_FC4_FOUR_VALUES_                                                   \
    "ldr %[even], [%[x]], #4\n\t"                                            \
    "ldr %[o1], [%[w]], #4\n\t"                                              \
    "sxtb16 %[odd], %[even], ror #8\n\t"                                     \
    "sxtb16 %[even], %[even]\n\t" MCU_S4_PAIRS_("%[o1]", "%[e0]", "%[o0]", "%[e1]", "%[o1]") \
    "smlad %[a0], %[even], %[e0], %[a0]\n\t"                                 \
    "smlad %[a0], %[odd], %[o0], %[a0]\n\t"                                  \
    "smlad %[a1], %[even], %[e1], %[a1]\n\t"                                 \
    "smlad %[a1], %[odd], %[o1], %[a1]\n\t"                                  \
    "ldr %[o1], [%[w]], #4\n\t" MCU_S4_PAIRS_("%[o1]", "%[e0]", "%[o0]", "%[e1]", "%[o1]") \
    "smlad %[a2], %[even], %[e0], %[a2]\n\t"                                 \
    "smlad %[a2], %[odd], %[o0], %[a2]\n\t"                                  \
    "smlad %[a3], %[even], %[e1], %[a3]\n\t"                                 \
    "smlad %[a3], %[odd], %[o1], %[a3]\n\t"

/* MCU_DOT4 on INT4 weights (ops/_conv.py s4_pairs of each group of four units, per four values the words
 * of units 0-1 and 2-3): the sums times 16 (MCU_S4_PAIRS_). Per four values: 2 + 2 loads, 16 ALU
 * instructions, 8 SMLAD; a quarter of the int16 layout's flash. */
#define MCU_DOT4_S4(x_, whole_, w_, a0_, a1_, a2_, a3_)                                                   \
    do {                                                                                                  \
        const int8_t *mcu_x_ = (x_), *const mcu_end_ = mcu_x_ + 4 * (whole_);                            \
        uint32_t mcu_even_, mcu_odd_, mcu_e0_, mcu_o0_, mcu_e1_, mcu_o1_;                                 \
        __asm__ volatile(MCU_DOT4_TURNS_(MCU_FC4_FOUR_VALUES_)                                            \
                         : [a0] "+r"(a0_), [a1] "+r"(a1_), [a2] "+r"(a2_), [a3] "+r"(a3_), [x] "+r"(mcu_x_),    \
                           [w] "+r"(w_), [even] "=&r"(mcu_even_), [odd] "=&r"(mcu_odd_), [e0] "=&r"(mcu_e0_),  \
                           [o0] "=&r"(mcu_o0_), [e1] "=&r"(mcu_e1_), [o1] "=&r"(mcu_o1_)                   \
                         : [end] "r"(mcu_end_)                                                            \
                         : "cc", "memory");                                                               \
    } while (0)

/* MCU_DOT4_W16 for a row's last depth % 4 values (zero-filled, unpacked: even_, odd_). */
#define MCU_DOT4_W16_LAST(even_, odd_, w_, a0_, a1_, a2_, a3_)                                     \
    do {                                                                                            \
        const int16x2_t *mcu_p_ = (const int16x2_t *)(const void *)(w_);                            \
        (a0_) = __smlad((odd_), mcu_p_[1], __smlad((even_), mcu_p_[0], (a0_)));                      \
        (a1_) = __smlad((odd_), mcu_p_[3], __smlad((even_), mcu_p_[2], (a1_)));                      \
        (a2_) = __smlad((odd_), mcu_p_[5], __smlad((even_), mcu_p_[4], (a2_)));                      \
        (a3_) = __smlad((odd_), mcu_p_[7], __smlad((even_), mcu_p_[6], (a3_)));                      \
        (w_) += 16;                                                                                 \
    } while (0)

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

/* MCU_DOT4 for a row's last depth % 4 values (zero-filled, unpacked: even_, odd_): the four units'
 * words at w_, which is left past them. */
#define MCU_DOT4_LAST(even_, odd_, w_, a0_, a1_, a2_, a3_)          \
    do {                                                            \
        (a0_) = mcu_dot_word((a0_), (even_), (odd_), (w_));          \
        (a1_) = mcu_dot_word((a1_), (even_), (odd_), (w_) + 4);      \
        (a2_) = mcu_dot_word((a2_), (even_), (odd_), (w_) + 8);      \
        (a3_) = mcu_dot_word((a3_), (even_), (odd_), (w_) + 12);     \
        (w_) += 16;                                                 \
    } while (0)

/* Four units' sums over the `depth` values of x (added to *a0..*a3): whole words on MCU_DOT4 (`wide` 0:
 * interleave4's int8 layout), MCU_DOT4_W16 (1: widen4's int16 pairs) or MCU_DOT4_S4 (2: INT4, the sums
 * times 16), the last depth % 4 through a zero-filled word; *w is left past them. */
static inline __attribute__((always_inline)) void mcu_dot4_row_of(const int8_t *x, int32_t depth, const void **w,
                                                                 int wide, int32_t *a0, int32_t *a1, int32_t *a2,
                                                                 int32_t *a3)
{
    const int8_t *p8 = (const int8_t *)*w;
    const int16_t *p16 = (const int16_t *)*w;
    int32_t s0 = *a0, s1 = *a1, s2 = *a2, s3 = *a3;
    if (wide == 2) {
        MCU_DOT4_S4(x, depth / 4, p8, s0, s1, s2, s3);
    } else if (wide) {
        MCU_DOT4_W16(x, depth / 4, p16, s0, s1, s2, s3);
    } else {
        MCU_DOT4(x, depth / 4, p8, s0, s1, s2, s3);
    }
    if (depth % 4 != 0) {
        uint32_t last = 0;
        memcpy(&last, x + depth / 4 * 4, (size_t)(depth % 4));
        const int16x2_t even = mcu_even_bytes(last), odd = mcu_odd_bytes(last);
        if (wide == 2) {
            const uint32_t t01 = mcu_load4(p8), t23 = mcu_load4(p8 + 4);
            s0 = __smlad(odd, mcu_s4_odd(t01), __smlad(even, mcu_s4_even(t01), s0));
            s1 = __smlad(odd, mcu_odd_bytes(t01 & 0xF0F0F0F0u), __smlad(even, mcu_odd_bytes((t01 << 4) & 0xF0F0F0F0u), s1));
            s2 = __smlad(odd, mcu_s4_odd(t23), __smlad(even, mcu_s4_even(t23), s2));
            s3 = __smlad(odd, mcu_odd_bytes(t23 & 0xF0F0F0F0u), __smlad(even, mcu_odd_bytes((t23 << 4) & 0xF0F0F0F0u), s3));
            p8 += 8;
        } else if (wide) {
            MCU_DOT4_W16_LAST(even, odd, p16, s0, s1, s2, s3);
        } else {
            MCU_DOT4_LAST(even, odd, p8, s0, s1, s2, s3);
        }
    }
    *w = wide == 1 ? (const void *)p16 : (const void *)p8;
    *a0 = s0, *a1 = s1, *a2 = s2, *a3 = s3;
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

/*
 * The patch of a conv's output position whose window starts at (y0, x0): its KH x KW x Cin values
 * of `size` bytes each (1: int8, 2: int16), in-image rows copied a word at a time, out-of-image taps
 * and the values up to k8 filled with the byte `fill` (-input_offset for int8; 0 for int16).
 */
static inline void mcu_gather_patch(const mcu_conv_params *conv, const mcu_dims *input_dims, const void *image,
                                    const mcu_dims *filter_dims, int32_t y0, int32_t x0, int32_t k8, int32_t size,
                                    int8_t fill, int8_t *patch)
{
    const int8_t *bytes = (const int8_t *)image;
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c * size;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w, row = k_w * in_c;
    const int32_t dil_h = conv->dilation.h, dil_w = conv->dilation.w;
    const int whole_rows = dil_w == 1 && x0 >= 0 && x0 + k_w <= in_w;
    for (int32_t ky = 0; ky < k_h; ++ky) {
        const int32_t iy = y0 + ky * dil_h;
        int8_t *dst = patch + ky * row;
        if (iy < 0 || iy >= in_h) {
            memset(dst, fill, (size_t)row);
        } else if (whole_rows) {
            mcu_copy_bytes(dst, bytes + (iy * in_w + x0) * in_c, row);
        } else {
            for (int32_t kx = 0; kx < k_w; ++kx, dst += in_c) {
                const int32_t ix = x0 + kx * dil_w;
                if (ix >= 0 && ix < in_w) {
                    mcu_copy_bytes(dst, bytes + (iy * in_w + ix) * in_c, in_c);
                } else {
                    memset(dst, fill, (size_t)in_c);
                }
            }
        }
    }
    memset(patch + k_h * row, fill, (size_t)(k8 * size - k_h * row));
}

/* Whether a conv reads its patches straight from the image: a 1x1 kernel without padding (padding.h < 0:
 * a strip further down an unpadded image, mcu_conv2d_rows_s8_x6) whose channels fill whole groups of 8. */
static inline int mcu_conv_direct(const mcu_conv_params *conv, const mcu_dims *filter_dims, int32_t in_c)
{
    return filter_dims->h == 1 && filter_dims->w == 1 && conv->padding.h <= 0 && conv->padding.w == 0 && in_c % 8 == 0;
}

/* An output position as (image, row, column), walked one position at a time: the DSP convs' blocks take
 * consecutive positions, and three divisions per position cost more than the step. */
typedef struct {
    int32_t b, y, x;
} mcu_position;

static inline void mcu_position_next(mcu_position *at, const mcu_dims *output_dims)
{
    if (++at->x == output_dims->w) {
        at->x = 0;
        if (++at->y == output_dims->h) {
            at->y = 0;
            ++at->b;
        }
    }
}

/* Output position `at`'s patch of K8 values of `size` bytes: in the image itself when `direct`, else
 * gathered into `patch` (mcu_gather_patch, `fill` past the image). */
static inline const void *mcu_patch_of(const mcu_conv_params *conv, const mcu_dims *input_dims, const void *input,
                                       const mcu_dims *filter_dims, mcu_position at, int32_t k8, int32_t size,
                                       int8_t fill, int direct, int8_t *patch)
{
    const int32_t image_bytes = input_dims->h * input_dims->w * input_dims->c * size;
    const int8_t *image = (const int8_t *)input + at.b * image_bytes;
    const int32_t y0 = at.y * conv->stride.h - conv->padding.h, x0 = at.x * conv->stride.w - conv->padding.w;
    if (direct) {
        return image + (y0 * input_dims->w + x0) * input_dims->c * size;
    }
    mcu_gather_patch(conv, input_dims, image, filter_dims, y0, x0, k8, size, fill, patch);
    return patch;
}

/* Positions a register-blocked conv pass covers (MCU_SUMS_2X3): half of MCU_CONV_BLOCK. */
#define MCU_HALF_BLOCK 3

/* One position's sums of a channel pair: a double load of its widened inputs (lo, hi) from x, each
 * against c0's weight pairs (e0, o0) and c1's (e1, o1); the operands spelled as the assembly around it
 * names them (extended assembly's %[names], or registers). */
#define MCU_POSITION_AT_(x, lo, hi, a0, a1, e0, o0, e1, o1) \
    "ldrd " lo ", " hi ", [" x "], #8\n\t"                  \
    "smlad " a0 ", " lo ", " e0 ", " a0 "\n\t"              \
    "smlad " a0 ", " hi ", " o0 ", " a0 "\n\t"              \
    "smlad " a1 ", " lo ", " e1 ", " a1 "\n\t"              \
    "smlad " a1 ", " hi ", " o1 ", " a1 "\n\t"

#define MCU_POSITION_(a0, a1, e0, o0, e1, o1) \
    MCU_POSITION_AT_("%[x]", "%[lo]", "%[hi]", "%[" a0 "]", "%[" a1 "]", e0, o0, e1, o1)

#define MCU_POSITIONS_(e0, o0, e1, o1)                                                        \
    MCU_POSITION_("p0c0", "p0c1", e0, o0, e1, o1) MCU_POSITION_("p1c0", "p1c1", e0, o0, e1, o1) \
    MCU_POSITION_("p2c0", "p2c1", e0, o0, e1, o1)

#define MCU_FOUR_VALUES_                                   \
    "ldrd %[e0], %[e1], [%[w]], #8\n\t"                    \
    "sxtb16 %[o0], %[e0], ror #8\n\t"                      \
    "sxtb16 %[e0], %[e0]\n\t"                              \
    "sxtb16 %[o1], %[e1], ror #8\n\t"                      \
    "sxtb16 %[e1], %[e1]\n\t"                              \
    MCU_POSITIONS_("%[e0]", "%[o0]", "%[e1]", "%[o1]")

#define MCU_FOUR_VALUES_W16_                               \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                  \
    MCU_POSITIONS_("r8", "r9", "r10", "r11")

/*
 * The register-blocked conv loop: the sums of two output channels (c0, c1) at three positions (p0..p2),
 * added to the int32 lvalues pNcM_, over cols_..end_. cols: per four values, each position's two words
 * of int16 pairs (x0, x2) and (x1, x3) for int8 inputs widened by SXTB16 (or (x0, x1), (x2, x3) for
 * int16 inputs); w_: per four values, a word of c0's weights then one of c1's, bytes in the order that
 * SXTB16 (then its rotation by 8) pairs with those words. Eight values per pass: (end - cols) is a
 * multiple of 48 bytes. Per four values: a double load of weights and 4 SXTB16, 3 double loads of
 * inputs, 12 SMLAD (24 MACs). In assembly because GCC splits the pair loads (LDRD) and spills under
 * this register pressure: all 14 allocatable registers are live, so the loop's end (end_, an lvalue) is
 * read from the stack. A statement macro, so that the sums stay the caller's registers.
 */
#define MCU_SUMS_2X3(cols_, end_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_) \
    MCU_SUMS_2X3_OF_(MCU_FOUR_VALUES_, cols_, end_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_)

/* MCU_SUMS_2X3's loop around `four`, the assembly of four values (MCU_FOUR_VALUES_, MCU_FOUR_VALUES_S4_). */
#define MCU_SUMS_2X3_OF_(four, cols_, end_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_)                   \
    do {                                                                                                 \
        const uint32_t *mcu_x_ = (cols_);                                                                \
        const int8_t *mcu_w_ = (w_);                                                                     \
        uint32_t mcu_e0_, mcu_o0_, mcu_e1_, mcu_o1_, mcu_lo_, mcu_hi_;                                   \
        __asm__ volatile("1:\n\t" four four "ldr %[lo], %[end]\n\t"                                       \
                         "cmp %[x], %[lo]\n\t"                                                           \
                         "bne 1b"                                                                        \
                         : [p0c0] "+r"(p0c0_), [p1c0] "+r"(p1c0_), [p2c0] "+r"(p2c0_), [p0c1] "+r"(p0c1_), \
                           [p1c1] "+r"(p1c1_), [p2c1] "+r"(p2c1_), [x] "+r"(mcu_x_), [w] "+r"(mcu_w_),    \
                           [e0] "=&r"(mcu_e0_), [o0] "=&r"(mcu_o0_), [e1] "=&r"(mcu_e1_), [o1] "=&r"(mcu_o1_), \
                           [lo] "=&r"(mcu_lo_), [hi] "=&r"(mcu_hi_)                                      \
                         : [end] "m"(end_)                                                               \
                         : "cc", "memory");                                                              \
    } while (0)

/*
 * MCU_SUMS_2X3 on weights widened to int16 at build time (ops/_conv.py w16_filter): per four values, c0's
 * pairs (w0, w2), (w1, w3) then c1's, which one LDM of four words loads (5 cycles on the M4, where a
 * double load and 4 SXTB16 take 7): 16 instructions per 24 MACs instead of 20, for twice the filter's
 * flash. Sixteen values per pass of the loop (an odd eight first), which halves the loop's 6 cycles per
 * 48 MACs. LDM names its registers in ascending order, so the weights go to fixed ones (r8-r11,
 * clobbered); the other ten are the compiler's, and the loop's end and parity of eights (odd_: the
 * caller's, set once per half-block, not per pass) are read from the stack.
 */
#define MCU_SUMS_2X3_W16(cols_, end_, odd_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_)                \
    do {                                                                                                 \
        const uint32_t *mcu_x_ = (cols_);                                                                \
        const int16_t *mcu_w_ = (w_);                                                                    \
        uint32_t mcu_lo_, mcu_hi_;                                                                       \
        __asm__ volatile("ldr %[lo], %[odd]\n\t"                                                          \
                         "cmp %[lo], #0\n\t"                                                             \
                         "beq 2f\n\t" MCU_FOUR_VALUES_W16_ MCU_FOUR_VALUES_W16_ "2:\n\t"                 \
                         "ldr %[lo], %[end]\n\t"                                                         \
                         "cmp %[x], %[lo]\n\t"                                                           \
                         "beq 3f\n\t"                                                                    \
                         "1:\n\t" MCU_FOUR_VALUES_W16_ MCU_FOUR_VALUES_W16_ MCU_FOUR_VALUES_W16_           \
                         MCU_FOUR_VALUES_W16_ "ldr %[lo], %[end]\n\t"                                     \
                         "cmp %[x], %[lo]\n\t"                                                           \
                         "bne 1b\n\t"                                                                    \
                         "3:"                                                                            \
                         : [p0c0] "+r"(p0c0_), [p1c0] "+r"(p1c0_), [p2c0] "+r"(p2c0_), [p0c1] "+r"(p0c1_), \
                           [p1c1] "+r"(p1c1_), [p2c1] "+r"(p2c1_), [x] "+r"(mcu_x_), [w] "+r"(mcu_w_),    \
                           [lo] "=&r"(mcu_lo_), [hi] "=&r"(mcu_hi_)                                      \
                         : [end] "m"(end_), [odd] "m"(odd_)                                               \
                         : "r8", "r9", "r10", "r11", "cc", "memory");                                    \
    } while (0)

#define MCU_FOUR_VALUES_S4_                                                            \
    "ldr %[o1], [%[w]], #4\n\t" MCU_S4_PAIRS_("%[o1]", "%[e0]", "%[o0]", "%[e1]", "%[o1]") \
    MCU_POSITIONS_("%[e0]", "%[o0]", "%[e1]", "%[o1]")

/* MCU_SUMS_2X3 on INT4 weights (per four values, the pair's word: MCU_S4_PAIRS_), the sums times 16:
 * per four values a load and 7 instructions make the four weight pairs where the int8 layout's double
 * load and 4 SXTB16 do, for half its flash. */
#define MCU_SUMS_2X3_S4(cols_, end_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_) \
    MCU_SUMS_2X3_OF_(MCU_FOUR_VALUES_S4_, cols_, end_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_)

/* The sums of one channel at three positions over cols..end (MCU_SUMS_2X3's layout), its weights alone:
 * an odd channel count's last. Per four values, `wide` 0: a word of int8 weights; 1: the pairs (w0, w2),
 * (w1, w3) widened to int16; 2: its pair's INT4 word (c1's nibbles zero), the sums times 16. */
static inline void mcu_sums_1x3(const uint32_t *cols, const uint32_t *end, const void *weights, int wide,
                                int32_t *s0, int32_t *s1, int32_t *s2)
{
    int32_t a0 = *s0, a1 = *s1, a2 = *s2;
    const int8_t *w = (const int8_t *)weights;
    for (const uint32_t *x = cols; x < end; x += 2 * MCU_HALF_BLOCK, w += wide == 1 ? 8 : 4) {
        int16x2_t even, odd;
        if (wide == 1) {
            memcpy(&even, w, sizeof even);
            memcpy(&odd, w + 4, sizeof odd);
        } else {
            const uint32_t v = mcu_load4(w);
            even = wide == 2 ? mcu_s4_even(v) : mcu_even_bytes(v);
            odd = wide == 2 ? mcu_s4_odd(v) : mcu_odd_bytes(v);
        }
        a0 = __smlad((int16x2_t)x[1], odd, __smlad((int16x2_t)x[0], even, a0));
        a1 = __smlad((int16x2_t)x[3], odd, __smlad((int16x2_t)x[2], even, a1));
        a2 = __smlad((int16x2_t)x[5], odd, __smlad((int16x2_t)x[4], even, a2));
    }
    *s0 = a0;
    *s1 = a1;
    *s2 = a2;
}

/* An int16 value in both halves (offsets are within [-255, 255]). */
static inline int16x2_t mcu_both_halves(int32_t value)
{
    return (int16x2_t)(((uint32_t)value & 0xFFFFu) | ((uint32_t)value << 16));
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
 * folds its output offset in so: mcu_channel), within |round| < 2^30 so that h + round fits.
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

/* requantize(acc) + output_offset, before the clamp (mcu_pack4's input): a fast channel's round holds
 * the offset. */
static inline int32_t mcu_channel_value(int32_t acc, const mcu_channel *ch, int fast, int32_t output_offset)
{
    return fast ? mcu_requantize_fast(acc, ch->multiplier, ch->round, ch->right)
                : mcu_requantize(acc, ch->multiplier, ch->shift) + output_offset;
}

/* clamp(requantize(acc) + output_offset). `fast` is ch->fast: a caller that tests it once, outside
 * its loop, gets each loop compiled with one requantization. */
static inline int8_t mcu_channel_output(int32_t acc, const mcu_channel *ch, int fast, int32_t output_offset,
                                        mcu_activation act)
{
    return mcu_clamp_s8(mcu_channel_value(acc, ch, fast, output_offset), act);
}

/* The FC kernels' share of a filter offset in every unit's sum of a row: wo * sum (x + xo), taken out
 * of their loops since sum (x + xo)(w + wo) = sum (x + xo) w + wo * sum (x + xo); 0 without one. */
static inline int32_t mcu_fc_offset_share(const mcu_fc_params *fc, const int8_t *input, int32_t depth)
{
    int32_t sum = 0;
    if (fc->filter_offset != 0) {
        for (int32_t d = 0; d < depth; ++d) {
            sum += input[d] + fc->input_offset;
        }
    }
    return sum * fc->filter_offset;
}

/* The FC kernels' outputs o..o+3 (those below `units`) from their sums: one word when all four exist. */
static inline void mcu_fc_store4(int32_t a0, int32_t a1, int32_t a2, int32_t a3, const mcu_channel *ch, int32_t left,
                                 int32_t output_offset, mcu_activation act, int8_t *output)
{
    if (left >= 4) {
        const uint32_t word = mcu_pack4(mcu_channel_value(a0, &ch[0], ch[0].fast, output_offset),
                                        mcu_channel_value(a1, &ch[1], ch[1].fast, output_offset),
                                        mcu_channel_value(a2, &ch[2], ch[2].fast, output_offset),
                                        mcu_channel_value(a3, &ch[3], ch[3].fast, output_offset),
                                        mcu_all_bytes(act.min), mcu_all_bytes(act.max));
        memcpy(output, &word, sizeof word);
        return;
    }
    const int32_t a[3] = {a0, a1, a2};
    for (int32_t u = 0; u < left; ++u) {
        output[u] = mcu_channel_output(a[u], &ch[u], ch[u].fast, output_offset, act);
    }
}

/*
 * The DSP FULLY_CONNECTED kernels (mcu_fully_connected_s8_x4; mcu_fully_connected_s8_w16, `wide` 1;
 * mcu_fully_connected_s4_x4, `wide` 2): the
 * results of src/mcu_fully_connected_s8.c, units four at a time on mcu_dot4_row_of's loop (the input
 * offset in the bias, input_offset * sum(w) added at build time, so input words are only unpacked), a
 * filter offset taken out of the loop (mcu_fc_offset_share).
 */
static inline __attribute__((always_inline)) void mcu_fully_connected_dsp(
    const mcu_fc_params *fc, const mcu_channel *channels, const mcu_dims *input_dims, const int8_t *input,
    const void *filter, const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output, int wide)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t n = 0; n < input_dims->n; ++n, input += depth, output += units) {
        const int32_t offset_share = mcu_fc_offset_share(fc, input, depth);
        const void *w = filter;
        for (int32_t o = 0; o < units; o += 4) {
            /* scalars, not an array: GCC keeps them in registers from the bias to the store */
            int32_t a0 = bias_folded[o] + offset_share, a1 = bias_folded[o + 1] + offset_share,
                    a2 = bias_folded[o + 2] + offset_share, a3 = bias_folded[o + 3] + offset_share;
            if (wide == 2) {  /* INT4 sums come times 16: the bias joins them after */
                int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                mcu_dot4_row_of(input, depth, &w, wide, &s0, &s1, &s2, &s3);
                a0 = mcu_s4_sum(a0, s0), a1 = mcu_s4_sum(a1, s1), a2 = mcu_s4_sum(a2, s2), a3 = mcu_s4_sum(a3, s3);
            } else {
                mcu_dot4_row_of(input, depth, &w, wide, &a0, &a1, &a2, &a3);
            }
            mcu_fc_store4(a0, a1, a2, a3, &channels[o], units - o, fc->output_offset, fc->activation, output + o);
        }
    }
}

/*
 * The 3x3 stride-1 depthwise kernels that go a channel at a time (mcu_depthwise_conv2d_s8_x2, _s16_x2):
 * the channel's window as int16 pairs, then two outputs per load of each window row.
 *
 * Outputs (pad columns included) per pass of mcu_dw3_sums: the size of the int32 part of their scratch,
 * less the pair it may add.
 */
#define MCU_DW3_CHUNK 508

/* Two int16 as one word, the first in the low half. */
static inline uint32_t mcu_pack2(int32_t lo, int32_t hi)
{
    __asm__("pkhbt %0, %0, %1, lsl #16" : "+r"(lo) : "r"(hi));
    return (uint32_t)lo;
}

/* The channel's window, a word (two columns) at a time: its rows from the image (values of `size` bytes,
 * 1 or 2, the channel's c apart), `fill` where a tap falls outside it. A 3x3 stride-1 window pads at
 * most one column on the left (SAME), so a row is: the pad and the first pixel as one word, or none;
 * pairs of pixels; the last pixel and a pad; pads up to the stride. `size` is a constant where this
 * is inlined. */
static inline __attribute__((always_inline)) void mcu_dw3_fill(const mcu_dims *input_dims, const void *input,
                                                              int32_t size, mcu_tile padding, int32_t fill,
                                                              int32_t rows, int32_t stride, uint32_t *window)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, c = input_dims->c * size, left = padding.w;
    const uint32_t fill2 = mcu_pack2(fill, fill);
    uint32_t *const end = window + rows * stride / 2;
#define MCU_DW3_AT(p) (size == 1 ? (int32_t) * (const int8_t *)(p) : (int32_t) * (const int16_t *)(const void *)(p))
    for (int32_t iy = -padding.h; window < end; ++iy) {
        uint32_t *const row_end = window + stride / 2;
        if (iy >= 0 && iy < in_h) {
            const int8_t *src = (const int8_t *)input + iy * in_w * c;
            int32_t n = in_w;
            if (left) {
                *window++ = mcu_pack2(fill, MCU_DW3_AT(src));
                src += c;
                --n;
            }
            for (; n >= 2; n -= 2, src += 2 * c) {
                *window++ = mcu_pack2(MCU_DW3_AT(src), MCU_DW3_AT(src + c));
            }
            if (n) {
                *window++ = mcu_pack2(MCU_DW3_AT(src), fill);
            }
        }
        while (window < row_end) {
            *window++ = fill2;
        }
    }
#undef MCU_DW3_AT
}

/* One pair of outputs of mcu_dw3_sums: three window rows' words against their weight pairs, both sums stored. */
#define MCU_DW3_PAIR_ \
    "ldr %[d1], [%[x0], #4]\n\t" \
    "ldr %[d0], [%[x0]], #4\n\t" \
    "smuad %[a], %[d0], %[w0]\n\t" \
    "smultb %[b], %[d0], %[w0]\n\t" \
    "smlabt %[a], %[d1], %[w1], %[a]\n\t" \
    "smlad %[b], %[d1], %[w1], %[b]\n\t" \
    "ldr %[d1], [%[x1], #4]\n\t" \
    "ldr %[d0], [%[x1]], #4\n\t" \
    "smlad %[a], %[d0], %[w2], %[a]\n\t" \
    "smlatb %[b], %[d0], %[w2], %[b]\n\t" \
    "smlabt %[a], %[d1], %[w3], %[a]\n\t" \
    "smlad %[b], %[d1], %[w3], %[b]\n\t" \
    "ldr %[d1], [%[x2], #4]\n\t" \
    "ldr %[d0], [%[x2]], #4\n\t" \
    "smlad %[a], %[d0], %[w4], %[a]\n\t" \
    "smlatb %[b], %[d0], %[w4], %[b]\n\t" \
    "smlabt %[a], %[d1], %[w5], %[a]\n\t" \
    "smlad %[b], %[d1], %[w5], %[b]\n\t" \
    "strd %[a], %[b], [%[acc]], #8\n\t"

/* The sums of `pairs` (rounded up to even) pairs of outputs whose windows start at x, x + 2, ... in the
 * window rows at x, x + rs and x + 2 rs (rs in bytes), into acc: w holds each kernel row's weights as
 * (w0, w1), (w1, w2). With a = (x0, x1) and b = (x2, x3) of a window row, the left output takes
 * x0 w0 + x1 w1 (SMUAD/SMLAD a) + x2 w2 (SMLABT b), the right one x1 w0 (SMLATB a) + x2 w1 + x3 w2
 * (SMLAD b): per pair of outputs, 6 loads and 12 multiplies for 18 MACs. */
static __attribute__((noinline, unused)) void mcu_dw3_sums(const int16_t *x, int32_t rs, const uint32_t w[6],
                                                         int32_t pairs, int32_t *acc)
{
    pairs = (pairs + 1) & ~1;  /* two per pass: an odd count computes one more, whose sums nobody reads */
    const int16_t *x1 = (const int16_t *)(const void *)((const int8_t *)x + rs);
    const int16_t *x2 = (const int16_t *)(const void *)((const int8_t *)x1 + rs);
    const int32_t *const end = acc + 2 * pairs;
    uint32_t a, b, d0, d1;
    /* In assembly: the loop needs all 14 allocatable registers (the two sums, two input words, three
     * row pointers, the output pointer, six weight pairs), so its end is read from the stack, once
     * per two pairs. */
    __asm__ volatile(
        "1:\n\t"
        MCU_DW3_PAIR_
        MCU_DW3_PAIR_
        "ldr %[d0], %[end]\n\t"
        "cmp %[acc], %[d0]\n\t"
        "bne 1b"
        : [a] "=&r"(a), [b] "=&r"(b), [d0] "=&r"(d0), [d1] "=&r"(d1), [x0] "+r"(x), [x1] "+r"(x1), [x2] "+r"(x2),
          [acc] "+r"(acc)
        : [w0] "r"(w[0]), [w1] "r"(w[1]), [w2] "r"(w[2]), [w3] "r"(w[3]), [w4] "r"(w[4]), [w5] "r"(w[5]),
          [end] "m"(end)
        : "cc", "memory");
}

/*
 * The DSP LSTM kernels' time step (mcu_lstm_s8_x4, mcu_lstm_s8_w16), the results of src/mcu_lstm_s8.c's:
 * each gate's two FCs four units at a time on the FC loop (`wide`: weights widened to int16 pairs,
 * MCU_DOT4_W16; else int8, MCU_DOT4), offsets folded into the gates' biases (as TFLM's Prepare does),
 * the four gates' activations of every unit into scratch (4 * units4 int16); then each unit's cell and
 * hidden state (mcu_lstm_unit), from the hidden state as it was before the step, as in the reference.
 * The requantizations: mcu_requantize_short where lstm->short_requantize says every accumulator allows it.
 */
static inline __attribute__((always_inline)) void mcu_lstm_step_dsp(const mcu_lstm_params *lstm, mcu_lstm_rows rows,
                                                                   int16_t *scratch, int wide,
                                                                   mcu_requantize_fn gate_requantize,
                                                                   mcu_requantize_fn unit_requantize)
{
    const int32_t units = lstm->state_size, units4 = (units + 3) & ~3;
    const mcu_lstm_gate *const gates[4] = {&lstm->forget_gate, &lstm->input_gate, &lstm->cell_gate,
                                           &lstm->output_gate};
    for (int32_t k = 0; k < 4; ++k) {
        const mcu_lstm_gate *g = gates[k];
        const void *wx = g->input_weights, *wh = g->recurrent_weights;
        int16_t *activation = scratch + k * units4;
        for (int32_t u = 0; u < units; u += 4) {
            int32_t i0 = g->input_bias[u], i1 = g->input_bias[u + 1], i2 = g->input_bias[u + 2],
                    i3 = g->input_bias[u + 3];
            int32_t r0 = g->recurrent_bias[u], r1 = g->recurrent_bias[u + 1], r2 = g->recurrent_bias[u + 2],
                    r3 = g->recurrent_bias[u + 3];
            mcu_dot4_row_of(rows.x, lstm->input_size, &wx, wide, &i0, &i1, &i2, &i3);
            mcu_dot4_row_of(rows.h, units, &wh, wide, &r0, &r1, &r2, &r3);
            const int32_t in[4] = {i0, i1, i2, i3}, rec[4] = {r0, r1, r2, r3};
            for (int32_t j = 0; j < 4 && u + j < units; ++j) {
                activation[u + j] = (int16_t)mcu_lstm_activate(lstm, g, in[j], rec[j], k != 2, gate_requantize);
            }
        }
    }
    for (int32_t u = 0; u < units; ++u) {
        rows.out[u] = mcu_lstm_unit(lstm, scratch[u], scratch[units4 + u], scratch[2 * units4 + u],
                                    scratch[3 * units4 + u], &rows.c[u], unit_requantize);
    }
    memcpy(rows.h, rows.out, (size_t)units);
}

/* The DSP LSTM kernels' whole layer: every time step of every batch, in the short requantization where
 * lstm->short_requantize allows it. */
static inline __attribute__((always_inline)) void mcu_lstm_dsp(const mcu_lstm_params *lstm, const int8_t *input,
                                                              int8_t *hidden_state, int16_t *cell_state,
                                                              int8_t *output, int16_t *scratch, int wide)
{
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        for (int32_t b = 0; b < lstm->batches; ++b) {
            const mcu_lstm_rows rows = mcu_lstm_rows_of(lstm, t, b, input, hidden_state, cell_state, output);
            if (lstm->short_requantize) {
                mcu_lstm_step_dsp(lstm, rows, scratch, wide, mcu_requantize_short, mcu_requantize_short);
            } else {
                mcu_lstm_step_dsp(lstm, rows, scratch, wide, mcu_requantize, mcu_requantize_dsp);
            }
        }
    }
}

/*
 * The DSP CONV_2D kernels (mcu_conv2d_s8_x6; mcu_conv2d_s8_w16, `wide` 1: the weights widened to int16 pairs,
 * MCU_SUMS_2X3_W16; mcu_conv2d_s4_x6, `wide` 2: INT4 weights, MCU_SUMS_2X3_S4): the results of src/mcu_conv2d_s8.c, on constants mcugen lays out for them (the
 * filter, the channel table) and scratch.
 *
 * Output positions go MCU_CONV_BLOCK at a time, as two half-blocks of MCU_HALF_BLOCK. Each position's kernel
 * patch (the taps times the input channels, K values, padded to K8 = K rounded up to 8) is widened
 * once into int16 with the input offset added, in the order SMLAD pairs it with SXTB16-unpacked
 * weights: of every four values, (v0, v2) then (v1, v3). Out-of-image taps and the padding lanes
 * hold 0, exactly what skipping them gives. A half-block's patches are interleaved four values at a
 * time, and output channels go two at a time, so the inner loop reads a word of weights of each
 * channel, unpacks them once, and runs them against the three positions: per four values, one
 * double load of weights and 4 SXTB16, 3 double loads of inputs and 12 SMLAD (24 MACs), twice per
 * pass of the loop (hence K8), with every
 * accumulator in a register (register blocking: each input word feeds two channels, each weight
 * word three positions). A 1x1 kernel without padding whose channels are a multiple of 8 reads the
 * input pixels directly; other kernels first gather the patch as int8 (word copies per in-image
 * kernel row).
 *
 * filter: each channel's K taps padded with zeros to K8, channels in pairs whose words alternate
 * (c's first four taps, c+1's, c's next four...), an odd last channel's words alone after them; widened,
 * each word of four taps as the int16 (w0, w2, w1, w3). The taps in the order of [KH][KW][C], or with
 * `split` (mcu_conv2d_split_s8_w16) in mcu_widen_rows' order.
 * bias: one per output channel, never NULL (mcugen emits zeros for a conv without one).
 * scratch: MCU_CONV_BLOCK * K8 int16, then K8 bytes (mcugen plans it: ops/conv_2d.py conv_scratch_bytes).
 * live, pruned: NULL, or mcu_conv2d_live_s8_w16's: the filter, bias and channels hold filter_dims->n channels,
 * live[i] the output channel of the i-th, and pruned the output row the other channels keep.
 */

/* Widens n values (a multiple of 4) into the block's interleaved patches: `cols` is the position's first
 * pair, and a half-block's positions are MCU_HALF_BLOCK * 2 words apart per four values. */
static inline void mcu_conv_widen_patch(const int8_t *src, int32_t n, int16x2_t offset, uint32_t *cols)
{
    for (int32_t k = 0; k < n; k += 4, src += 4, cols += 2 * MCU_HALF_BLOCK) {
        const uint32_t v = mcu_load4(src);
        cols[0] = (uint32_t)__sadd16(mcu_even_bytes(v), offset);
        cols[1] = (uint32_t)__sadd16(mcu_odd_bytes(v), offset);
    }
}

/*
 * The widened patch of k_h kernel rows of `row` bytes, `pitch` apart from `first`, in the order mcugen
 * lays the filter out in (ops/_conv.py patch_order): every row's whole words, row after row, straight into
 * the block's interleaved `cols`, then the bytes past them (row % 4 of each row) gathered into `tails`
 * and widened after, up to K rounded up to whole words. A first layer's 3x3x3 patch is so six words
 * and one. The gather goes forward a byte at a time, so `tails` may be `first` itself when that is a
 * gathered patch (pitch = row): no byte is overwritten before it is read.
 */
static inline __attribute__((always_inline)) void mcu_widen_rows(const int8_t *first, int32_t pitch, int32_t k_h,
                                                               int32_t row, int16x2_t offset, int8_t *tails,
                                                               uint32_t *cols)
{
    const int32_t whole = row & ~3, rest = row - whole;
    const int8_t *src = first;
#pragma GCC unroll 3
    for (int32_t ky = 0; ky < k_h; ++ky, src += pitch, cols += whole / 4 * 2 * MCU_HALF_BLOCK) {
        mcu_conv_widen_patch(src, whole, offset, cols);
    }
    if (rest == 0) {
        return;
    }
    int8_t *dst = tails;
    src = first + whole;
#pragma GCC unroll 3
    for (int32_t ky = 0; ky < k_h; ++ky, src += pitch) {
        for (int32_t i = 0; i < rest; ++i) {
            *dst++ = src[i];
        }
    }
    mcu_conv_widen_patch(tails, (k_h * rest + 3) & ~3, offset, cols);
}

/*
 * The widened patch of a window that lies inside the image with dilation 1 across (`corner`: its first
 * value; its k_h rows of `row` bytes `pitch` apart), without mcu_gather_patch's per-tap bounds: rows of
 * whole words go from the image into the block's interleaved `cols` directly; other rows (a 3-channel
 * 3x3 kernel's 9 bytes) are copied into `patch` a word at a time, past their end (the next row's copy
 * overwrites the excess, which stays below K for rows of 2 bytes or more; the rows below the window,
 * pitch >= 4 bytes on, hold what is over-read), the last one exactly, then widened up to k4, K rounded
 * up to whole words. The words past k4 stay as mcu_conv_pad_tails wrote them once per call.
 */
static inline void mcu_widen_window(const int8_t *corner, int32_t pitch, int32_t k_h, int32_t row, int32_t k4,
                                    int16x2_t offset, int8_t *patch, uint32_t *cols)
{
    if (row % 4 == 0) {
        for (int32_t ky = 0; ky < k_h; ++ky, corner += pitch, cols += row / 4 * 2 * MCU_HALF_BLOCK) {
            mcu_conv_widen_patch(corner, row, offset, cols);
        }
        return;
    }
    int8_t *dst = patch;
    for (int32_t ky = 1; ky < k_h; ++ky, corner += pitch, dst += row) {
        for (int32_t i = 0; i < row; i += 4) {
            const uint32_t v = mcu_load4(corner + i);
            memcpy(dst + i, &v, sizeof v);
        }
    }
    mcu_copy_bytes(dst, corner, row);
    mcu_conv_widen_patch(patch, k4, offset, cols);
}

/* Position p's first pair in the block's widened patches. */
static inline uint32_t *mcu_conv_cols_of(uint32_t *cols, int32_t p, int32_t k8)
{
    return cols + (p / MCU_HALF_BLOCK) * (k8 / 4) * 2 * MCU_HALF_BLOCK + (p % MCU_HALF_BLOCK) * 2;
}

/* The part of every patch past its K taps, which no position changes: fill bytes in `patch`, zero pairs
 * (fill + offset) in each of the block's widened patches past K rounded up to whole words. */
static inline void mcu_conv_pad_tails(int32_t k, int32_t k8, int8_t fill, int8_t *patch, uint32_t *cols)
{
    memset(patch + k, fill, (size_t)(k8 - k));
    for (int32_t p = 0; p < MCU_CONV_BLOCK; ++p) {
        uint32_t *tail = mcu_conv_cols_of(cols, p, k8);
        for (int32_t g = (k + 3) / 4; g < k8 / 4; ++g) {
            tail[g * 2 * MCU_HALF_BLOCK] = tail[g * 2 * MCU_HALF_BLOCK + 1] = 0;
        }
    }
}

/* One output: requantized, offset, clamped. `fast` and `full` (the activation clamps nothing SSAT does
 * not) are constants where this is inlined. */
static inline __attribute__((always_inline)) int8_t mcu_conv_output_of(int32_t sum, const mcu_channel *ch, int fast,
                                                                       int full, int32_t offset, mcu_activation act)
{
    const int32_t v = mcu_channel_value(sum, ch, fast, offset);
    return full ? (int8_t)__ssat(v, 8) : mcu_clamp_s8(v, act);
}

/* Channel c's sums of `count` <= MCU_HALF_BLOCK positions to out (out_c apart). The constants are locals,
 * passed by value: through the int8 stores GCC would reload them per output. */
static inline __attribute__((always_inline)) void mcu_conv_store_channel(
    mcu_channel ch, int32_t offset, mcu_activation act, int full, int32_t s0, int32_t s1, int32_t s2,
    int32_t count, int32_t out_c, int8_t *out)
{
    if (ch.fast && count == MCU_HALF_BLOCK && full) {
        out[0] = mcu_conv_output_of(s0, &ch, 1, 1, offset, act);
        out[out_c] = mcu_conv_output_of(s1, &ch, 1, 1, offset, act);
        out[2 * out_c] = mcu_conv_output_of(s2, &ch, 1, 1, offset, act);
    } else if (ch.fast && count == MCU_HALF_BLOCK) {
        out[0] = mcu_conv_output_of(s0, &ch, 1, 0, offset, act);
        out[out_c] = mcu_conv_output_of(s1, &ch, 1, 0, offset, act);
        out[2 * out_c] = mcu_conv_output_of(s2, &ch, 1, 0, offset, act);
    } else {
        const int32_t sums[MCU_HALF_BLOCK] = {s0, s1, s2};
        for (int32_t p = 0; p < count; ++p) {
            out[p * out_c] = mcu_conv_output_of(sums[p], &ch, ch.fast, 0, offset, act);
        }
    }
}

/* What mcu_conv_pairs_w16 reads: one half-block's channel pairs (field offsets are its assembly's). */
typedef struct {
    const uint32_t *end;   /* the half-block's widened patches end */
    int32_t odd;           /* an odd eight of values before the sixteens */
    const uint32_t *cols;  /* ... and start */
    const int32_t *bias;   /* the first pair's */
    const mcu_channel *ch; /* the first pair's, every one fast */
    int8_t *out;           /* position 0's output row (with live) or its first pair's first byte (without) */
    int32_t out_c;         /* bytes between positions */
    int32_t pairs;         /* at least 1 */
    const int16_t *live;   /* the pairs' output channels, or NULL: consecutive from out */
    const int16_t *w;      /* the first pair's widened weights */
} mcu_pairs_job;

_Static_assert(sizeof(mcu_channel) == 20 && offsetof(mcu_channel, round) == 8 && offsetof(mcu_channel, right) == 12,
               "mcu_conv_pairs_w16 reads mcu_channel at these offsets");
_Static_assert(sizeof(mcu_pairs_job) == 40 && offsetof(mcu_pairs_job, w) == 36,
               "mcu_conv_pairs_w16 copies mcu_pairs_job to its frame as ten words");

/* MCU_FOUR_VALUES_W16_ in mcu_conv_pairs_w16's registers: patches r6, weights r7 (into r8-r11), inputs r12
 * and lr, the sums of c0 r0-r2 and of c1 r3-r5. */
#define MCU_PAIR_POSITION_(a0, a1) MCU_POSITION_AT_("r6", "r12", "lr", a0, a1, "r8", "r9", "r10", "r11")
#define MCU_PAIR_FOUR_VALUES_                                                                             \
    "ldmia r7!, {r8, r9, r10, r11}\n\t" MCU_PAIR_POSITION_("r0", "r3") MCU_PAIR_POSITION_("r1", "r4")     \
    MCU_PAIR_POSITION_("r2", "r5")

/* One output of mcu_conv_pairs_w16: sum `a` requantized (mcu_requantize_fast: r8 multiplier, r9 round with
 * the output offset, r10 right), saturated (the activation clamps nothing more) and stored by `store`. */
#define MCU_PAIR_OUTPUT_(a, store)              \
    "lsl r12, " a ", #1\n\t"                    \
    "smmlar r12, r12, r8, r9\n\t"               \
    "add r12, r12, " a ", asr #31\n\t"          \
    "asr r12, r12, r10\n\t"                     \
    "ssat r12, #8, r12\n\t"                     \
    store "\n\t"

/*
 * The channel pairs of a full half-block (three positions) in one loop of assembly, for the widened conv
 * (MCU_SUMS_2X3_W16's loop) where every channel is fast and the activation clamps nothing SSAT does not:
 * GCC kept the pointers that walk the pairs and the channels' constants on the stack, reloading and
 * storing them around every pass, ~70 cycles, more than a K = 8..16 layer's loop itself. Here the sums
 * are r0-r2 (c0 at positions 0-2) and r3-r5 (c1), the patches r6 and weights r7; the job is copied to the
 * frame, which the loop's end and parity are read from, and each pass stores only what moved.
 */
static __attribute__((naked, noinline, unused)) void mcu_conv_pairs_w16(
    const mcu_pairs_job *job __attribute__((unused)))
{
    /* job arrives in r0 (AAPCS); a naked function holds basic assembly only */
    __asm__ volatile(
        "push {r4, r5, r6, r7, r8, r9, r10, r11, lr}\n\t"
        "sub sp, sp, #40\n\t"
        "ldmia r0, {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10}\n\t"
        "stmia sp, {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10}\n\t"
        "1:\n\t"
        /* the sums start from the pair's biases */
        "ldr r12, [sp, #12]\n\t"
        "ldrd r0, r3, [r12], #8\n\t"
        "str r12, [sp, #12]\n\t"
        "mov r1, r0\n\t"
        "mov r2, r0\n\t"
        "mov r4, r3\n\t"
        "mov r5, r3\n\t"
        "ldr r6, [sp, #8]\n\t"
        "ldr r7, [sp, #36]\n\t"
        "ldr r12, [sp, #4]\n\t"
        "cmp r12, #0\n\t"
        "beq 2f\n\t"
        MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_
        "2:\n\t"
        "ldr r12, [sp]\n\t"
        "cmp r6, r12\n\t"
        "beq 4f\n\t"
        "3:\n\t"
        MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_
        "ldr r12, [sp]\n\t"
        "cmp r6, r12\n\t"
        "bne 3b\n\t"
        "4:\n\t"
        "str r7, [sp, #36]\n\t"
        /* where the pair's outputs go: r7 (c0), r6 (c1) at position 0; live channels' out of line, so that
         * the dense conv takes no branch */
        "ldr r6, [sp, #32]\n\t"
        "ldr lr, [sp, #20]\n\t"
        "cmp r6, #0\n\t"
        "bne 7f\n\t"
        "mov r7, lr\n\t"
        "add r6, lr, #1\n\t"
        "add lr, lr, #2\n\t"
        "str lr, [sp, #20]\n\t"
        "6:\n\t"
        "ldr r11, [sp, #24]\n\t"
        "ldr lr, [sp, #16]\n\t"
        "ldr r8, [lr]\n\t"
        "ldrd r9, r10, [lr, #8]\n\t"
        MCU_PAIR_OUTPUT_("r0", "strb r12, [r7]")
        MCU_PAIR_OUTPUT_("r1", "strb r12, [r7, r11]")
        "add r7, r7, r11, lsl #1\n\t"
        MCU_PAIR_OUTPUT_("r2", "strb r12, [r7]")
        "ldr r8, [lr, #20]\n\t"
        "ldrd r9, r10, [lr, #28]\n\t"
        "add lr, lr, #40\n\t"
        "str lr, [sp, #16]\n\t"
        MCU_PAIR_OUTPUT_("r3", "strb r12, [r6]")
        MCU_PAIR_OUTPUT_("r4", "strb r12, [r6, r11]")
        "add r6, r6, r11, lsl #1\n\t"
        MCU_PAIR_OUTPUT_("r5", "strb r12, [r6]")
        "ldr r12, [sp, #28]\n\t"
        "subs r12, r12, #1\n\t"
        "str r12, [sp, #28]\n\t"
        "bne 1b\n\t"
        "add sp, sp, #40\n\t"
        "pop {r4, r5, r6, r7, r8, r9, r10, r11, pc}\n\t"
        "7:\n\t"
        "ldrsh r7, [r6], #2\n\t"
        "ldrsh r12, [r6], #2\n\t"
        "str r6, [sp, #32]\n\t"
        "add r7, lr, r7\n\t"
        "add r6, lr, r12\n\t"
        "b 6b");
}

/*
 * All output channels of `count` <= MCU_HALF_BLOCK positions (a half-block), from their widened patches
 * at `cols`; the output of position p goes to out[p * out_c + c]. Positions past `count` compute on
 * stale scratch and are not stored.
 */
static inline __attribute__((always_inline)) void mcu_conv_half_channels(
    const mcu_conv_params *conv, const mcu_channel *channels, const uint32_t *cols, int32_t count, int32_t k8,
    int32_t out_c, int32_t computed, const int16_t *live, const void *filter, const int32_t *bias, int8_t *out,
    int wide, int fast_pairs)
{
    const uint32_t *const end = cols + (k8 / 4) * 2 * MCU_HALF_BLOCK;
    const int32_t odd = k8 / 8 & 1; /* an odd eight of values before the loop's sixteens */
    const int32_t offset = conv->output_offset;
    const mcu_activation act = conv->activation;
    const int full = act.min <= -128 && act.max >= 127;
    /* pointers walk the channels: indices and their products would live on the stack around the loop */
    const int8_t *w = (const int8_t *)filter;
    const int16_t *w16 = (const int16_t *)filter;
    const int32_t *b = bias;
    const mcu_channel *ch = channels;
    const int16_t *lv = live;
    int8_t *o = out;
    if (wide == 1 && fast_pairs && full && count == MCU_HALF_BLOCK && computed >= 2) {
        const mcu_pairs_job job = {end, odd, cols, bias, channels, out, out_c, computed / 2, live, w16};
        mcu_conv_pairs_w16(&job);
        o += computed / 2 * 2;  /* the loop below has nothing left */
    }
    for (int8_t *const pairs_end = out + computed / 2 * 2; o < pairs_end; w += (wide == 2 ? k8 : 2 * k8),
                                                                          w16 += 2 * k8, b += 2, ch += 2, o += 2,
                                                                          lv += 2) {
        if (wide == 2) {
            int32_t p0c0 = 0, p1c0 = 0, p2c0 = 0, p0c1 = 0, p1c1 = 0, p2c1 = 0;
            MCU_SUMS_2X3_S4(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
            mcu_conv_store_channel(ch[0], offset, act, full, mcu_s4_sum(b[0], p0c0), mcu_s4_sum(b[0], p1c0),
                                   mcu_s4_sum(b[0], p2c0), count, out_c, live ? out + lv[0] : o);
            mcu_conv_store_channel(ch[1], offset, act, full, mcu_s4_sum(b[1], p0c1), mcu_s4_sum(b[1], p1c1),
                                   mcu_s4_sum(b[1], p2c1), count, out_c, live ? out + lv[1] : o + 1);
            continue;
        }
        int32_t p0c0 = b[0], p1c0 = b[0], p2c0 = b[0], p0c1 = b[1], p1c1 = b[1], p2c1 = b[1];
        if (wide) {
            MCU_SUMS_2X3_W16(cols, end, odd, w16, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
        } else {
            MCU_SUMS_2X3(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
        }
        mcu_conv_store_channel(ch[0], offset, act, full, p0c0, p1c0, p2c0, count, out_c, live ? out + lv[0] : o);
        mcu_conv_store_channel(ch[1], offset, act, full, p0c1, p1c1, p2c1, count, out_c, live ? out + lv[1] : o + 1);
    }
    const int32_t c = computed / 2 * 2;
    if (c < computed) {  /* the last of an odd count: its weights alone, a word per four values */
        int32_t a0 = bias[c], a1 = bias[c], a2 = bias[c];
        if (wide == 2) {
            int32_t s0 = 0, s1 = 0, s2 = 0;
            mcu_sums_1x3(cols, end, (const int8_t *)filter + c / 2 * k8, 2, &s0, &s1, &s2);
            a0 = mcu_s4_sum(a0, s0), a1 = mcu_s4_sum(a1, s1), a2 = mcu_s4_sum(a2, s2);
        } else {
            mcu_sums_1x3(cols, end, (const int8_t *)filter + c * k8 * (wide ? 2 : 1), wide, &a0, &a1, &a2);
        }
        mcu_conv_store_channel(channels[c], offset, act, full, a0, a1, a2, count, out_c, out + (live ? live[c] : c));
    }
}

static inline __attribute__((always_inline)) void mcu_conv2d_s8_dsp(
    const mcu_conv_params *conv, const mcu_channel *channels, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const void *filter, const int32_t *bias, const int16_t *live, const int8_t *pruned,
    const mcu_dims *output_dims, int8_t *output, int16_t *scratch, int wide, int split)
{
    const int32_t taps = filter_dims->h * filter_dims->w * input_dims->c, k4 = (taps + 3) & ~3, k8 = (taps + 7) & ~7;
    const int32_t out_c = output_dims->c, positions = output_dims->n * output_dims->h * output_dims->w;
    const int direct = mcu_conv_direct(conv, filter_dims, input_dims->c);
    const int16x2_t offset = mcu_both_halves(conv->input_offset);
    uint32_t *cols = (uint32_t *)(void *)scratch;
    int8_t *patch = (int8_t *)(cols + MCU_CONV_BLOCK * k8 / 2);

    const int8_t fill = (int8_t)-conv->input_offset;
    /* windows inside the image skip mcu_gather_patch: first layers with 1-3 channels spent most of their
     * time there */
    const int32_t in_c = input_dims->c, in_w = input_dims->w, in_h = input_dims->h;
    const int32_t row = filter_dims->w * in_c, pitch = conv->dilation.h * in_w * in_c;
    const int32_t last_row = (filter_dims->h - 1) * conv->dilation.h, last_col = filter_dims->w - 1;
    const int windows = !direct && conv->dilation.w == 1 && pitch >= 4 && row >= 2;
    /* a 1x1 stride-1 conv reads position p's pixel at p * in_c (a strip's rows start -padding.h rows down) */
    const int contiguous = direct && conv->stride.h == 1 && conv->stride.w == 1 &&
                           (input_dims->n == 1 || conv->padding.h == 0);
    const int8_t *const pixels = input - conv->padding.h * in_w * in_c;
    mcu_conv_pad_tails(taps, k8, fill, patch, cols);
    const int32_t computed = live != NULL ? filter_dims->n : out_c;
    int fast_pairs = 1;  /* every channel the pairs cover: mcu_conv_pairs_w16 requantizes them all so */
    for (int32_t c = 0; c < computed / 2 * 2; ++c) {
        fast_pairs &= channels[c].fast;
    }
    mcu_position at = {0, 0, 0};
    for (int32_t first = 0; first < positions; first += MCU_CONV_BLOCK) {
        const int32_t count = positions - first < MCU_CONV_BLOCK ? positions - first : MCU_CONV_BLOCK;
        for (int32_t p = 0; p < count; ++p, mcu_position_next(&at, output_dims)) {
            uint32_t *dst = mcu_conv_cols_of(cols, p, k8);
            if (contiguous) {
                mcu_conv_widen_patch(pixels + (first + p) * in_c, k4, offset, dst);
                continue;
            }
            const int32_t y0 = at.y * conv->stride.h - conv->padding.h, x0 = at.x * conv->stride.w - conv->padding.w;
            if (windows && y0 >= 0 && y0 + last_row < in_h && x0 >= 0 && x0 + last_col < in_w) {
                const int8_t *corner = input + ((at.b * in_h + y0) * in_w + x0) * in_c;
                if (split && filter_dims->h == 3 && row == 9) {  /* most image models' first layer, unrolled */
                    mcu_widen_rows(corner, pitch, 3, 9, offset, patch, dst);
                } else if (split) {
                    mcu_widen_rows(corner, pitch, filter_dims->h, row, offset, patch, dst);
                } else {
                    mcu_widen_window(corner, pitch, filter_dims->h, row, k4, offset, patch, dst);
                }
                continue;
            }
            const int8_t *src = (const int8_t *)mcu_patch_of(conv, input_dims, input, filter_dims, at, k8, 1, fill,
                                                             direct, patch);
            if (split) {
                mcu_widen_rows(src, row, filter_dims->h, row, offset, patch, dst);
            } else {
                mcu_conv_widen_patch(src, k4, offset, dst);
            }
        }
        /* pruned channels' outputs, written once the block's patches are read (the conv may run in place) */
        for (int32_t p = 0; live != NULL && p < count; ++p) {
            memcpy(output + (first + p) * out_c, pruned, (size_t)out_c);
        }
        for (int32_t h = 0; h * MCU_HALF_BLOCK < count; ++h) {
            const int32_t n = count - h * MCU_HALF_BLOCK < MCU_HALF_BLOCK ? count - h * MCU_HALF_BLOCK : MCU_HALF_BLOCK;
            mcu_conv_half_channels(conv, channels, cols + h * (k8 / 4) * 2 * MCU_HALF_BLOCK, n, k8, out_c, computed,
                                   live, filter, bias, output + (first + h * MCU_HALF_BLOCK) * out_c, wide, fast_pairs);
        }
    }
}

#endif
