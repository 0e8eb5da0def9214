/*
 * The DSP convs' patches: gathered from the image, widened to int16 pairs and interleaved for the
 * register-blocked sums of two channels at three positions (MCU_SUMS_2X3), and their outputs stored.
 */
#ifndef MCU_NN_CONV_DSP_H
#define MCU_NN_CONV_DSP_H

#include "mcu_nn_conv_sums_dsp.h"

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

/*
 * The DSP CONV_2D kernels (mcu_conv2d_s8_x6, its weights' form `wide` MCU_FORM_S8; mcu_conv2d_s8_w16,
 * MCU_FORM_W16: widened to int16 pairs, MCU_SUMS_2X3_W16; mcu_conv2d_s4_x6, MCU_FORM_S4: INT4,
 * MCU_SUMS_2X3_S4; mcu_conv2d_s8_twin, MCU_FORM_TWIN: a channel pair's int8 in one halfword a tap,
 * MCU_SUMS_2X3_TWIN): the results of src/mcu_conv2d_s8.c, on constants mcugen lays out for them (the
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
 * int32; kernels/layouts.py folds it, zeros and all for a conv without a bias). On widened weights (MCU_FORM_W16) a
 * channel marked fast = 2 has its weights and bias doubled (kernels/conv.py w16_constants): its sums are twice
 * the accumulator, what the fast requantization's high multiply takes.
 * scratch: MCU_CONV_BLOCK * K8 int16, then K8 bytes (mcugen plans it: kernels/conv.py conv_scratch_bytes).
 * live, pruned: NULL, or mcu_conv2d_live_s8_w16's: the filter, bias and channels hold filter_dims->n channels,
 * live[i] the output channel of the i-th, and pruned the output row the other channels keep.
 * Twin words (MCU_FORM_TWIN, kernels/layouts.py twin_filter): x6_filter's pairs with each tap of a pair as the
 * int16 256 * w1 + w0, four taps a word pair as (w0, w2), (w1, w3): SXTB16 takes c0's alone out of a word, the
 * word itself adds 256 times c1's products plus c0's, so c1's sum is the difference over 256 (mcu_twin_odd),
 * exact while bias1 + sum lies in [-2^23, 2^23), which mcugen checks per pair (kernels/layouts.py twin_pairs_fit).
 */

/* The forms of the DSP conv's weights: mcu_conv2d_s8_dsp's `wide` (MCU_FORM_S4_QUADS: mcu_nn_conv_quads_dsp.h). */
enum { MCU_FORM_S8 = 0, MCU_FORM_W16 = 1, MCU_FORM_S4 = 2, MCU_FORM_TWIN = 3, MCU_FORM_S4_QUADS = 4 };

/* A twin pair's c1 sums start from 256 * its bias over c0's (as c0's start from its bias), wrapping in uint32. */
static inline int32_t mcu_twin_start(int32_t bias0, int32_t bias1)
{
    return (int32_t)((uint32_t)bias0 + ((uint32_t)bias1 << 8));
}

/* c1's sum of a twin pair: the mixed sum less c0's, over 256 (exact: the difference is 256 * c1's). */
static inline int32_t mcu_twin_odd(int32_t mixed, int32_t low)
{
    return (int32_t)((uint32_t)mixed - (uint32_t)low) >> 8;
}

/* The widening's assembly steps: a word of four int8 widened in place into the pair (x0, x2) and `y` into
 * (x1, x3), and a pair stored as the block's interleaved patches hold it, `at` an assembler expression of
 * its byte offset from `cols`. */
#define MCU_WIDEN_WORD_(x, y) "sxtb16 %[" y "], %[" x "], ror #8\n\t" "sxtb16 %[" x "], %[" x "]\n\t"
#define MCU_STORE_PAIR_(x, y, at) "str %[" x "], [%[cols], #" at "]\n\t" "str %[" y "], [%[cols], #" at " + 4]\n\t"

/* Sixteen values of mcu_widen16's loop widened into `cols`, which moves on past them: the four loads back to
 * back, then the eight stores back to back. */
#define MCU_WIDEN16_PASS_                                                                                       \
    "ldr %[b], [%[src], #4]\n\t"                                                                                \
    "ldr %[c], [%[src], #8]\n\t"                                                                                \
    "ldr %[d], [%[src], #12]\n\t"                                                                               \
    "ldr %[a], [%[src]], #16\n\t"                                                                               \
    MCU_WIDEN_WORD_("a", "e") MCU_WIDEN_WORD_("b", "f") MCU_WIDEN_WORD_("c", "g") MCU_WIDEN_WORD_("d", "h")     \
    MCU_STORE_PAIR_("a", "e", "0") MCU_STORE_PAIR_("b", "f", "%c[at]") MCU_STORE_PAIR_("c", "g", "2 * %c[at]")   \
    MCU_STORE_PAIR_("d", "h", "3 * %c[at]")                                                                     \
    "add %[cols], %[cols], #4 * %c[at]\n\t"

/* Widens n values (a multiple of 16, at least 16) into the block's interleaved patches (`cols` as
 * mcu_conv_widen_patch's) in assembly, sixteen values a pass: the loads back to back, then the stores back to
 * back, single ones, which the M4 pipelines (a double store is 3 cycles, two single ones 2 or 1 each), the
 * base written back by the last load only: 1.7 cycles a value on the M4 where eight a pass with double stores
 * took 2.25, GCC's loop of four 3.75 (a 3x3 conv widens each input value nine times). */
static inline __attribute__((always_inline)) void mcu_widen16(const int8_t *src, int32_t n, uint32_t *cols)
{
    uint32_t a, b, c, d, e, f, g, h;
    const int8_t *const end = src + n;
    __asm__ volatile(
        "1:\n\t"
        MCU_WIDEN16_PASS_
        "cmp %[src], %[end]\n\t"
        "bne 1b"
        : [src] "+r"(src), [cols] "+r"(cols), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [d] "=&r"(d), [e] "=&r"(e),
          [f] "=&r"(f), [g] "=&r"(g), [h] "=&r"(h)
        : [end] "r"(end), [at] "i"(2 * MCU_HALF_BLOCK * 4)
        : "cc", "memory");
}

/* mcu_widen16 of k_h rows of `row` bytes (a multiple of 16), `pitch` apart from `src`, one after the other into
 * `cols`, in one loop of assembly: a row's end moves the source on to the next with the row's registers,
 * its step read from the stack (every register but two holds a pass's values), where a call a row cost ~12
 * cycles a row (ResNet-8's 3x3 layers of 16 channels: a third of their widening). */
static inline __attribute__((always_inline)) void mcu_widen_rows16(const int8_t *src, int32_t pitch, int32_t k_h,
                                                                  int32_t row, uint32_t *cols)
{
    uint32_t a, b, c, d, e, f, g, h;
    const int8_t *end = src + row;
    int32_t rows = k_h;
    const int32_t skip = pitch - row;
    __asm__ volatile(
        "1:\n\t"
        MCU_WIDEN16_PASS_
        "cmp %[src], %[end]\n\t"
        "bne 1b\n\t"
        "ldr %[a], %[rows]\n\t"
        "subs %[a], %[a], #1\n\t"
        "beq 2f\n\t"
        "str %[a], %[rows]\n\t"
        "ldr %[a], %[skip]\n\t"
        "add %[src], %[src], %[a]\n\t"
        "ldr %[a], %[pitch]\n\t"
        "add %[end], %[end], %[a]\n\t"
        "b 1b\n\t"
        "2:"
        : [src] "+r"(src), [cols] "+r"(cols), [end] "+r"(end), [rows] "+m"(rows), [a] "=&r"(a), [b] "=&r"(b),
          [c] "=&r"(c), [d] "=&r"(d), [e] "=&r"(e), [f] "=&r"(f), [g] "=&r"(g), [h] "=&r"(h)
        : [skip] "m"(skip), [pitch] "m"(pitch), [at] "i"(2 * MCU_HALF_BLOCK * 4)
        : "cc", "memory");
}

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
    uint32_t a, b, e, f;
    if (n & 8) {
        __asm__ volatile(
            "ldr %[b], [%[src], #4]\n\t"
            "ldr %[a], [%[src]], #8\n\t"
            MCU_WIDEN_WORD_("a", "e") MCU_WIDEN_WORD_("b", "f")
            MCU_STORE_PAIR_("a", "e", "0") MCU_STORE_PAIR_("b", "f", "%c[at]")
            "add %[cols], %[cols], #2 * %c[at]"
            : [src] "+r"(src), [cols] "+r"(cols), [a] "=&r"(a), [b] "=&r"(b), [e] "=&r"(e), [f] "=&r"(f)
            : [at] "i"(2 * MCU_HALF_BLOCK * 4)
            : "memory");
    }
    if (n >= 16) {
        mcu_widen16(src, n & ~15, cols);
    }
}

/*
 * The widened patch of k_h kernel rows of `row` bytes, `pitch` apart from `first`, in the order mcugen
 * lays the filter out in (kernels/layouts.py patch_order): every row's whole words, row after row, straight into
 * the block's interleaved `cols`, then the bytes past them (row % 4 of each row) gathered into `tails`
 * and widened after, up to K rounded up to whole words (a first layer's 3x3x3 patch: six words and one,
 * mcu_widen_first3x3 where it lies inside the image). The gather goes forward a byte at a time, so `tails`
 * may be `first` itself when that is a gathered patch (pitch = row): no byte is overwritten before it is read.
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
 * mcu_widen_rows of a 3x3 kernel over 3 channels (most image models' first layer) inside the image, in
 * assembly: six words, the three bytes past them as a seventh (its fourth value meets a zero weight), all
 * loaded back to back, then widened and stored a run of single stores at a time: ~45 cycles on the M4
 * where mcu_widen_rows' loops took ~74.
 */
static inline __attribute__((always_inline)) void mcu_widen_first3x3(const int8_t *corner, int32_t pitch,
                                                                    uint32_t *cols)
{
    const int8_t *p1, *p2;
    uint32_t a, b, c, d, e, f, g;
    __asm__ volatile(
        "add %[p1], %[src], %[pitch]\n\t"
        "add %[p2], %[p1], %[pitch]\n\t"
        "ldr %[a], [%[src]]\n\t"
        "ldr %[b], [%[src], #4]\n\t"
        "ldr %[c], [%[p1]]\n\t"
        "ldr %[d], [%[p1], #4]\n\t"
        "ldr %[e], [%[p2]]\n\t"
        "ldr %[f], [%[p2], #4]\n\t"
        "ldrb %[g], [%[src], #8]\n\t"
        "ldrb %[src], [%[p1], #8]\n\t"
        "ldrb %[p1], [%[p2], #8]\n\t"
        "orr %[g], %[g], %[src], lsl #8\n\t"
        "orr %[g], %[g], %[p1], lsl #16\n\t"
        MCU_WIDEN_WORD_("a", "src") MCU_WIDEN_WORD_("b", "p1") MCU_WIDEN_WORD_("c", "p2")
        MCU_STORE_PAIR_("a", "src", "0") MCU_STORE_PAIR_("b", "p1", "%c[at]") MCU_STORE_PAIR_("c", "p2", "2 * %c[at]")
        MCU_WIDEN_WORD_("d", "src") MCU_WIDEN_WORD_("e", "p1") MCU_WIDEN_WORD_("f", "p2")
        MCU_STORE_PAIR_("d", "src", "3 * %c[at]") MCU_STORE_PAIR_("e", "p1", "4 * %c[at]")
        MCU_STORE_PAIR_("f", "p2", "5 * %c[at]")
        MCU_WIDEN_WORD_("g", "src") MCU_STORE_PAIR_("g", "src", "6 * %c[at]")
        : [src] "+&r"(corner), [p1] "=&r"(p1), [p2] "=&r"(p2), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c),
          [d] "=&r"(d), [e] "=&r"(e), [f] "=&r"(f), [g] "=&r"(g)
        : [pitch] "r"(pitch), [cols] "r"(cols), [at] "i"(2 * MCU_HALF_BLOCK * 4)
        : "memory");
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
static inline __attribute__((always_inline)) void mcu_widen_window(const int8_t *corner, int32_t pitch,
                                                                   int32_t k_h, int32_t row, int32_t k4,
                                                                   int8_t *patch, uint32_t *cols)
{
    if (row % 16 == 0) {  /* the 3x3 layers of 16, 32, 64... channels */
        mcu_widen_rows16(corner, pitch, k_h, row, cols);
        return;
    }
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
