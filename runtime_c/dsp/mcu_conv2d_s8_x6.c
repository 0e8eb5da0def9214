#include "mcu_nn_dsp.h"

/*
 * CONV_2D for cores with the DSP extension: the results of src/mcu_conv2d_s8.c, on constants
 * mcugen lays out for it (the filter, the channel table) and scratch.
 *
 * Output positions go MCU_CONV_BLOCK at a time, as two half-blocks of HALF. Each position's kernel
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
 * (c's first four taps, c+1's, c's next four...), an odd last channel's words alone after them.
 * scratch: MCU_CONV_BLOCK * K8 int16, then K8 bytes (mcugen plans it: ops/conv_2d.py conv_scratch_bytes).
 */

#define HALF (MCU_CONV_BLOCK / 2)

/* Kernel rows copied a word at a time: unaligned words are allowed on ARMv7-M. */
static void copy_bytes(int8_t *dst, const int8_t *src, int32_t n)
{
    for (; n >= 4; n -= 4, dst += 4, src += 4) {
        const uint32_t v = mcu_load4(src);
        memcpy(dst, &v, sizeof v);
    }
    for (; n > 0; --n) {
        *dst++ = *src++;
    }
}

/* The K8-byte patch of the output position whose window starts at (y0, x0); `fill` = -input_offset. */
static void gather_patch(const mcu_conv_params *conv, const mcu_dims *input_dims, const int8_t *image,
                         const mcu_dims *filter_dims, int32_t y0, int32_t x0, int32_t k8, int8_t *patch)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w, row = k_w * in_c;
    const int32_t dil_h = conv->dilation.h, dil_w = conv->dilation.w;
    const int8_t fill = (int8_t)-conv->input_offset;
    const int whole_rows = dil_w == 1 && x0 >= 0 && x0 + k_w <= in_w;
    for (int32_t ky = 0; ky < k_h; ++ky) {
        const int32_t iy = y0 + ky * dil_h;
        int8_t *dst = patch + ky * row;
        if (iy < 0 || iy >= in_h) {
            memset(dst, fill, (size_t)row);
        } else if (whole_rows) {
            copy_bytes(dst, image + (iy * in_w + x0) * in_c, row);
        } else {
            for (int32_t kx = 0; kx < k_w; ++kx, dst += in_c) {
                const int32_t ix = x0 + kx * dil_w;
                if (ix >= 0 && ix < in_w) {
                    copy_bytes(dst, image + (iy * in_w + ix) * in_c, in_c);
                } else {
                    memset(dst, fill, (size_t)in_c);
                }
            }
        }
    }
    memset(patch + k_h * row, fill, (size_t)(k8 - k_h * row));
}

/* Widens K8 values into the block's interleaved patches: `cols` is the position's first pair, and a
 * half-block's positions are HALF * 2 words apart per four values. */
static void widen_patch(const int8_t *src, int32_t k8, int16x2_t offset, uint32_t *cols)
{
    for (int32_t k = 0; k < k8; k += 4, src += 4, cols += 2 * HALF) {
        const uint32_t v = mcu_load4(src);
        cols[0] = (uint32_t)__sadd16(mcu_even_bytes(v), offset);
        cols[1] = (uint32_t)__sadd16(mcu_odd_bytes(v), offset);
    }
}

/* Four values of one position against the unpacked weights of two channels (e0, o0 and e1, o1). */
#define POSITION(a0, a1)                                   \
    "ldrd %[lo], %[hi], [%[x]], #8\n\t"                    \
    "smlad %[" a0 "], %[lo], %[e0], %[" a0 "]\n\t"         \
    "smlad %[" a0 "], %[hi], %[o0], %[" a0 "]\n\t"         \
    "smlad %[" a1 "], %[lo], %[e1], %[" a1 "]\n\t"         \
    "smlad %[" a1 "], %[hi], %[o1], %[" a1 "]\n\t"

/* Four values of two channels (one word each, interleaved) against a half-block's three positions. */
#define FOUR_VALUES                                        \
    "ldrd %[e0], %[e1], [%[w]], #8\n\t"                    \
    "sxtb16 %[o0], %[e0], ror #8\n\t"                      \
    "sxtb16 %[e0], %[e0]\n\t"                              \
    "sxtb16 %[o1], %[e1], ror #8\n\t"                      \
    "sxtb16 %[e1], %[e1]\n\t"                              \
    POSITION("p0c0", "p0c1") POSITION("p1c0", "p1c1") POSITION("p2c0", "p2c1")

/* One output: requantized, offset, clamped. `fast` and `full` (the activation clamps nothing SSAT does
 * not) are constants where this is inlined. */
static inline __attribute__((always_inline)) int8_t output_of(int32_t sum, const mcu_channel *ch, int fast, int full,
                                                              int32_t offset, mcu_activation act)
{
    const int32_t v = mcu_channel_value(sum, ch, fast, offset);
    return full ? (int8_t)__ssat(v, 8) : mcu_clamp_s8(v, act);
}

/* Channel c's sums of `count` <= HALF positions to out (out_c apart). The constants are locals, passed
 * by value: through the int8 stores GCC would reload them per output. */
static inline __attribute__((always_inline)) void store_channel(
    mcu_channel ch, int32_t offset, mcu_activation act, int full, int32_t s0, int32_t s1, int32_t s2,
    int32_t count, int32_t out_c, int8_t *out)
{
    if (ch.fast && count == HALF && full) {
        out[0] = output_of(s0, &ch, 1, 1, offset, act);
        out[out_c] = output_of(s1, &ch, 1, 1, offset, act);
        out[2 * out_c] = output_of(s2, &ch, 1, 1, offset, act);
    } else if (ch.fast && count == HALF) {
        out[0] = output_of(s0, &ch, 1, 0, offset, act);
        out[out_c] = output_of(s1, &ch, 1, 0, offset, act);
        out[2 * out_c] = output_of(s2, &ch, 1, 0, offset, act);
    } else {
        const int32_t sums[HALF] = {s0, s1, s2};
        for (int32_t p = 0; p < count; ++p) {
            out[p * out_c] = output_of(sums[p], &ch, ch.fast, 0, offset, act);
        }
    }
}

/*
 * All output channels of `count` <= HALF positions (a half-block), from their widened patches at
 * `cols`; the output of position p goes to out[p * out_c + c]. Positions past `count` compute on
 * stale scratch and are not stored.
 */
static void half_channels(const mcu_conv_params *conv, const mcu_channel *channels, const uint32_t *cols,
                          int32_t count, int32_t k8, int32_t out_c, const int8_t *filter, const int32_t *bias,
                          int8_t *out)
{
    const uint32_t *const end = cols + (k8 / 4) * 2 * HALF;
    const int32_t offset = conv->output_offset;
    const mcu_activation act = conv->activation;
    const int full = act.min <= -128 && act.max >= 127;
    int32_t c = 0;
    for (; c + 2 <= out_c; c += 2) {
        const int8_t *w = filter + c * k8;
        const int32_t b0 = bias ? bias[c] : 0, b1 = bias ? bias[c + 1] : 0;
        int32_t p0c0 = b0, p1c0 = b0, p2c0 = b0, p0c1 = b1, p1c1 = b1, p2c1 = b1;
        const uint32_t *x = cols;
        uint32_t e0, o0, e1, o1, lo, hi;
        /* In assembly because GCC splits the pair loads (LDRD) and spills under this register
         * pressure: all 14 allocatable registers are live, so the loop's end is read from the stack.
         * Per four values: 2 weight words, 3 x 2 input words, 12 SMLAD (24 MACs); k8 >= 8. */
        __asm__ volatile(
            "1:\n\t"
            FOUR_VALUES
            FOUR_VALUES
            "ldr %[lo], %[end]\n\t"
            "cmp %[x], %[lo]\n\t"
            "bne 1b"
            : [p0c0] "+r"(p0c0), [p1c0] "+r"(p1c0), [p2c0] "+r"(p2c0), [p0c1] "+r"(p0c1), [p1c1] "+r"(p1c1),
              [p2c1] "+r"(p2c1), [x] "+r"(x), [w] "+r"(w), [e0] "=&r"(e0), [o0] "=&r"(o0), [e1] "=&r"(e1),
              [o1] "=&r"(o1), [lo] "=&r"(lo), [hi] "=&r"(hi)
            : [end] "m"(end)
            : "cc", "memory");
        store_channel(channels[c], offset, act, full, p0c0, p1c0, p2c0, count, out_c, out + c);
        store_channel(channels[c + 1], offset, act, full, p0c1, p1c1, p2c1, count, out_c, out + c + 1);
    }
    if (c < out_c) {  /* the last of an odd count: its weights alone, a word per four values */
        const int8_t *w = filter + c * k8;
        const int32_t b = bias ? bias[c] : 0;
        int32_t a0 = b, a1 = b, a2 = b;
        for (const uint32_t *x = cols; x < end; x += 2 * HALF, w += 4) {
            const uint32_t v = mcu_load4(w);
            const int16x2_t even = mcu_even_bytes(v), odd = mcu_odd_bytes(v);
            a0 = __smlad((int16x2_t)x[1], odd, __smlad((int16x2_t)x[0], even, a0));
            a1 = __smlad((int16x2_t)x[3], odd, __smlad((int16x2_t)x[2], even, a1));
            a2 = __smlad((int16x2_t)x[5], odd, __smlad((int16x2_t)x[4], even, a2));
        }
        store_channel(channels[c], offset, act, full, a0, a1, a2, count, out_c, out + c);
    }
}

void mcu_conv2d_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                      const mcu_dims *input_dims, const int8_t *input,
                      const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                      const mcu_dims *output_dims, int8_t *output, int16_t *scratch)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t taps = filter_dims->h * filter_dims->w * in_c, k8 = (taps + 7) & ~7;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, out_c = output_dims->c;
    const int32_t positions = output_dims->n * out_h * out_w;
    /* padding.h < 0: a strip further down an unpadded image (mcu_conv2d_rows_s8_x6) */
    const int direct = filter_dims->h == 1 && filter_dims->w == 1 && conv->padding.h <= 0 && conv->padding.w == 0
                     && in_c % 8 == 0;
    const int16x2_t offset = mcu_both_halves(conv->input_offset);
    uint32_t *cols = (uint32_t *)(void *)scratch;
    int8_t *patch = (int8_t *)(cols + MCU_CONV_BLOCK * k8 / 2);

    for (int32_t first = 0; first < positions; first += MCU_CONV_BLOCK) {
        const int32_t count = positions - first < MCU_CONV_BLOCK ? positions - first : MCU_CONV_BLOCK;
        for (int32_t p = 0; p < count; ++p) {
            const int32_t q = first + p, ox = q % out_w, oy = (q / out_w) % out_h, b = q / (out_w * out_h);
            const int8_t *image = input + b * in_h * in_w * in_c;
            const int32_t y0 = oy * conv->stride.h - conv->padding.h, x0 = ox * conv->stride.w - conv->padding.w;
            const int8_t *src = image + (y0 * in_w + x0) * in_c;
            if (!direct) {
                gather_patch(conv, input_dims, image, filter_dims, y0, x0, k8, patch);
                src = patch;
            }
            widen_patch(src, k8, offset, cols + (p / HALF) * (k8 / 4) * 2 * HALF + (p % HALF) * 2);
        }
        for (int32_t h = 0; h * HALF < count; ++h) {
            const int32_t n = count - h * HALF < HALF ? count - h * HALF : HALF;
            half_channels(conv, channels, cols + h * (k8 / 4) * 2 * HALF, n, k8, out_c, filter, bias,
                          output + (first + h * HALF) * out_c);
        }
    }
}
