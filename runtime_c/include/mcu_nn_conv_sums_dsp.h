/*
 * The DSP convs' register-blocked sums: two output channels at three positions of a half-block of
 * widened patches (MCU_SUMS_2X3 and its int16- and INT4-weight forms), at fewer positions for a
 * half-block's last, and one channel alone (mcu_sums_1x3). mcu_nn_conv_dsp.h lays the patches out.
 */
#ifndef MCU_NN_CONV_SUMS_DSP_H
#define MCU_NN_CONV_SUMS_DSP_H

#include "mcu_nn_dsp.h"

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
 * read from the stack. Measured on mlzoo_ds_cnn_s_int16 on the M4 (estimated cycles): its 16x8 pointwise
 * layers take 26.5-39.9% more with the same loop in C (ACLE's __sxtb16 and __smlad), the model 8,156,072 ->
 * 10,417,277 (+27.7%), at the same flash. A statement macro, so that the sums stay the caller's registers.
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

/* MCU_SUMS_2X3 on twin words (mcu_nn_conv_dsp.h): per four values a double load of the pair's two words, SXTB16
 * of each for c0's weights; c1's sums come out mixed (256 times c1's plus c0's: mcu_twin_odd). */
#define MCU_FOUR_VALUES_TWIN_                              \
    "ldrd %[e1], %[o1], [%[w]], #8\n\t"                    \
    "sxtb16 %[e0], %[e1]\n\t"                              \
    "sxtb16 %[o0], %[o1]\n\t"                              \
    MCU_POSITIONS_("%[e0]", "%[o0]", "%[e1]", "%[o1]")

#define MCU_SUMS_2X3_TWIN(cols_, end_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_) \
    MCU_SUMS_2X3_OF_(MCU_FOUR_VALUES_TWIN_, cols_, end_, w_, p0c0_, p1c0_, p2c0_, p0c1_, p1c1_, p2c1_)

/*
 * MCU_SUMS_2X3 on weights widened to int16 at build time (kernels/layouts.py w16_filter): per four values, c0's
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

/* Four values of MCU_SUMS_2X2_W16: the pair's weights against positions 0 and 1. */
#define MCU_TWO_POSITIONS_W16_                               \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                   \
    "ldrd %[lo], %[hi], [%[x]], #8\n\t"                     \
    "smlad %[c0], %[lo], r8, %[c0]\n\t"                     \
    "smlad %[c0], %[hi], r9, %[c0]\n\t"                     \
    "smlad %[c1], %[lo], r10, %[c1]\n\t"                    \
    "smlad %[c1], %[hi], r11, %[c1]\n\t"                    \
    "ldrd %[lo], %[hi], [%[x]], #%c[step]\n\t"              \
    "smlad %[d0], %[lo], r8, %[d0]\n\t"                     \
    "smlad %[d0], %[hi], r9, %[d0]\n\t"                     \
    "smlad %[d1], %[lo], r10, %[d1]\n\t"                    \
    "smlad %[d1], %[hi], r11, %[d1]\n\t"

/* Four values of MCU_SUMS_2X1_W16: the pair's weights (r8-r11) against position 0's two words. */
#define MCU_ONE_POSITION_W16_                                \
    "ldmia %[w]!, {r8, r9, r10, r11}\n\t"                   \
    "ldrd %[lo], %[hi], [%[x]], #%c[step]\n\t"              \
    "smlad %[c0], %[lo], r8, %[c0]\n\t"                     \
    "smlad %[c0], %[hi], r9, %[c0]\n\t"                     \
    "smlad %[c1], %[lo], r10, %[c1]\n\t"                    \
    "smlad %[c1], %[hi], r11, %[c1]\n\t"

/* MCU_SUMS_2X3_W16 for a half-block of fewer positions: `four` (four values against them; its last input
 * load steps `step` bytes on to the next four) twice a pass, the sums the trailing operands. */
#define MCU_SUMS_FEW_W16_(four, step_, cols_, end_, w_, ...)                                               \
    do {                                                                                                 \
        const uint32_t *mcu_x_ = (cols_);                                                                \
        const int16_t *mcu_w_ = (w_);                                                                    \
        uint32_t mcu_lo_, mcu_hi_;                                                                       \
        __asm__ volatile("1:\n\t" four four "cmp %[x], %[end]\n\t"                                      \
                         "bne 1b"                                                                        \
                         : __VA_ARGS__, [x] "+r"(mcu_x_), [w] "+r"(mcu_w_), [lo] "=&r"(mcu_lo_),          \
                           [hi] "=&r"(mcu_hi_)                                                           \
                         : [end] "r"(end_), [step] "i"(step_)                                            \
                         : "r8", "r9", "r10", "r11", "cc", "memory");                                    \
    } while (0)

/* The pair's sums at positions 0 (c0_, c1_) and 1 (d0_, d1_) of a half-block of two: 19 cycles per 16
 * MACs on the M4 where three positions' loop takes 26; eight values a pass (end_ - cols_: whole eights). */
#define MCU_SUMS_2X2_W16(cols_, end_, w_, c0_, c1_, d0_, d1_)                                             \
    MCU_SUMS_FEW_W16_(MCU_TWO_POSITIONS_W16_, (2 * MCU_HALF_BLOCK - 2) * 4, cols_, end_, w_, [c0] "+r"(c0_), \
                      [c1] "+r"(c1_), [d0] "+r"(d0_), [d1] "+r"(d1_))

/* The pair's sums at position 0 of a half-block of one (the last of a row of a fused conv, or of an
 * image): 12 cycles per 8 MACs on the M4 where three positions' loop takes 26 for those 8. */
#define MCU_SUMS_2X1_W16(cols_, end_, w_, c0_, c1_)                                                       \
    MCU_SUMS_FEW_W16_(MCU_ONE_POSITION_W16_, 2 * MCU_HALF_BLOCK * 4, cols_, end_, w_, [c0] "+r"(c0_),      \
                      [c1] "+r"(c1_))

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

#endif /* MCU_NN_CONV_SUMS_DSP_H */
