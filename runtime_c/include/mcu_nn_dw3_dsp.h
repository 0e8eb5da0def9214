/*
 * The 3x3 stride-1 depthwise kernels that go a channel at a time (mcu_depthwise_conv2d_s8_x2, _s16_x2).
 */
#ifndef MCU_NN_DW3_DSP_H
#define MCU_NN_DW3_DSP_H

#include "mcu_nn_dsp.h"

/*
 * The 3x3 stride-1 depthwise kernels that go a channel at a time (mcu_depthwise_conv2d_s8_x2, _s16_x2):
 * the channel's window as int16 pairs, then two outputs per load of each window row.
 *
 * Outputs (pad columns included) per pass of mcu_dw3_sums_x2: the size of the int32 part of their scratch,
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

/* One pair of outputs of mcu_dw3_sums_x2: three window rows' words against their weight pairs, both sums stored. */
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
void mcu_dw3_sums_x2(const int16_t *x, int32_t rs, const uint32_t w[6],
                  int32_t pairs, int32_t *acc);

#endif
