/*
 * The twin-word FULLY_CONNECTED loop (mcu_fully_connected_s8_twin): int8 weights, two units in each halfword,
 * on the turns and operands of the DSP FC loops (mcu_nn_fc_dsp.h).
 */
#ifndef MCU_NN_FC_TWIN_DSP_H
#define MCU_NN_FC_TWIN_DSP_H

#include "mcu_nn_fc_dsp.h"

/*
 * Twin words (kernels/layouts.py twin4): each halfword holds unit u's weight plus 128 in its low byte and unit
 * u + 1's weight in its high byte, both for the same input value, so SMLAD on the word adds 256 * (u + 1's
 * products) + (u's biased products), and SMLAD on the word ANDed to its low bytes adds u's biased products
 * alone: the pair's two sums from one word of int8 weights with one AND where the int8 layout spends two
 * SXTB16. The sums start alike (mcu_twin_high takes them apart); a0/a1 are units 0-1's mixed and low sums,
 * a2/a3 units 2-3's. Per four values: an input word's load (two back to back for eight values: 1.5 cycles) and
 * two SXTB16, one LDM of four words, four AND, eight SMLAD: 20.5 cycles on the M4 for 16 MACs, where the int8
 * layout takes 26 and the int16 one 22 at twice the flash. In assembly for the LDM, which GCC does not emit
 * from four loads (written in C with ACLE, the loop loaded each word alone and spilled two sums to the stack:
 * 31 instructions per 16 MACs).
 */
/* Four values of input (the word `in`, unpacked in place with `odd`) against the four units' twin words. */
#define MCU_FC_TWIN_WORD_(in)                                   \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                  \
    "sxtb16 %[odd], " in ", ror #8\n\t"                    \
    "sxtb16 " in ", " in "\n\t"                            \
    "smlad %[a0], r8, " in ", %[a0]\n\t"                   \
    "and r8, r8, #0x00ff00ff\n\t"                          \
    "smlad %[a1], r8, " in ", %[a1]\n\t"                   \
    "smlad %[a0], r9, %[odd], %[a0]\n\t"                   \
    "and r9, r9, #0x00ff00ff\n\t"                          \
    "smlad %[a1], r9, %[odd], %[a1]\n\t"                   \
    "smlad %[a2], r10, " in ", %[a2]\n\t"                  \
    "and r10, r10, #0x00ff00ff\n\t"                        \
    "smlad %[a3], r10, " in ", %[a3]\n\t"                  \
    "smlad %[a2], r11, %[odd], %[a2]\n\t"                  \
    "and r11, r11, #0x00ff00ff\n\t"                        \
    "smlad %[a3], r11, %[odd], %[a3]\n\t"
#define MCU_FC_TWIN_FOUR_VALUES_ "ldr %[even], [%[x]], #4\n\t" MCU_FC_TWIN_WORD_("%[even]")
/* Eight values: the input's two loads back to back (MCU_FC16_EIGHT_VALUES_'s), 3 cycles where two blocks of four
 * take 4 */
#define MCU_FC_TWIN_EIGHT_VALUES_                                                              \
    "ldr %[next], [%[x], #4]\n\t"                                                             \
    "ldr %[even], [%[x]], #8\n\t" MCU_FC_TWIN_WORD_("%[even]") MCU_FC_TWIN_WORD_("%[next]")

/* MCU_DOT4_TWIN's turns: `four` once where the count of blocks has bit 0, `eight` (two blocks) where it has bit 1,
 * two eights where it has bit 2, then eight blocks a turn: the turn's compare and branch cost 4 cycles, a fortieth
 * of its MACs' on the M4, for 4 more on entry than MCU_DOT4_TURNS_W16_'s turns of four blocks. Measured on AD:
 * 6.1 K cycles less (1.5%) for 1.6 KB of code (the loop is inlined in the kernel's two loops). */
#define MCU_DOT4_TURNS_TWIN_(four, eight)                 \
    "sub %[even], %[end], %[x]\n\t"                       \
    "lsls %[even], %[even], #29\n\t"                      \
    "bpl 2f\n\t" four "2:\n\t"                            \
    "bcc 4f\n\t" eight "4:\n\t"                           \
    "sub %[even], %[end], %[x]\n\t"                       \
    "tst %[even], #16\n\t"                                \
    "beq 5f\n\t" eight eight "5:\n\t"                     \
    "cmp %[x], %[end]\n\t"                                \
    "beq 3f\n\t"                                          \
    "1:\n\t" eight eight eight eight "cmp %[x], %[end]\n\t" \
    "bne 1b\n\t"                                          \
    "3:"

/* The twin loop over `whole_` blocks of four values from x_ in `turns` (MCU_DOT4_TURNS_TWIN_'s, or for a loop run
 * less often MCU_DOT4_TURNS_'s: a fifth of the code): the mixed sums a0_ and a2_ start as the low ones a1_ and a3_
 * (copied in the assembly, where GCC would copy the starts into both registers of each pair). */
#define MCU_DOT4_TWIN(turns, x_, whole_, w_, a0_, a1_, a2_, a3_)                                          \
    do {                                                                                                  \
        const int8_t *mcu_x_ = (x_), *const mcu_end_ = mcu_x_ + 4 * (whole_);                            \
        uint32_t mcu_even_, mcu_odd_, mcu_next_;                                                          \
        __asm__ volatile("mov %[a0], %[a1]\n\t"                                                          \
                         "mov %[a2], %[a3]\n\t"                                                          \
                         turns                                                                            \
                         : [a0] "=&r"(a0_), [a1] "+r"(a1_), [a2] "=&r"(a2_), [a3] "+r"(a3_), [x] "+r"(mcu_x_),  \
                           [w] "+r"(w_), [even] "=&r"(mcu_even_), [odd] "=&r"(mcu_odd_), [next] "=&r"(mcu_next_) \
                         : [end] "r"(mcu_end_)                                                            \
                         : "r8", "r9", "r10", "r11", "cc", "memory");                                     \
    } while (0)

/* One twin word against an input word's halves (even_ or odd_): the mixed sum and the low one. */
static inline void mcu_twin_word(uint32_t word, int16x2_t half, int32_t *mixed, int32_t *low)
{
    *mixed = __smlad((int16x2_t)word, half, *mixed);
    *low = __smlad((int16x2_t)(word & 0x00FF00FFu), half, *low);
}

/* Units u and u + 1's sums from a twin pair's mixed and low sums that started alike at `start`: u's is the low
 * one less 128 * sum(x) (its weights' bias, taken out of `start`, hence `start` = u's bias - 128 sum(x)); the
 * difference is 256 times u + 1's products, exact while they stay within 2^23 in magnitude (mcugen takes only
 * filters whose rows do: 128 * sum |w| < 2^23), whatever the wrapped sums. */
static inline int32_t mcu_twin_high(int32_t mixed, int32_t low)
{
    return (int32_t)((uint32_t)mixed - (uint32_t)low) >> 8;
}

/* The sum of a row's int8 values: USADA8 adds a word's bytes as unsigned ones, which they are after flipping
 * their sign bits (each then 128 more). */
static inline int32_t mcu_row_sum(const int8_t *x, int32_t depth)
{
    uint32_t sum = 0;
    int32_t d = 0;
    for (; d + 8 <= depth; d += 8) {  /* two words a turn: their loads pipeline, the turn's branch is shared */
        sum = __usada8(mcu_load4(x + d + 4) ^ 0x80808080u, 0, __usada8(mcu_load4(x + d) ^ 0x80808080u, 0, sum));
    }
    if (d + 4 <= depth) {
        sum = __usada8(mcu_load4(x + d) ^ 0x80808080u, 0, sum);
        d += 4;
    }
    for (; d < depth; ++d) {
        sum += (uint32_t)(x[d] + 128);
    }
    return (int32_t)(sum - 128u * (uint32_t)depth);
}

/* Four units' sums over a row on twin words (the twin loop and a zero-filled last word) from their biases at bias,
 * into *a0..*a3; lifted is 128 * sum(x). *w is left past the row's words. The odd units' biases are read after the
 * loop, which leaves no register to hold them. `compact`: the loop in its short form. */
static inline __attribute__((always_inline)) void mcu_twin_row_of(const int8_t *x, int32_t depth, const void **w,
                                                                 int32_t lifted, const int32_t *bias, int compact,
                                                                 int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3)
{
    const uint32_t *p = (const uint32_t *)*w;
    /* in uint32: lifted is a start of the loop's own, which TFLM's sums never hold, so its wrapping is ours */
    int32_t m0, l0 = (int32_t)((uint32_t)bias[0] - (uint32_t)lifted), m2,
            l2 = (int32_t)((uint32_t)bias[2] - (uint32_t)lifted);
    if (compact) {
        MCU_DOT4_TWIN(MCU_DOT4_TURNS_(MCU_FC_TWIN_FOUR_VALUES_), x, depth / 4, p, m0, l0, m2, l2);
    } else {
        MCU_DOT4_TWIN(MCU_DOT4_TURNS_TWIN_(MCU_FC_TWIN_FOUR_VALUES_, MCU_FC_TWIN_EIGHT_VALUES_), x, depth / 4, p, m0,
                      l0, m2, l2);
    }
    if (depth % 4 != 0) {
        uint32_t last = 0;
        memcpy(&last, x + depth / 4 * 4, (size_t)(depth % 4));
        const int16x2_t even = mcu_even_bytes(last), odd = mcu_odd_bytes(last);
        mcu_twin_word(p[0], even, &m0, &l0);
        mcu_twin_word(p[1], odd, &m0, &l0);
        mcu_twin_word(p[2], even, &m2, &l2);
        mcu_twin_word(p[3], odd, &m2, &l2);
        p += 4;
    }
    *w = p;
    *a0 = l0, *a1 = bias[1] + mcu_twin_high(m0, l0), *a2 = l2, *a3 = bias[3] + mcu_twin_high(m2, l2);
}

/* mcu_fully_connected_s8_twin's layers whose units are all requantized alike by a fast row (most FULLY_CONNECTED
 * layers): a loop of their own, the row's constants and the clamp's bytes worked out once, whole groups of four
 * units stored as words. A loop with both store paths carries more through the units' loop and spills it around
 * the assembly: measured on AD's 128 -> 128 layers, 150 cycles a group of four units beside their 704 of MACs,
 * where this loop takes about 100. */
static inline __attribute__((always_inline)) void mcu_fc_twin_shared(const mcu_fc_params *fc, mcu_fast_channel q,
                                                                    const mcu_dims *input_dims, const int8_t *input,
                                                                    const void *filter, const int32_t *bias_folded,
                                                                    int32_t units, int8_t *output)
{
    const int32_t depth = input_dims->c, whole = units / 4 * 4;
    const uint32_t min4 = mcu_all_bytes(fc->activation.min), max4 = mcu_all_bytes(fc->activation.max);
    for (int32_t n = 0; n < input_dims->n; ++n, input += depth, output += units) {
        const int32_t lifted = (int32_t)(128u * (uint32_t)mcu_row_sum(input, depth));
        const void *w = filter;
        const int32_t *bias = bias_folded;
        int8_t *out = output;
        for (int8_t *const end = output + whole; out != end; out += 4, bias += 4) {
            int32_t a0, a1, a2, a3;
            mcu_twin_row_of(input, depth, &w, lifted, bias, 0, &a0, &a1, &a2, &a3);
            const uint32_t word = mcu_pack4(mcu_requantize_fast(a0, q.multiplier, q.round, q.right),
                                            mcu_requantize_fast(a1, q.multiplier, q.round, q.right),
                                            mcu_requantize_fast(a2, q.multiplier, q.round, q.right),
                                            mcu_requantize_fast(a3, q.multiplier, q.round, q.right), min4, max4);
            memcpy(out, &word, sizeof word);
        }
        if (whole < units) {
            int32_t a0, a1, a2, a3;
            mcu_twin_row_of(input, depth, &w, lifted, bias, 1, &a0, &a1, &a2, &a3);
            mcu_fc_store4_shared(a0, a1, a2, a3, &q, units - whole, fc->activation, out);
        }
    }
}

#endif
