/*
 * The 3x3 depthwise kernels that go a channel at a time (mcu_depthwise_conv2d_s8_x2: stride 1 or 2;
 * _s16_x2: stride 1).
 */
#ifndef MCU_NN_DW3_DSP_H
#define MCU_NN_DW3_DSP_H

#include "mcu_nn_dsp.h"

/*
 * The 3x3 depthwise kernels that go a channel at a time (mcu_depthwise_conv2d_s8_x2, _s16_x2): the
 * channel's window as int16 pairs, then two outputs per load of each window row (stride 1,
 * mcu_dw3_sums_x2) or per three loads (stride 2, mcu_dw3_sums_stride2_x2).
 *
 * Outputs (pad columns included) per pass of mcu_dw3_sums_x2: the most the int32 part of their scratch
 * holds, less the pairs it may add (kernels/depthwise.py sizes it to a layer's rows).
 */
#define MCU_DW3_CHUNK 508

/* Two int16 as one word, the first in the low half: one PKHBT, which ACLE does not name and GCC 12.2 does not
 * make of the C (UXTH and ORR: two instructions). */
static inline uint32_t mcu_pack2(int32_t lo, int32_t hi)
{
    __asm__("pkhbt %0, %0, %1, lsl #16" : "+r"(lo) : "r"(hi));
    return (uint32_t)lo;
}

/* A channel's nine int8 taps (three kernel rows, or columns, of three) as the six weight pairs the sums take:
 * each row's (w0, w1) and (w1, w2), shifted left by `doubled` (0 or 1: twice the taps, which int16 holds, give
 * twice the sums, what the fast requantization's high multiply takes). Once a channel: a dozen instructions
 * against its window's hundreds of multiplies, where pairs laid out in flash cost 24 bytes a channel instead
 * of 9. */
static inline void mcu_dw3_pairs(const int8_t *taps, int32_t doubled, uint32_t w[6])
{
    for (int32_t r = 0; r < 3; ++r) {
        w[2 * r] = mcu_pack2(taps[3 * r] << doubled, taps[3 * r + 1] << doubled);
        w[2 * r + 1] = mcu_pack2(taps[3 * r + 1] << doubled, taps[3 * r + 2] << doubled);
    }
}

/*
 * Where a channel's window and outputs lie. The window runs along the image's longer side: rows of
 * the window are the image's columns where it is taller than wide (transposed; the filter's taps are
 * laid out transposed to match, kernels/layouts.py taps3x3), so that there are fewer, longer
 * rows, each paying its set-up once and wasting its pad outputs once (a 25 x 5 keyword-spotting layer:
 * 5 rows of 26 instead of 25 of 6). A row is `len` outputs and `stride` int16: the pad columns and the
 * row rounded up to even, or, with one pad column a side and an odd length, len + 1: a row's right pad
 * is the next one's left pad (the last row's lies after the window: two words of it). A row with a pad
 * before it and none after (a folded PAD's, a patch's at the image's left edge) fills len + 2 values: no
 * pad to share. With stride 2 a
 * window row is the inputs of len rounded up to even outputs (2 len + 1, rounded up to even), and the
 * pass's sums are that even length a row.
 */
typedef struct {
    int32_t rows, len, stride;        /* output rows, outputs a row, int16 a window row */
    int32_t win_rows, sums_stride;    /* window rows, int32 sums between output rows of a pass */
    int32_t in_rows, in_len;          /* the image's rows and pixels a row, in the window's orientation */
    int32_t pad_rows, pad_len;        /* padding before them */
    int32_t in_row_step, in_step;     /* values between image rows, between pixels of a row */
    int32_t out_row_step, out_step;   /* values between output rows, between outputs of a row */
} mcu_dw3_layout;

static inline mcu_dw3_layout mcu_dw3_layout_of(const mcu_dims *input_dims, const mcu_dims *output_dims,
                                               mcu_tile padding, int32_t step)
{
    const int t = output_dims->h > output_dims->w;
    const int32_t c = output_dims->c;
    mcu_dw3_layout l;
    l.rows = t ? output_dims->w : output_dims->h;
    l.len = t ? output_dims->h : output_dims->w;
    l.in_rows = t ? input_dims->w : input_dims->h;
    l.in_len = t ? input_dims->h : input_dims->w;
    l.pad_rows = t ? padding.w : padding.h;
    l.pad_len = t ? padding.h : padding.w;
    l.in_row_step = t ? c : input_dims->w * c;
    l.in_step = t ? input_dims->w * c : c;
    l.out_row_step = t ? c : output_dims->w * c;
    l.out_step = t ? output_dims->w * c : c;
    if (step == 1) {
        l.stride = l.pad_len == 1 && (l.len & 1) && l.in_len + 1 < l.len + 2 ? l.len + 1 : (l.len + 3) & ~1;
        l.win_rows = l.rows + 2;
        l.sums_stride = l.stride;
    } else {
        l.sums_stride = (l.len + 1) & ~1;
        l.stride = 2 * l.sums_stride + 2;
        l.win_rows = 2 * l.rows + 1;
    }
    return l;
}

/* A window's int16: its rows and the two words of fill after them. */
static inline int32_t mcu_dw3_window_int16(const mcu_dw3_layout *l)
{
    return l->win_rows * l->stride + 4;
}

/* The channel's window, a word (two columns) at a time: its rows from the image (values of `size`
 * bytes, 1 or 2), `fill` where a tap falls outside it, then two words of fill. A 3x3 window (stride 1
 * or 2) pads at most one column before a row (SAME), so a row is: the pad and the first pixel as one
 * word, or none; pairs of pixels; the last pixel and a pad; pads up to the stride. Words that hold no
 * pixel are the same for every channel: written only with `pads` (a kernel's first channel). `size`
 * is a constant where this is inlined. */
static inline __attribute__((always_inline)) void mcu_dw3_fill(const mcu_dw3_layout *l, const void *input,
                                                              int32_t size, int32_t fill, int pads,
                                                              uint32_t *window)
{
    const int32_t step = l->in_step * size, row_step = l->in_row_step * size;
    const uint32_t fill2 = mcu_pack2(fill, fill);
    uint32_t *const end = window + l->win_rows * l->stride / 2;
#define MCU_DW3_AT(p) (size == 1 ? (int32_t) * (const int8_t *)(p) : (int32_t) * (const int16_t *)(const void *)(p))
    for (int32_t iy = -l->pad_rows; window < end; ++iy) {
        uint32_t *const row_end = window + l->stride / 2;
        if (iy >= 0 && iy < l->in_rows) {
            /* even and odd pixels through two pointers: four loads back to back a pass */
            const int8_t *even = (const int8_t *)input + iy * row_step, *odd = even + step;
            int32_t n = l->in_len;
            if (l->pad_len) {
                *window++ = mcu_pack2(fill, MCU_DW3_AT(even));
                even = odd, odd += step;
                --n;
            }
            if (size == 1 && n >= 4) {  /* four pixels a pass in assembly: 15.7 cycles where GCC's took 19.5 */
                uint32_t *const words_end = window + n / 4 * 2;
                int32_t a, b, c, d;
                __asm__ volatile(
                    "1:\n\t"
                    "ldrsb %[a], [%[even]]\n\t"
                    "ldrsb %[b], [%[odd]]\n\t"
                    "ldrsb %[c], [%[even], %[s2]]\n\t"
                    "ldrsb %[d], [%[odd], %[s2]]\n\t"
                    "pkhbt %[a], %[a], %[b], lsl #16\n\t"
                    "pkhbt %[c], %[c], %[d], lsl #16\n\t"
                    "add %[even], %[even], %[s2], lsl #1\n\t"
                    "add %[odd], %[odd], %[s2], lsl #1\n\t"
                    "strd %[a], %[c], [%[w]], #8\n\t"
                    "cmp %[w], %[end]\n\t"
                    "bne 1b"
                    : [even] "+r"(even), [odd] "+r"(odd), [w] "+r"(window), [a] "=&r"(a), [b] "=&r"(b),
                      [c] "=&r"(c), [d] "=&r"(d)
                    : [s2] "r"(2 * step), [end] "r"(words_end)
                    : "cc", "memory");
                n &= 3;
            }
            for (; n >= 2; n -= 2, even += 2 * step, odd += 2 * step) {
                *window++ = mcu_pack2(MCU_DW3_AT(even), MCU_DW3_AT(odd));
            }
            if (n) {
                *window++ = mcu_pack2(MCU_DW3_AT(even), fill);
            }
        }
        if (!pads) {
            window = row_end;
        }
        while (window < row_end) {
            *window++ = fill2;
        }
    }
    if (pads) {
        window[0] = window[1] = fill2;
    }
#undef MCU_DW3_AT
}

/* A window row's two words of mcu_dw3_sums_x2 (d0 the first), its pointer a word on: the second loaded first on
 * the M4, which pipelines a load after another single load unless that one wrote its base back; elsewhere (the
 * M33) the first first, so that the SMUAD after them does not wait a cycle for the word just loaded. */
#if defined(__ARM_ARCH_7EM__)
#define MCU_DW3_ROW_WORDS_(x) "ldr %[d1], [" x ", #4]\n\t" "ldr %[d0], [" x "], #4\n\t"
#else
#define MCU_DW3_ROW_WORDS_(x) "ldr %[d0], [" x "], #4\n\t" "ldr %[d1], [" x "]\n\t"
#endif

/* One pair of outputs of mcu_dw3_sums_x2: three window rows' words against their weight pairs, both sums stored. */
#define MCU_DW3_PAIR_ \
    MCU_DW3_ROW_WORDS_("%[x0]") \
    "smuad %[a], %[d0], %[w0]\n\t" \
    "smultb %[b], %[d0], %[w0]\n\t" \
    "smlabt %[a], %[d1], %[w1], %[a]\n\t" \
    "smlad %[b], %[d1], %[w1], %[b]\n\t" \
    MCU_DW3_ROW_WORDS_("%[x1]") \
    "smlad %[a], %[d0], %[w2], %[a]\n\t" \
    "smlatb %[b], %[d0], %[w2], %[b]\n\t" \
    "smlabt %[a], %[d1], %[w3], %[a]\n\t" \
    "smlad %[b], %[d1], %[w3], %[b]\n\t" \
    MCU_DW3_ROW_WORDS_("%[x2]") \
    "smlad %[a], %[d0], %[w4], %[a]\n\t" \
    "smlatb %[b], %[d0], %[w4], %[b]\n\t" \
    "smlabt %[a], %[d1], %[w5], %[a]\n\t" \
    "smlad %[b], %[d1], %[w5], %[b]\n\t" \
    "strd %[a], %[b], [%[acc]], #8\n\t"

/* The sums of `pairs` (rounded up to a multiple of four) pairs of outputs whose windows start at x, x + 2, ... in the
 * window rows at x, x + rs and x + 2 rs (rs in bytes), into acc: w holds each kernel row's weights as
 * (w0, w1), (w1, w2). With a = (x0, x1) and b = (x2, x3) of a window row, the left output takes
 * x0 w0 + x1 w1 (SMUAD/SMLAD a) + x2 w2 (SMLABT b), the right one x1 w0 (SMLATB a) + x2 w1 + x3 w2
 * (SMLAD b): per pair of outputs, 6 loads and 12 multiplies for 18 MACs. */
void mcu_dw3_sums_x2(const int16_t *x, int32_t rs, const uint32_t w[6],
                  int32_t pairs, int32_t *acc);

/* Stride 2: the sums of `rows` output rows of 2 * `pairs` outputs each (the window rows at x, x + rs ...,
 * rs in bytes; output row r reads window rows 2r to 2r + 2), into acc, a row after another. w as
 * mcu_dw3_sums_x2's. With a = (x0, x1), b = (x2, x3) and c = (x4, x5) of a window row, the left output
 * takes x0 w0 + x1 w1 (SMUAD/SMLAD a) + x2 w2, the right one x2 w0 + x3 w1 (SMLAD b) + x4 w2: per pair
 * of outputs, 9 loads and 12 multiplies for 18 MACs. */
void mcu_dw3_sums_stride2_x2(const int16_t *x, int32_t rs, const uint32_t w[6], int32_t pairs, int32_t rows,
                             int32_t *acc);

#endif
