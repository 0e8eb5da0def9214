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
 * bias: one per output channel, never NULL (mcugen emits zeros for a conv without one).
 * scratch: MCU_CONV_BLOCK * K8 int16, then K8 bytes (mcugen plans it: ops/conv_2d.py conv_scratch_bytes).
 */

#define HALF MCU_HALF_BLOCK

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
    /* pointers walk the channels: indices and their products would live on the stack around the loop */
    const int8_t *w = filter;
    const int32_t *b = bias;
    const mcu_channel *ch = channels;
    int8_t *o = out;
    for (int8_t *const pairs_end = out + out_c / 2 * 2; o < pairs_end; w += 2 * k8, b += 2, ch += 2, o += 2) {
        int32_t p0c0 = b[0], p1c0 = b[0], p2c0 = b[0], p0c1 = b[1], p1c1 = b[1], p2c1 = b[1];
        MCU_SUMS_2X3(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
        store_channel(ch[0], offset, act, full, p0c0, p1c0, p2c0, count, out_c, o);
        store_channel(ch[1], offset, act, full, p0c1, p1c1, p2c1, count, out_c, o + 1);
    }
    const int32_t c = out_c / 2 * 2;
    if (c < out_c) {  /* the last of an odd count: its weights alone, a word per four values */
        int32_t a0 = bias[c], a1 = bias[c], a2 = bias[c];
        mcu_sums_1x3(cols, end, filter + c * k8, &a0, &a1, &a2);
        store_channel(channels[c], offset, act, full, a0, a1, a2, count, out_c, out + c);
    }
}

void mcu_conv2d_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                      const mcu_dims *input_dims, const int8_t *input,
                      const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                      const mcu_dims *output_dims, int8_t *output, int16_t *scratch)
{
    const int32_t taps = filter_dims->h * filter_dims->w * input_dims->c, k8 = (taps + 7) & ~7;
    const int32_t out_c = output_dims->c, positions = output_dims->n * output_dims->h * output_dims->w;
    const int direct = mcu_conv_direct(conv, filter_dims, input_dims->c);
    const int16x2_t offset = mcu_both_halves(conv->input_offset);
    uint32_t *cols = (uint32_t *)(void *)scratch;
    int8_t *patch = (int8_t *)(cols + MCU_CONV_BLOCK * k8 / 2);

    for (int32_t first = 0; first < positions; first += MCU_CONV_BLOCK) {
        const int32_t count = positions - first < MCU_CONV_BLOCK ? positions - first : MCU_CONV_BLOCK;
        for (int32_t p = 0; p < count; ++p) {
            const int8_t *src = (const int8_t *)mcu_patch_of(conv, input_dims, input, filter_dims, output_dims,
                                                             first + p, k8, 1, (int8_t)-conv->input_offset, direct,
                                                             patch);
            widen_patch(src, k8, offset, cols + (p / HALF) * (k8 / 4) * 2 * HALF + (p % HALF) * 2);
        }
        for (int32_t h = 0; h * HALF < count; ++h) {
            const int32_t n = count - h * HALF < HALF ? count - h * HALF : HALF;
            half_channels(conv, channels, cols + h * (k8 / 4) * 2 * HALF, n, k8, out_c, filter, bias,
                          output + (first + h * HALF) * out_c);
        }
    }
}
