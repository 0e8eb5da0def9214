#include "mcu_nn_dw3_dsp.h"

/*
 * DEPTHWISE_CONV_2D 3x3, stride 1 or 2, no dilation, depth multiplier 1, on DSP cores: the contract
 * and results of mcu_depthwise_conv2d_s8, one channel at a time on constants mcugen lays out:
 *   filter:       [C][3][3] int8, kernel row r of channel c (kernel column r where the output is
 *                 taller than wide: mcu_dw3_layout, the window runs down the columns), made into the
 *                 pairs (w0, w1), (w1, w2) SMLAD multiplies a word of two adjacent inputs by once a
 *                 channel (mcu_dw3_pairs);
 *   bias_folded:  bias[c] + input_offset * sum of channel c's taps (as the x4 variant's), so the
 *                 window holds the raw inputs and pads with -input_offset;
 *   scratch:      the channel's padded window, win_rows x stride int16 (mcu_dw3_layout: stride = cols
 *                 rounded up to even, so that every pair of columns is one aligned word, or one less)
 *                 and 4 int16 of padding, or `windows` (4) such windows, then the int32
 *                 sums of a pass: min(MCU_DW3_CHUNK / sums_stride (at least 1), rows) * sums_stride + 8
 *                 (mcu_dw3_sums_x2, mcu_dw3_sums_stride2_x2).
 * Two horizontally adjacent outputs share their loads: with a = (x0, x1) and b = (x2, x3) of a
 * window row, the left output takes x0 w0 + x1 w1 (SMUAD/SMLAD a) + x2 w2 (SMLABT b), the right
 * one x1 w0 (SMLATB a) + x2 w1 + x3 w2 (SMLAD b): per pair of outputs, 6 loads and 12
 * multiplies for 18 MACs, every operand in a register. The sums go to the int32 scratch, then
 * one pass requantizes them with the channel's constants in registers. Passes run over whole
 * window rows, as if the image were one long row: the two outputs per row that straddle its end
 * are computed and dropped, and a row costs no loop set-up. Stride 2 (mcu_dw3_sums_stride2_x2) goes an
 * output row at a time: 18 MACs per nine loads of a row's words. The output may be the input (in
 * place): a channel's inputs are in its window before any of its outputs is written.
 */

/* The channel's window (mcu_dw3_fill), in a function of its own: inlined, it would crowd the
 * registers of the loops around it. */
static __attribute__((noinline)) void fill_window(const mcu_dw3_layout *l, const int8_t *input, int32_t fill,
                                                  int pads, uint32_t *window)
{
    mcu_dw3_fill(l, input, 1, fill, pads, window);
}

/* fill_windows4's assembly steps: a pixel's word split into its channels (a: 0, 2; b: 1, 3), and the four
 * channels' words (t, p0, u, p1: channels 0 to 3) stored into their windows (wa: 0 and 1, wb: 2 and 3). */
#define MCU_FILL4_SPLIT_ "ldr %[p0], [%[src]]\n\t" "sxtb16 %[a], %[p0]\n\t" "sxtb16 %[b], %[p0], ror #8\n\t"
#define MCU_FILL4_STORE_                                                                       \
    "str %[p0], [%[wa], %[off]]\n\t" "str %[p1], [%[wb], %[off]]\n\t" "str %[u], [%[wb]], #4\n\t" \
    "str %[t], [%[wa]], #4\n\t"

/* Four channels' windows (mcu_dw3_fill's, `words` int16 apart) from one pass over the image: a word of
 * input is a pixel's four channels, and two pixels' words give each channel's pair of them (SXTB16
 * splits a word into channels 0, 2 and 1, 3; PKHBT/PKHTB pair the pixels, or a pixel with the fill
 * beside a pad): 2.6 cycles a value on the M4 where a channel's bytes one at a time took 8 with its rows'
 * set-up. The layout's fields are read once into locals (the assembly's memory clobber would have GCC
 * reload them per row: a 6 x 6 layer's rows cost more than their values). */
static __attribute__((noinline)) void fill_windows4(const mcu_dw3_layout *l, const int8_t *input, int32_t fill,
                                                    int pads, int32_t words, uint32_t *window)
{
    const int32_t step = l->in_step, off = words * 2;  /* off: bytes between windows */
    const int32_t in_rows = l->in_rows, row_step = l->in_row_step, row_words = l->stride / 2;
    const int32_t pad = l->pad_len, pairs = (l->in_len - pad) / 2, odd = (l->in_len - pad) & 1;
    const uint32_t fill2 = mcu_pack2(fill, fill);
    uint32_t *const end = window + l->win_rows * row_words;
    for (int32_t iy = -l->pad_rows; window < end; ++iy) {
        uint32_t *const row_end = window + row_words;
        if (iy >= 0 && iy < in_rows) {
            const int8_t *src = input + iy * row_step;
            uint32_t *wa = window, *wb = window + words;
            uint32_t p0, p1, a, b, t, u;
            if (pad) {  /* the pad before the row's first pixel: (fill, pixel) */
                __asm__ volatile(
                    MCU_FILL4_SPLIT_
                    "add %[src], %[src], %[step]\n\t"
                    "pkhbt %[t], %[fill2], %[a], lsl #16\n\t"
                    "pkhtb %[u], %[a], %[fill2], asr #16\n\t"
                    "pkhbt %[p0], %[fill2], %[b], lsl #16\n\t"
                    "pkhtb %[p1], %[b], %[fill2], asr #16\n\t"
                    MCU_FILL4_STORE_
                    : [src] "+r"(src), [wa] "+r"(wa), [wb] "+r"(wb), [p0] "=&r"(p0), [p1] "=&r"(p1), [a] "=&r"(a),
                      [b] "=&r"(b), [t] "=&r"(t), [u] "=&r"(u)
                    : [step] "r"(step), [off] "r"(off), [fill2] "r"(fill2)
                    : "memory");
            }
            if (pairs) {
                uint32_t *const pairs_end = wa + pairs;
                __asm__ volatile(
                    "1:\n\t"
                    "ldr %[p1], [%[src], %[step]]\n\t"
                    "ldr %[p0], [%[src]]\n\t"
                    "add %[src], %[src], %[step], lsl #1\n\t"
                    "sxtb16 %[a], %[p0]\n\t"
                    "sxtb16 %[b], %[p1]\n\t"
                    "pkhbt %[t], %[a], %[b], lsl #16\n\t"
                    "pkhtb %[u], %[b], %[a], asr #16\n\t"
                    "sxtb16 %[a], %[p0], ror #8\n\t"
                    "sxtb16 %[b], %[p1], ror #8\n\t"
                    "pkhbt %[p0], %[a], %[b], lsl #16\n\t"
                    "pkhtb %[p1], %[b], %[a], asr #16\n\t"
                    MCU_FILL4_STORE_
                    "cmp %[wa], %[end]\n\t"
                    "bne 1b"
                    : [src] "+r"(src), [wa] "+r"(wa), [wb] "+r"(wb), [p0] "=&r"(p0), [p1] "=&r"(p1), [a] "=&r"(a),
                      [b] "=&r"(b), [t] "=&r"(t), [u] "=&r"(u)
                    : [step] "r"(step), [off] "r"(off), [end] "r"(pairs_end)
                    : "cc", "memory");
            }
            if (odd) {  /* the row's last pixel and the pad or stride after it: (pixel, fill) */
                __asm__ volatile(
                    MCU_FILL4_SPLIT_
                    "pkhbt %[t], %[a], %[fill2], lsl #16\n\t"
                    "pkhtb %[u], %[fill2], %[a], asr #16\n\t"
                    "pkhbt %[p0], %[b], %[fill2], lsl #16\n\t"
                    "pkhtb %[p1], %[fill2], %[b], asr #16\n\t"
                    MCU_FILL4_STORE_
                    : [wa] "+r"(wa), [wb] "+r"(wb), [p0] "=&r"(p0), [p1] "=&r"(p1), [a] "=&r"(a), [b] "=&r"(b),
                      [t] "=&r"(t), [u] "=&r"(u)
                    : [src] "r"(src), [off] "r"(off), [fill2] "r"(fill2)
                    : "memory");
            }
            window = wa;
        }
        if (!pads) {
            window = row_end;
        }
        for (; window < row_end; ++window) {
            for (int32_t k = 0; k < 4; ++k) {
                window[k * words / 2] = fill2;
            }
        }
    }
    for (int32_t k = 0; pads && k < 4; ++k) {
        window[k * words / 2] = window[k * words / 2 + 1] = fill2;
    }
}

/* `rows` rows of outputs from their sums (`stride` apart in acc), to out (mcu_dw3_layout's steps apart).
 * `fast` and `full` (the activation clamps nothing SSAT does not) are constants where this is inlined,
 * so that each copy has one path; the constants are locals, which the int8 stores would otherwise make
 * GCC reload per output. */
static inline __attribute__((always_inline)) void store_rows(
    const int32_t *acc, int32_t rows, const mcu_dw3_layout *l, int32_t bias, mcu_channel q, int32_t offset,
    mcu_activation act, int fast, int full, int8_t *out)
{
    const int32_t len = l->len, step = l->out_step, right = q.right, round = fast ? mcu_channel_round(&q) : 0;
    if (fast && full) {
        /* every row in one loop of assembly, two outputs a block: per output 9.5 cycles on the M4; a call a
         * row (GCC's loop around the blocks) cost ~40 cycles more a row, a quarter of a 6 x 6 layer. The sums
         * and `bias` come doubled (mcu_dw3_pairs), as the high multiply takes them: one instruction an output
         * less (VWW's channel-at-a-time layers: 8.5 cycles an output) */
        const int32_t acc_skip = (l->sums_stride - len) * 4, out_skip = l->out_row_step - len * step;
        int32_t rows_left = rows;
        const int32_t *a = acc;
        int8_t *o = out;
        const int32_t *e;
        int32_t s0, s1, t0, t1;
#define MCU_DW3_STORE2_                                      \
    "ldrd %[s0], %[s1], [%[a]], #8\n\t"                      \
    "add %[s0], %[s0], %[bias]\n\t"                          \
    "add %[s1], %[s1], %[bias]\n\t"                          \
    "smmlar %[t0], %[s0], %[m], %[round]\n\t"                \
    "smmlar %[t1], %[s1], %[m], %[round]\n\t"                \
    "add %[t0], %[t0], %[s0], asr #31\n\t"                   \
    "add %[t1], %[t1], %[s1], asr #31\n\t"                   \
    "asr %[t0], %[t0], %[right]\n\t"                         \
    "asr %[t1], %[t1], %[right]\n\t"                         \
    "ssat %[t0], #8, %[t0]\n\t"                              \
    "ssat %[t1], #8, %[t1]\n\t"                              \
    "strb %[t0], [%[o]]\n\t"                                 \
    "strb %[t1], [%[o], %[step]]\n\t"                        \
    "add %[o], %[o], %[step], lsl #1\n\t"
        /* a row: a pair of outputs if their count is odd, pairs of pairs, the last output if len is odd */
        __asm__ volatile(
            "1:\n\t"
            "tst %[len], #2\n\t"
            "beq 2f\n\t" MCU_DW3_STORE2_
            "2:\n\t"
            "bic %[e], %[len], #3\n\t"
            "add %[e], %[a], %[e], lsl #2\n\t"
            "cmp %[a], %[e]\n\t"
            "beq 4f\n\t"
            "3:\n\t" MCU_DW3_STORE2_ MCU_DW3_STORE2_
            "cmp %[a], %[e]\n\t"
            "bne 3b\n\t"
            "4:\n\t"
            "tst %[len], #1\n\t"
            "beq 5f\n\t"
            "ldr %[s0], [%[a]], #4\n\t"
            "add %[s0], %[s0], %[bias]\n\t"
            "smmlar %[t0], %[s0], %[m], %[round]\n\t"
            "add %[t0], %[t0], %[s0], asr #31\n\t"
            "asr %[t0], %[t0], %[right]\n\t"
            "ssat %[t0], #8, %[t0]\n\t"
            "strb %[t0], [%[o]]\n\t"
            "add %[o], %[o], %[step]\n\t"
            "5:\n\t"
            "ldr %[t0], %[acc_skip]\n\t"
            "ldr %[t1], %[out_skip]\n\t"
            "add %[a], %[a], %[t0]\n\t"
            "add %[o], %[o], %[t1]\n\t"
            "ldr %[t0], %[rows]\n\t"
            "subs %[t0], %[t0], #1\n\t"
            "str %[t0], %[rows]\n\t"
            "bne 1b"
            : [a] "+r"(a), [o] "+r"(o), [e] "=&r"(e), [s0] "=&r"(s0), [s1] "=&r"(s1), [t0] "=&r"(t0),
              [t1] "=&r"(t1), [rows] "+m"(rows_left)
            : [len] "r"(len), [bias] "r"(bias), [m] "r"(q.multiplier), [round] "r"(round), [right] "r"(right),
              [step] "r"(step), [acc_skip] "m"(acc_skip), [out_skip] "m"(out_skip)
            : "cc", "memory");
#undef MCU_DW3_STORE2_
        return;
    }
    for (int32_t r = 0; r < rows; ++r, acc += l->sums_stride, out += l->out_row_step) {
        int8_t *o = out;
#pragma GCC unroll 2
        for (int32_t ox = 0; ox < len; ++ox, o += step) {
            const int32_t sum = (int32_t)((uint32_t)acc[ox] + (uint32_t)bias);  /* wraps as the x4's */
            const int32_t v = fast ? mcu_requantize_fast(sum, q.multiplier, round, right)
                                   : mcu_requantize(sum, q.multiplier, -right) + offset;
            *o = full ? (int8_t)__ssat(v, 8) : mcu_clamp_s8(v, act);
        }
    }
}

void mcu_depthwise_conv2d_s8_x2(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const mcu_dims *filter_dims, const int8_t *filter,
                                 const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                 int16_t *scratch, int32_t windows)
{
    const int32_t step = dw->stride.h;
    const mcu_dw3_layout l = mcu_dw3_layout_of(input_dims, output_dims, dw->padding, step);
    const int32_t c = output_dims->c, rs = l.stride * 2, words = mcu_dw3_window_int16(&l);
    const int32_t group = windows == 4 && c >= 4 ? 4 : 1;
    const int32_t chunk = MCU_DW3_CHUNK / l.sums_stride > 0 ? MCU_DW3_CHUNK / l.sums_stride : 1;  /* rows a pass */
    const int32_t offset = dw->output_offset, fill = -dw->input_offset;
    const mcu_activation act = dw->activation;
    const int full = act.min <= -128 && act.max >= 127;
    int32_t *acc = (int32_t *)(void *)(scratch + group * words);
    (void)filter_dims;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        const int8_t *image = input + n * input_dims->h * input_dims->w * c;
        int8_t *out_image = output + n * output_dims->h * output_dims->w * c;
        for (int32_t first = 0, count; first < c; first += count) {
            /* four channels' windows at once, or (the last channels, or windows too big) one */
            count = group == 4 && c - first >= 4 ? 4 : 1;
            if (count == 4) {
                fill_windows4(&l, image + first, fill, n == 0 && first == 0, words, (uint32_t *)(void *)scratch);
            }
            for (int32_t ch = first; ch < first + count; ++ch) {
                int16_t *window = scratch + (count == 4 ? (ch - first) * words : 0);
                if (count == 1) {
                    fill_window(&l, image + ch, fill, n == 0 && ch == 0, (uint32_t *)(void *)window);
                }
                const mcu_channel q = channels[ch];
                const int32_t doubled = q.fast && full;  /* store_rows' assembly takes doubled sums */
                uint32_t w[6];
                mcu_dw3_pairs(filter + ch * 9, doubled, w);
                const int32_t bias = (int32_t)((uint32_t)bias_folded[ch] << doubled);
                /* a pass runs over whole window rows: the outputs of the pad columns are computed, not stored */
                for (int32_t oy = 0; oy < l.rows; oy += chunk) {
                    const int32_t n_rows = l.rows - oy < chunk ? l.rows - oy : chunk;
                    int8_t *out = out_image + ch + oy * l.out_row_step;
                    if (step == 1) {
                        mcu_dw3_sums_x2(window + oy * l.stride, rs, w, n_rows * l.stride / 2, acc);
                    } else {
                        mcu_dw3_sums_stride2_x2(window + 2 * oy * l.stride, rs, w, l.sums_stride / 2, n_rows, acc);
                    }
                    if (q.fast && full) {
                        store_rows(acc, n_rows, &l, bias, q, offset, act, 1, 1, out);
                    } else if (q.fast) {
                        store_rows(acc, n_rows, &l, bias, q, offset, act, 1, 0, out);
                    } else {
                        store_rows(acc, n_rows, &l, bias, q, offset, act, 0, 0, out);
                    }
                }
            }
        }
    }
}
