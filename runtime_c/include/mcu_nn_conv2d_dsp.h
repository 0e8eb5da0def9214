/*
 * The DSP CONV_2D kernels' shared body (mcu_conv2d_s8_x6, _s8_w16, _s4_x6, _s4_quads, the live and split forms: each
 * is mcu_conv2d_s8_dsp with its constant `wide` and `split`; mcu_nn_conv_dsp.h describes the blocking), a
 * template each kernel specialises: out of line, with `wide` and `split` variables, VWW's convs took 5.8%
 * more cycles on the M4 (measured), and one function holding every specialisation would put the flash of
 * all of them into every build.
 */
#ifndef MCU_NN_CONV2D_DSP_H
#define MCU_NN_CONV2D_DSP_H

#include "mcu_nn_conv_pairs_forms_dsp.h"
#include "mcu_nn_conv_quads_dsp.h"

/*
 * All output channels of `count` <= MCU_HALF_BLOCK positions (a half-block), from their widened patches
 * at `cols`; the output of position p goes to out[p * out_c + c]. Positions past `count` compute on
 * stale scratch and are not stored.
 */
static inline __attribute__((always_inline)) void mcu_conv_half_channels(
    const mcu_conv_params *conv, const mcu_channel *channels, const uint32_t *cols, int32_t count, int32_t k8,
    int32_t out_c, int32_t computed, const int16_t *live, const void *filter, const int32_t *bias, int8_t *out,
    int wide, int fast_pairs)
{
    const uint32_t *const end = cols + (k8 / 4) * 2 * MCU_HALF_BLOCK;
    const int32_t odd = k8 / 8 & 1; /* an odd eight of values before the loop's sixteens */
    const int32_t offset = conv->output_offset;
    const mcu_activation act = conv->activation;
    const int full = act.min <= -128 && act.max >= 127;
    /* pointers walk the channels: indices and their products would live on the stack around the loop */
    const int8_t *w = (const int8_t *)filter;
    const int16_t *w16 = (const int16_t *)filter;
    const int32_t *b = bias;
    const mcu_channel *ch = channels;
    const int16_t *lv = live;
    int8_t *o = out;
    if (fast_pairs && full && count == MCU_HALF_BLOCK && computed >= 2) {
        const mcu_pairs_job job = mcu_conv_pairs_job(cols, k8, bias, channels, out, out_c, filter, computed, live,
                                                     NULL, 0, 1, 0, wide);
        mcu_conv_pairs(&job, wide);
        o += computed / 2 * 2;  /* the loop below has nothing left */
    }
    for (int8_t *const pairs_end = out + computed / 2 * 2; o < pairs_end; w += (wide == MCU_FORM_S4 ? k8 : 2 * k8),
                                                                          w16 += 2 * k8, b += 2, ch += 2, o += 2,
                                                                          lv += 2) {
        if (wide == MCU_FORM_S4) {
            int32_t p0c0 = 0, p1c0 = 0, p2c0 = 0, p0c1 = 0, p1c1 = 0, p2c1 = 0;
            MCU_SUMS_2X3_S4(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
            mcu_conv_store_channel(ch[0], offset, act, full, mcu_s4_sum(b[0], p0c0), mcu_s4_sum(b[0], p1c0),
                                   mcu_s4_sum(b[0], p2c0), count, out_c, live ? out + lv[0] : o);
            mcu_conv_store_channel(ch[1], offset, act, full, mcu_s4_sum(b[1], p0c1), mcu_s4_sum(b[1], p1c1),
                                   mcu_s4_sum(b[1], p2c1), count, out_c, live ? out + lv[1] : o + 1);
            continue;
        }
        int32_t p0c0 = b[0], p1c0 = b[0], p2c0 = b[0], p0c1 = b[1], p1c1 = b[1], p2c1 = b[1];
        const int w16s = wide == MCU_FORM_W16;
        if (w16s && count == 1) {
            MCU_SUMS_2X1_W16(cols, end, w16, p0c0, p0c1);
        } else if (w16s && count == 2) {
            MCU_SUMS_2X2_W16(cols, end, w16, p0c0, p0c1, p1c0, p1c1);
        } else if (w16s) {
            MCU_SUMS_2X3_W16(cols, end, odd, w16, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
        } else if (wide == MCU_FORM_TWIN) {
            p0c1 = p1c1 = p2c1 = mcu_twin_start(b[0], b[1]);
            MCU_SUMS_2X3_TWIN(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
            p0c1 = mcu_twin_odd(p0c1, p0c0), p1c1 = mcu_twin_odd(p1c1, p1c0), p2c1 = mcu_twin_odd(p2c1, p2c0);
        } else {
            MCU_SUMS_2X3(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
        }
        const int h0 = w16s && ch[0].fast == 2, h1 = w16s && ch[1].fast == 2;  /* doubled sums halved */
        mcu_conv_store_channel(ch[0], offset, act, full, p0c0 >> h0, p1c0 >> h0, p2c0 >> h0, count, out_c,
                               live ? out + lv[0] : o);
        mcu_conv_store_channel(ch[1], offset, act, full, p0c1 >> h1, p1c1 >> h1, p2c1 >> h1, count, out_c,
                               live ? out + lv[1] : o + 1);
    }
    const int32_t c = computed / 2 * 2;
    if (c < computed) {  /* the last of an odd count: its weights alone, a word per four values */
        int32_t a0 = bias[c], a1 = bias[c], a2 = bias[c];
        if (wide == MCU_FORM_S4) {
            int32_t s0 = 0, s1 = 0, s2 = 0;
            mcu_sums_1x3(cols, end, (const int8_t *)filter + c / 2 * k8, MCU_FORM_S4, &s0, &s1, &s2);
            a0 = mcu_s4_sum(a0, s0), a1 = mcu_s4_sum(a1, s1), a2 = mcu_s4_sum(a2, s2);
        } else {  /* twin words' odd channel: int8 words, as x6_filter's */
            const int form = wide == MCU_FORM_TWIN ? MCU_FORM_S8 : wide;
            mcu_sums_1x3(cols, end, (const int8_t *)filter + c * k8 * (form == MCU_FORM_W16 ? 2 : 1), form, &a0, &a1,
                         &a2);
            const int h = form == MCU_FORM_W16 && channels[c].fast == 2;  /* doubled sums halved */
            a0 >>= h, a1 >>= h, a2 >>= h;
        }
        mcu_conv_store_channel(channels[c], offset, act, full, a0, a1, a2, count, out_c, out + (live ? live[c] : c));
    }
}

static inline __attribute__((always_inline)) void mcu_conv2d_s8_dsp(
    const mcu_conv_params *conv, const mcu_channel *channels, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const void *filter, const int32_t *bias, const int16_t *live, const int8_t *pruned,
    const mcu_dims *output_dims, int8_t *output, int16_t *scratch, int wide, int split)
{
    /* copies: the widening's assembly may write any memory, so GCC would reload every field through its
     * pointer per position (VWW's first layer: ~40 cycles a position) */
    const mcu_conv_params cv = *conv;
    const mcu_dims in_dims = *input_dims, f_dims = *filter_dims, out_dims = *output_dims;
    conv = &cv, input_dims = &in_dims, filter_dims = &f_dims, output_dims = &out_dims;
    const int32_t taps = filter_dims->h * filter_dims->w * input_dims->c, k4 = (taps + 3) & ~3, k8 = (taps + 7) & ~7;
    const int32_t out_c = output_dims->c, positions = output_dims->n * output_dims->h * output_dims->w;
    const int direct = mcu_conv_direct(conv, filter_dims, input_dims->c);
    uint32_t *cols = (uint32_t *)(void *)scratch;
    int8_t *patch = (int8_t *)(cols + MCU_CONV_BLOCK * k8 / 2);

    const int8_t fill = (int8_t)-conv->input_offset;
    /* windows inside the image skip mcu_gather_patch: first layers with 1-3 channels spent most of their
     * time there */
    const int32_t in_c = input_dims->c, in_w = input_dims->w, in_h = input_dims->h;
    const int32_t row = filter_dims->w * in_c, pitch = conv->dilation.h * in_w * in_c;
    const int32_t last_row = (filter_dims->h - 1) * conv->dilation.h, last_col = filter_dims->w - 1;
    const int windows = !direct && conv->dilation.w == 1 && pitch >= 4 && row >= 2;
    /* a 1x1 stride-1 conv reads position p's pixel at p * in_c (a strip's rows start -padding.h rows down) */
    const int contiguous = direct && conv->stride.h == 1 && conv->stride.w == 1 &&
                           (input_dims->n == 1 || conv->padding.h == 0);
    const int8_t *const pixels = input - conv->padding.h * in_w * in_c;
    mcu_conv_pad_tails(taps, k8, fill, patch, cols);
    const int32_t computed = live != NULL ? filter_dims->n : out_c;
    /* every channel the pairs cover fast (doubled, on widened weights): mcu_conv_pairs requantizes them all so */
    int fast_pairs = 1;
    for (int32_t c = 0; c < computed / 2 * 2; ++c) {
        fast_pairs &= channels[c].fast == (wide == MCU_FORM_W16 ? 2 : 1);
    }
    uint32_t *dsts[MCU_CONV_BLOCK];  /* each position's first pair: the division by MCU_HALF_BLOCK once */
    for (int32_t p = 0; p < MCU_CONV_BLOCK; ++p) {
        dsts[p] = mcu_conv_cols_of(cols, p, k8);
    }
    int32_t first = 0;
    const int full = conv->activation.min <= -128 && conv->activation.max >= 127;
    /* every channel in mcu_conv_pairs's pairs: whole half-blocks widened there too, where their inputs lie
     * in a row (VWW's K = 8..32 pointwise layers and its first layer spent more on the block loop's tests
     * and a call per half-block than in their sums) */
    const int quads = wide == MCU_FORM_S4_QUADS;
    const int pairs = !quads && fast_pairs && full && computed >= 2 && computed % 2 == 0;
    if (contiguous && pairs) {
        const int32_t half_blocks = positions / MCU_HALF_BLOCK;
        mcu_pairs_job job = mcu_conv_pairs_job(cols, k8, bias, channels, output, out_c, filter, computed, live, pixels,
                                               in_c, half_blocks, 0, wide);
        /* the loop runs at least one half-block: a strip of one or two positions (a residual's last row
         * of a one-column image) has none */
        if (live == NULL && half_blocks > 0) {
            mcu_conv_pairs(&job, wide);
        }
        /* pruned channels' outputs are written between a half-block's widening and its sums (in place, they
         * may overwrite its pixels): a call a half-block */
        job.src = NULL, job.half_blocks = 1;
        for (int32_t h = 0; live != NULL && h < half_blocks; ++h) {
            const int8_t *const px = pixels + h * MCU_HALF_BLOCK * in_c;
            mcu_conv_widen_patch(px, k4, dsts[0]);
            mcu_conv_widen_patch(px + in_c, k4, dsts[1]);
            mcu_conv_widen_patch(px + 2 * in_c, k4, dsts[2]);
            job.out = output + h * MCU_HALF_BLOCK * out_c;
            for (int32_t p = 0; p < MCU_HALF_BLOCK; ++p) {
                memcpy(job.out + p * out_c, pruned, (size_t)out_c);
            }
            mcu_conv_pairs(&job, wide);
        }
        first = half_blocks * MCU_HALF_BLOCK;
    }
    /* a first layer's windows inside the image along an output row (up to x_end) go a run of half-blocks a
     * call, mcu_conv_pairs widening them (mcu_widen_first3x3's order) */
    const int first3x3 = pairs && live == NULL && split && windows && filter_dims->h == 3 && row == 9;
    const int32_t inside = in_w - 1 - last_col + conv->padding.w;
    const int32_t x_end = inside < 0 ? 0 : inside / conv->stride.w + 1 < output_dims->w ? inside / conv->stride.w + 1
                                                                                          : output_dims->w;
    mcu_position at = {0, 0, 0};
    while (first < positions) {
        const int32_t top = at.y * conv->stride.h - conv->padding.h;
        if (first3x3 && x_end - at.x >= MCU_HALF_BLOCK && top >= 0 && top + last_row < in_h &&
            at.x * conv->stride.w >= conv->padding.w) {
            const int32_t run = (x_end - at.x) / MCU_HALF_BLOCK * MCU_HALF_BLOCK;
            const int8_t *const corner = input + ((at.b * in_h + top) * in_w + at.x * conv->stride.w -
                                                  conv->padding.w) * in_c;
            const mcu_pairs_job job = mcu_conv_pairs_job(cols, k8, bias, channels, output + first * out_c, out_c,
                                                         filter, computed, NULL, corner, conv->stride.w * in_c,
                                                         run / MCU_HALF_BLOCK, pitch, wide);
            mcu_conv_pairs(&job, wide);
            at.x += run - 1;  /* the last one's next: perhaps the next row's first */
            mcu_position_next(&at, output_dims);
            first += run;
            continue;
        }
        /* with runs, a block ends with its row, so that the next row's run starts at its first position */
        const int32_t room = first3x3 && output_dims->w - at.x < MCU_CONV_BLOCK ? output_dims->w - at.x
                                                                                : MCU_CONV_BLOCK;
        const int32_t count = positions - first < room ? positions - first : room;
        const int32_t left = at.x * conv->stride.w - conv->padding.w;
        int32_t done = 0;
        if (windows && !split && at.x + count <= x_end && top >= 0 && top + last_row < in_h && left >= 0) {
            /* the block's windows lie inside the image along one output row: one corner, no bounds a position
             * (ResNet-8's 3x3 layers of 16 channels: ~40 cycles a position) */
            const int8_t *corner = input + ((at.b * in_h + top) * in_w + left) * in_c;
            for (; done < count; ++done, corner += conv->stride.w * in_c) {
                mcu_widen_window(corner, pitch, filter_dims->h, row, k4, patch, dsts[done]);
            }
            at.x += count - 1;
            mcu_position_next(&at, output_dims);
        }
        for (int32_t p = done; p < count; ++p, mcu_position_next(&at, output_dims)) {
            uint32_t *dst = dsts[p];
            if (contiguous) {
                mcu_conv_widen_patch(pixels + (first + p) * in_c, k4, dst);
                continue;
            }
            const int32_t y0 = at.y * conv->stride.h - conv->padding.h, x0 = at.x * conv->stride.w - conv->padding.w;
            if (windows && y0 >= 0 && y0 + last_row < in_h && x0 >= 0 && x0 + last_col < in_w) {
                const int8_t *corner = input + ((at.b * in_h + y0) * in_w + x0) * in_c;
                if (split && filter_dims->h == 3 && row == 9) {  /* most image models' first layer */
                    mcu_widen_first3x3(corner, pitch, dst);
                } else if (split) {
                    mcu_widen_rows(corner, pitch, filter_dims->h, row, patch, dst);
                } else {
                    mcu_widen_window(corner, pitch, filter_dims->h, row, k4, patch, dst);
                }
                continue;
            }
            const int8_t *src = (const int8_t *)mcu_patch_of(conv, input_dims, input, filter_dims, at, k8, 1, fill,
                                                             direct, patch);
            if (split) {
                mcu_widen_rows(src, row, filter_dims->h, row, patch, dst);
            } else {
                mcu_conv_widen_patch(src, k4, dst);
            }
        }
        /* pruned channels' outputs, written once the block's patches are read (the conv may run in place) */
        for (int32_t p = 0; live != NULL && p < count; ++p) {
            memcpy(output + (first + p) * out_c, pruned, (size_t)out_c);
        }
        if (quads) {
            mcu_conv_block_quads(dsts, count, k8, out_c, (const uint32_t *)filter, bias, channels, conv->activation,
                                 output + first * out_c);
        }
        for (int32_t h = 0; !quads && h * MCU_HALF_BLOCK < count; ++h) {
            const int32_t n = count - h * MCU_HALF_BLOCK < MCU_HALF_BLOCK ? count - h * MCU_HALF_BLOCK : MCU_HALF_BLOCK;
            mcu_conv_half_channels(conv, channels, cols + h * (k8 / 4) * 2 * MCU_HALF_BLOCK, n, k8, out_c, computed,
                                   live, filter, bias, output + (first + h * MCU_HALF_BLOCK) * out_c, wide, fast_pairs);
        }
        first += count;
    }
}

/* A ResNet chain's strip (mcu_conv2d_conv2d_add_s8_x6 and its shortcut form): the second conv's output rows
 * [oy, oy + n) into tile, from the first conv's rows they read, held in `rows` (held: what it holds). */
static inline void mcu_chain_strip(const mcu_conv_params *conv, const mcu_channel *channels,
                                   const mcu_dims *input_dims, const int8_t *input, const mcu_dims *filter_dims,
                                   const void *filter, int32_t filter_bits, const int32_t *bias,
                                   const mcu_dims *mid_dims, const mcu_conv_params *conv2,
                                   const mcu_channel *channels2, const mcu_dims *filter2_dims, const void *filter2,
                                   int32_t filter2_bits, const int32_t *bias2, const mcu_dims *output_dims,
                                   int32_t oy, int32_t n, int32_t *held, int16_t *scratch, int8_t *rows,
                                   int8_t *tile)
{
    const int32_t span = (filter2_dims->h - 1) * conv2->dilation.h + 1;
    mcu_conv_params one = *conv2;
    mcu_dims in;
    one.padding.h = mcu_conv2d_hold_rows_s8_x6(conv, channels, input_dims, input, filter_dims, filter, filter_bits,
                                               bias, mid_dims, oy * conv2->stride.h - conv2->padding.h,
                                               (n - 1) * conv2->stride.h + span, held, rows, scratch, &in);
    mcu_conv2d_rows_s8_x6(&one, channels2, &in, rows, filter2_dims, filter2, filter2_bits, bias2, output_dims, 0, n,
                          tile, scratch);
}

#endif
