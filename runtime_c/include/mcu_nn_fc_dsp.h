/*
 * The DSP FULLY_CONNECTED loops (mcu_fully_connected_s8_x4, _s8_w16, _s4_x4; the LSTM and SVDF kernels
 * run their gates' and features' FCs on them): four units at a time over a row of input, their weights
 * interleaved a word per unit (kernels/layouts.py interleave4 lays them out), and the whole layer's body.
 */
#ifndef MCU_NN_FC_DSP_H
#define MCU_NN_FC_DSP_H

#include "mcu_nn_dsp.h"

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
 * filter in the order kernels/layouts.py interleave4 lays it out (per four values, the four units'
 * words one after the other), read from the pointer lvalue w on, which is left past them. The input
 * offset is folded into the caller's bias, so input words are only unpacked. Per four values: one load
 * and two SXTB16 of input, two double loads and six SXTB16 of filter, eight SMLAD (16 MACs). In
 * assembly for the pair loads (LDRD), which GCC splits under this register pressure; two blocks of four
 * values per turn (an odd one first). Measured on tflm_keyword_scrambled_8bit on the M4 (estimated cycles):
 * with the same loop in C (ACLE's __sxtb16 and __smlad) its FC layers take 11.5-13.0% more and its SVDF
 * layers 2.9-18.6%, the model 111,216 -> 120,300 (+8.2%), for 312 B less flash. A statement macro, so that the sums and the pointer stay the
 * caller's registers (through pointers, GCC keeps them in memory around the loop).
 */
/* The FC loops' turns (MCU_DOT4, MCU_DOT4_W16, MCU_DOT4_S4): `four` (four values against the four units) once where
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

/* MCU_DOT4_W16_PAIRED's turns: `four` once where the count of blocks is odd, `eight` (two, on paired input
 * loads) once where its bit 1 is set, then two eights a turn: the turn's compare and branch cost 4 cycles,
 * a twelfth of two blocks' on the M4. Both bits go to the flags at once (N: bit 2 of the bytes left, C:
 * bit 3), which the blocks' loads and SMLAD keep: one instruction a row more than MCU_DOT4_TURNS_. */
#define MCU_DOT4_TURNS_W16_(four, eight)                  \
    "sub %[even], %[end], %[x]\n\t"                       \
    "lsls %[even], %[even], #29\n\t"                      \
    "bpl 2f\n\t" four "2:\n\t"                            \
    "bcc 4f\n\t" eight "4:\n\t"                           \
    "cmp %[x], %[end]\n\t"                                \
    "beq 3f\n\t"                                          \
    "1:\n\t" eight eight "cmp %[x], %[end]\n\t"            \
    "bne 1b\n\t"                                          \
    "3:"

/* The operands every FC loop's assembly shares: the four sums, the input and weight pointers, the input
 * word's two unpacked halves (mcu_x_, mcu_even_ and mcu_odd_ are the loop macro's locals). */
#define MCU_DOT4_OPERANDS_(w_, a0_, a1_, a2_, a3_)                                                        \
    [a0] "+r"(a0_), [a1] "+r"(a1_), [a2] "+r"(a2_), [a3] "+r"(a3_), [x] "+r"(mcu_x_), [w] "+r"(w_),           \
        [even] "=&r"(mcu_even_), [odd] "=&r"(mcu_odd_)

#define MCU_DOT4(x_, whole_, w_, a0_, a1_, a2_, a3_)                                                      \
    do {                                                                                                  \
        const int8_t *mcu_x_ = (x_), *const mcu_end_ = mcu_x_ + 4 * (whole_);                            \
        uint32_t mcu_even_, mcu_odd_, mcu_w01_, mcu_w23_, mcu_t_;                                         \
        __asm__ volatile(MCU_DOT4_TURNS_(MCU_FC_FOUR_VALUES_)                                             \
                         : MCU_DOT4_OPERANDS_(w_, a0_, a1_, a2_, a3_), [w01] "=&r"(mcu_w01_),              \
                           [w23] "=&r"(mcu_w23_), [t] "=&r"(mcu_t_)                                        \
                         : [end] "r"(mcu_end_)                                                            \
                         : "cc", "memory");                                                               \
    } while (0)

/* Four values of input (the word `in`) against the four units' int16 weights (two LDM of four words). */
#define MCU_FC16_WORD_(in)                                      \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                  \
    "sxtb16 %[odd], " in ", ror #8\n\t"                    \
    "sxtb16 %[even], " in "\n\t"                           \
    "smlad %[a0], %[even], r8, %[a0]\n\t"                  \
    "smlad %[a0], %[odd], r9, %[a0]\n\t"                   \
    "smlad %[a1], %[even], r10, %[a1]\n\t"                 \
    "smlad %[a1], %[odd], r11, %[a1]\n\t"                  \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                  \
    "smlad %[a2], %[even], r8, %[a2]\n\t"                  \
    "smlad %[a2], %[odd], r9, %[a2]\n\t"                   \
    "smlad %[a3], %[even], r10, %[a3]\n\t"                 \
    "smlad %[a3], %[odd], r11, %[a3]\n\t"
#define MCU_FC16_FOUR_VALUES_ "ldr %[even], [%[x]], #4\n\t" MCU_FC16_WORD_("%[even]")
/* Eight values: the input's two loads back to back, the second one cycle on the M4 as its address does
 * not wait for the first's writeback (single loads, not LDRD: a row of a batch may start anywhere) */
#define MCU_FC16_EIGHT_VALUES_                                                                 \
    "ldr %[next], [%[x], #4]\n\t"                                                             \
    "ldr %[even], [%[x]], #8\n\t" MCU_FC16_WORD_("%[even]") MCU_FC16_WORD_("%[next]")

/*
 * MCU_DOT4 on weights widened to int16 at build time (kernels/layouts.py widen4: per four values,
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
                         : MCU_DOT4_OPERANDS_(w_, a0_, a1_, a2_, a3_)                                     \
                         : [end] "r"(mcu_end_)                                                            \
                         : "r8", "r9", "r10", "r11", "cc", "memory");                                     \
    } while (0)

/* MCU_DOT4_W16 with two blocks a turn on paired input loads (MCU_DOT4_TURNS_W16_): 4 cycles less per
 * 16 values on the M4 for one more register, which the FC kernel has and the LSTM's gates have not
 * (GCC spilled around them: 80 instructions more per mnist_lstm time step). */
#define MCU_DOT4_W16_PAIRED(x_, whole_, w_, a0_, a1_, a2_, a3_)                                           \
    do {                                                                                                  \
        const int8_t *mcu_x_ = (x_), *const mcu_end_ = mcu_x_ + 4 * (whole_);                            \
        uint32_t mcu_even_, mcu_odd_, mcu_next_;                                                          \
        __asm__ volatile(MCU_DOT4_TURNS_W16_(MCU_FC16_FOUR_VALUES_, MCU_FC16_EIGHT_VALUES_)               \
                         : MCU_DOT4_OPERANDS_(w_, a0_, a1_, a2_, a3_), [next] "=&r"(mcu_next_)            \
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

/* MCU_DOT4 on INT4 weights (kernels/layouts.py s4_pairs of each group of four units, per four values the words
 * of units 0-1 and 2-3): the sums times 16 (MCU_S4_PAIRS_). Per four values: 2 + 2 loads, 16 ALU
 * instructions, 8 SMLAD; a quarter of the int16 layout's flash. */
#define MCU_DOT4_S4(x_, whole_, w_, a0_, a1_, a2_, a3_)                                                   \
    do {                                                                                                  \
        const int8_t *mcu_x_ = (x_), *const mcu_end_ = mcu_x_ + 4 * (whole_);                            \
        uint32_t mcu_even_, mcu_odd_, mcu_e0_, mcu_o0_, mcu_e1_, mcu_o1_;                                 \
        __asm__ volatile(MCU_DOT4_TURNS_(MCU_FC4_FOUR_VALUES_)                                            \
                         : MCU_DOT4_OPERANDS_(w_, a0_, a1_, a2_, a3_), [e0] "=&r"(mcu_e0_),                \
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
 * interleave4's int8 layout), MCU_DOT4_W16 (1: widen4's int16 pairs; 3: the same, MCU_DOT4_W16_PAIRED) or
 * MCU_DOT4_S4 (2: INT4, the sums times 16), the last depth % 4 through a zero-filled word; *w is left
 * past them. */
static inline __attribute__((always_inline)) void mcu_dot4_row_of(const int8_t *x, int32_t depth, const void **w,
                                                                 int wide, int32_t *a0, int32_t *a1, int32_t *a2,
                                                                 int32_t *a3)
{
    const int8_t *p8 = (const int8_t *)*w;
    const int16_t *p16 = (const int16_t *)*w;
    int32_t s0 = *a0, s1 = *a1, s2 = *a2, s3 = *a3;
    if (wide == 2) {
        MCU_DOT4_S4(x, depth / 4, p8, s0, s1, s2, s3);
    } else if (wide == 3) {
        MCU_DOT4_W16_PAIRED(x, depth / 4, p16, s0, s1, s2, s3);
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
    *w = wide == 1 || wide == 3 ? (const void *)p16 : (const void *)p8;
    *a0 = s0, *a1 = s1, *a2 = s2, *a3 = s3;
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
    if (left >= 4 && (ch[0].fast & ch[1].fast & ch[2].fast & ch[3].fast)) {  /* one test, not four */
        const uint32_t word = mcu_pack4(mcu_channel_value(a0, &ch[0], 1, output_offset),
                                        mcu_channel_value(a1, &ch[1], 1, output_offset),
                                        mcu_channel_value(a2, &ch[2], 1, output_offset),
                                        mcu_channel_value(a3, &ch[3], 1, output_offset),
                                        mcu_all_bytes(act.min), mcu_all_bytes(act.max));
        memcpy(output, &word, sizeof word);
        return;
    }
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

/* mcu_fc_store4 for a per-tensor layer whose one channel row is fast: its constants worked out once, out of
 * the units' loop (the row read and its rounding term made per output cost AD's layers 0.5%). */
static inline void mcu_fc_store4_shared(int32_t a0, int32_t a1, int32_t a2, int32_t a3, const mcu_fast_channel *q,
                                        int32_t left, mcu_activation act, int8_t *output)
{
    const int32_t v[4] = {mcu_requantize_fast(a0, q->multiplier, q->round, q->right),
                          mcu_requantize_fast(a1, q->multiplier, q->round, q->right),
                          mcu_requantize_fast(a2, q->multiplier, q->round, q->right),
                          mcu_requantize_fast(a3, q->multiplier, q->round, q->right)};
    if (left >= 4) {
        const uint32_t word = mcu_pack4(v[0], v[1], v[2], v[3], mcu_all_bytes(act.min), mcu_all_bytes(act.max));
        memcpy(output, &word, sizeof word);
        return;
    }
    for (int32_t u = 0; u < left; ++u) {
        output[u] = mcu_clamp_s8(v[u], act);
    }
}

/*
 * The DSP FULLY_CONNECTED kernels (mcu_fully_connected_s8_x4; mcu_fully_connected_s8_w16, `wide` 3;
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
    const int shared = fc->per_tensor && channels[0].fast;
    const mcu_fast_channel none = {0, 0, 0}, q = shared ? mcu_fast_channel_of(channels) : none;
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
            if (shared) {
                mcu_fc_store4_shared(a0, a1, a2, a3, &q, units - o, fc->activation, output + o);
            } else {
                mcu_fc_store4(a0, a1, a2, a3, fc->per_tensor ? channels : &channels[o], units - o, fc->output_offset,
                              fc->activation, output + o);
            }
        }
    }
}

#endif
