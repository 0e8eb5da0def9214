#include "mcu_nn_dsp.h"

/*
 * CONV_2D for cores with the DSP extension: the results of src/mcu_conv2d_s8.c, on constants
 * mcugen lays out for it (the filter with 3 spare bytes, the channel table) and scratch.
 *
 * Output positions go MCU_CONV_BLOCK at a time. Each position's kernel patch (the taps times the
 * input channels, K values, padded to K4 = K rounded up to 4) is widened once into int16 with the
 * input offset added, in the order SMLAD pairs it with SXTB16-unpacked weights: of every four
 * values, (v0, v2) then (v1, v3). Out-of-image taps and the padding lanes hold 0, exactly what
 * skipping them gives. The block's patches are interleaved four values at a time, so the inner
 * loop reads one word of weights, unpacks it once, and runs it against all positions with
 * consecutive loads: per four values and six positions, 3 instructions for the weights, 6 double
 * loads and 12 SMLAD (24 MACs). A 1x1 kernel without padding whose channels are a multiple of 4
 * reads the input pixels directly; other kernels first gather the patch as int8 (word copies
 * per in-image kernel row). Weight rows are K apart; the word read past a row's end meets a zero
 * lane, and mcugen emits the filter with 3 spare bytes so that the last row's stays inside it.
 *
 * scratch: MCU_CONV_BLOCK * K4 int16, then K4 bytes (mcugen plans it: ops/conv_2d.py conv_scratch_bytes).
 */

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

/* The K4-byte patch of the output position whose window starts at (y0, x0); `fill` = -input_offset. */
static void gather_patch(const mcu_conv_params *conv, const mcu_dims *input_dims, const int8_t *image,
                         const mcu_dims *filter_dims, int32_t y0, int32_t x0, int32_t k4, int8_t *patch)
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
    memset(patch + k_h * row, fill, (size_t)(k4 - k_h * row));
}

/* Widens K4 values into slot `slot` of the block's interleaved patches. */
static void widen_patch(const int8_t *src, int32_t k4, int16x2_t offset, uint32_t *cols)
{
    for (int32_t k = 0; k < k4; k += 4, src += 4, cols += 2 * MCU_CONV_BLOCK) {
        const uint32_t v = mcu_load4(src);
        cols[0] = (uint32_t)__sadd16(mcu_even_bytes(v), offset);
        cols[1] = (uint32_t)__sadd16(mcu_odd_bytes(v), offset);
    }
}

/*
 * All output channels of `count` <= MCU_CONV_BLOCK positions, from their widened patches; the
 * output of position p goes to out[p * out_c + c]. Positions past `count` compute on stale
 * scratch and are not stored.
 */
static void block_channels(const mcu_conv_params *conv, const mcu_channel *channels, const uint32_t *cols,
                           int32_t count, int32_t taps, int32_t k4, int32_t out_c, const int8_t *filter,
                           const int32_t *bias, int8_t *out)
{
    const int32_t offset = conv->output_offset;
    const mcu_activation act = conv->activation;
    for (int32_t c = 0; c < out_c; ++c) {
        const int8_t *w = filter + c * taps;
        const int32_t start = bias ? bias[c] : 0;
        int32_t a0 = start, a1 = start, a2 = start, a3 = start, a4 = start, a5 = start;
        const uint32_t *x = cols, *const end = cols + (k4 / 4) * 2 * MCU_CONV_BLOCK;
        uint32_t v, odd, lo, hi;
        /* In assembly because GCC splits the pair loads (LDRD) under this register pressure:
         * 13 live registers, 23 instructions per 24 MACs. k4 >= 4, so the loop runs at least once. */
        __asm__ volatile(
            "1:\n\t"
            "ldr %[v], [%[w]], #4\n\t"
            "sxtb16 %[odd], %[v], ror #8\n\t"
            "sxtb16 %[v], %[v]\n\t"
            "ldrd %[lo], %[hi], [%[x]], #8\n\t"
            "smlad %[a0], %[lo], %[v], %[a0]\n\t"
            "smlad %[a0], %[hi], %[odd], %[a0]\n\t"
            "ldrd %[lo], %[hi], [%[x]], #8\n\t"
            "smlad %[a1], %[lo], %[v], %[a1]\n\t"
            "smlad %[a1], %[hi], %[odd], %[a1]\n\t"
            "ldrd %[lo], %[hi], [%[x]], #8\n\t"
            "smlad %[a2], %[lo], %[v], %[a2]\n\t"
            "smlad %[a2], %[hi], %[odd], %[a2]\n\t"
            "ldrd %[lo], %[hi], [%[x]], #8\n\t"
            "smlad %[a3], %[lo], %[v], %[a3]\n\t"
            "smlad %[a3], %[hi], %[odd], %[a3]\n\t"
            "ldrd %[lo], %[hi], [%[x]], #8\n\t"
            "smlad %[a4], %[lo], %[v], %[a4]\n\t"
            "smlad %[a4], %[hi], %[odd], %[a4]\n\t"
            "ldrd %[lo], %[hi], [%[x]], #8\n\t"
            "smlad %[a5], %[lo], %[v], %[a5]\n\t"
            "smlad %[a5], %[hi], %[odd], %[a5]\n\t"
            "cmp %[x], %[end]\n\t"
            "bne 1b"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [a4] "+r"(a4), [a5] "+r"(a5),
              [x] "+r"(x), [w] "+r"(w), [v] "=&r"(v), [odd] "=&r"(odd), [lo] "=&r"(lo), [hi] "=&r"(hi)
            : [end] "r"(end)
            : "cc", "memory");
        /* The epilogue reads the channel and layer constants from locals: through the int8 stores
         * below (which may alias anything) GCC would reload all six per output. A full block
         * (every block but a layer's last) is unrolled on the registers the loop left. */
        const mcu_channel ch = channels[c];
        int8_t *o = out + c;
        if (ch.fast && count == MCU_CONV_BLOCK) {
            const int32_t acc[MCU_CONV_BLOCK] = {a0, a1, a2, a3, a4, a5};
#pragma GCC unroll 6
            for (int32_t p = 0; p < MCU_CONV_BLOCK; ++p) {
                o[p * out_c] = mcu_clamp_s8(mcu_requantize_fast(acc[p], ch.multiplier, ch.round, ch.right) + offset,
                                            act);
            }
        } else {
            const int32_t acc[MCU_CONV_BLOCK] = {a0, a1, a2, a3, a4, a5};
            for (int32_t p = 0; p < count; ++p) {
                o[p * out_c] = mcu_clamp_s8(mcu_channel_value(acc[p], &ch, ch.fast, offset), act);
            }
        }
    }
}

void mcu_conv2d_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                      const mcu_dims *input_dims, const int8_t *input,
                      const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                      const mcu_dims *output_dims, int8_t *output, int16_t *scratch)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t taps = filter_dims->h * filter_dims->w * in_c, k4 = (taps + 3) & ~3;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, out_c = output_dims->c;
    const int32_t positions = output_dims->n * out_h * out_w;
    /* padding.h < 0: a strip further down an unpadded image (mcu_conv2d_rows_s8_x6) */
    const int direct = filter_dims->h == 1 && filter_dims->w == 1 && conv->padding.h <= 0 && conv->padding.w == 0
                     && in_c % 4 == 0;
    const int16x2_t offset = mcu_both_halves(conv->input_offset);
    uint32_t *cols = (uint32_t *)(void *)scratch;
    int8_t *patch = (int8_t *)(cols + MCU_CONV_BLOCK * k4 / 2);

    for (int32_t first = 0; first < positions; first += MCU_CONV_BLOCK) {
        const int32_t count = positions - first < MCU_CONV_BLOCK ? positions - first : MCU_CONV_BLOCK;
        for (int32_t p = 0; p < count; ++p) {
            const int32_t q = first + p, ox = q % out_w, oy = (q / out_w) % out_h, b = q / (out_w * out_h);
            const int8_t *image = input + b * in_h * in_w * in_c;
            const int32_t y0 = oy * conv->stride.h - conv->padding.h, x0 = ox * conv->stride.w - conv->padding.w;
            const int8_t *src = image + (y0 * in_w + x0) * in_c;
            if (!direct) {
                gather_patch(conv, input_dims, image, filter_dims, y0, x0, k4, patch);
                src = patch;
            }
            widen_patch(src, k4, offset, cols + 2 * p);
        }
        block_channels(conv, channels, cols, count, taps, k4, out_c, filter, bias, output + first * out_c);
    }
}
