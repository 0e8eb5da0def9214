/*
 * The DSP convs' patches: gathered from the image, widened to int16 pairs and interleaved for the
 * register-blocked sums of two channels at three positions (MCU_SUMS_2X3), and their outputs stored.
 */
#ifndef MCU_NN_CONV_DSP_H
#define MCU_NN_CONV_DSP_H

#include "mcu_nn_dsp.h"

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

/*
 * The DSP CONV_2D kernels (mcu_conv2d_s8_x6; mcu_conv2d_s8_w16, `wide` 1: the weights widened to int16 pairs,
 * MCU_SUMS_2X3_W16; mcu_conv2d_s4_x6, `wide` 2: INT4 weights, MCU_SUMS_2X3_S4): the results of src/mcu_conv2d_s8.c, on constants mcugen lays out for them (the
 * filter, the channel table) and scratch.
 *
 * Output positions go MCU_CONV_BLOCK at a time, as two half-blocks of MCU_HALF_BLOCK. Each position's kernel
 * patch (the taps times the input channels, K values, padded to K8 = K rounded up to 8) is widened
 * once into int16 (sign extension only: the input offset is in the bias), in the order SMLAD pairs it
 * with SXTB16-unpacked weights: of every four values, (v0, v2) then (v1, v3). Out-of-image taps hold
 * -input_offset (the zero point), whose products the bias's input_offset * sum(w) cancels, exactly
 * what skipping them gives; past K the weights are 0. A half-block's patches are interleaved four values at a
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
 * bias: one per output channel, never NULL: bias + input_offset * sum of the channel's weights (wrapping as
 * int32; ops/_conv.py folds it, zeros and all for a conv without a bias).
 * scratch: MCU_CONV_BLOCK * K8 int16, then K8 bytes (mcugen plans it: ops/conv_2d.py conv_scratch_bytes).
 * live, pruned: NULL, or mcu_conv2d_live_s8_w16's: the filter, bias and channels hold filter_dims->n channels,
 * live[i] the output channel of the i-th, and pruned the output row the other channels keep.
 */

/* Widens n values (a multiple of 4) into the block's interleaved patches: `cols` is the position's first
 * pair, and a half-block's positions are MCU_HALF_BLOCK * 2 words apart per four values. */
static inline void mcu_conv_widen_patch(const int8_t *src, int32_t n, uint32_t *cols)
{
    if (n & 4) {
        const uint32_t v = mcu_load4(src);
        cols[0] = (uint32_t)mcu_even_bytes(v);
        cols[1] = (uint32_t)mcu_odd_bytes(v);
        src += 4, cols += 2 * MCU_HALF_BLOCK;
    }
    if (n < 8) {
        return;
    }
    /* eight values a pass in assembly, the loads back to back and the pairs stored double: 2.1 cycles a
     * value on the M4 where GCC's loop of four, with the offset added, took 3.75 (a 3x3 conv widens each
     * input value nine times) */
    const int8_t *const end = src + (n & ~7);
    uint32_t a, b, c;
    __asm__ volatile(
        "1:\n\t"
        "ldr %[a], [%[src], #4]\n\t"
        "ldr %[b], [%[src]], #8\n\t"
        "sxtb16 %[c], %[b], ror #8\n\t"
        "sxtb16 %[b], %[b]\n\t"
        "strd %[b], %[c], [%[cols]]\n\t"
        "sxtb16 %[c], %[a], ror #8\n\t"
        "sxtb16 %[a], %[a]\n\t"
        "strd %[a], %[c], [%[cols], #%c[next]]\n\t"
        "add %[cols], %[cols], #%c[pass]\n\t"
        "cmp %[src], %[end]\n\t"
        "bne 1b"
        : [src] "+r"(src), [cols] "+r"(cols), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c)
        : [end] "r"(end), [next] "i"(2 * MCU_HALF_BLOCK * 4), [pass] "i"(4 * MCU_HALF_BLOCK * 4)
        : "cc", "memory");
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
                                                               int32_t row, int8_t *tails, uint32_t *cols)
{
    const int32_t whole = row & ~3, rest = row - whole;
    const int8_t *src = first;
#pragma GCC unroll 3
    for (int32_t ky = 0; ky < k_h; ++ky, src += pitch, cols += whole / 4 * 2 * MCU_HALF_BLOCK) {
        mcu_conv_widen_patch(src, whole, cols);
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
    mcu_conv_widen_patch(tails, (k_h * rest + 3) & ~3, cols);
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
                                    int8_t *patch, uint32_t *cols)
{
    if (row % 4 == 0) {
        for (int32_t ky = 0; ky < k_h; ++ky, corner += pitch, cols += row / 4 * 2 * MCU_HALF_BLOCK) {
            mcu_conv_widen_patch(corner, row, cols);
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
    mcu_conv_widen_patch(patch, k4, cols);
}

/* Position p's first pair in the block's widened patches. */
static inline uint32_t *mcu_conv_cols_of(uint32_t *cols, int32_t p, int32_t k8)
{
    return cols + (p / MCU_HALF_BLOCK) * (k8 / 4) * 2 * MCU_HALF_BLOCK + (p % MCU_HALF_BLOCK) * 2;
}

/* The part of every patch past its K taps, which no position changes: fill bytes in `patch`, zero pairs in
 * each of the block's widened patches past K rounded up to whole words (whose weights are 0). */
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

#endif
