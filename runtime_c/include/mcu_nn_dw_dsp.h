/*
 * The DSP DEPTHWISE_CONV_2D kernel with depth multiplier 1, four channels at a time, for int16-widened
 * weights (mcu_depthwise_conv2d_s8_x4) and INT4 ones read packed (mcu_depthwise_conv2d_s4_x4: each
 * group's weights unpacked into the scratch past the window once, before its outputs).
 */
#ifndef MCU_NN_DW_DSP_H
#define MCU_NN_DW_DSP_H

#include "mcu_nn_dsp.h"
#include "mcu_nn_window.h"

/* Four accumulators, one per channel of a group. */
typedef struct {
    int32_t c0, c1, c2, c3;
} mcu_acc4;

/* acc += x * w for the four channels of one tap: a word of input from the group's window, the
 * tap's widened filter as two int16 pairs (channels 0, 2 and 1, 3). The input offset is in the
 * bias (see mcu_depthwise_conv2d_s8_x4). */
static inline void mcu_dw_tap(const int8_t *x, const int16_t *w, mcu_acc4 *acc)
{
    const uint32_t v = mcu_load4(x);
    const int16x2_t even = mcu_even_bytes(v), odd = mcu_odd_bytes(v);
    int16x2_t w_even, w_odd;
    memcpy(&w_even, w, sizeof w_even);
    memcpy(&w_odd, w + 2, sizeof w_odd);
    acc->c0 = __smlabb(even, w_even, acc->c0);
    acc->c2 = __smlatt(even, w_even, acc->c2);
    acc->c1 = __smlabb(odd, w_odd, acc->c1);
    acc->c3 = __smlatt(odd, w_odd, acc->c3);
}

/* One tap of mcu_dw_taps3x3: the word at [x, #xo] against the pair of filter words at [w, #wo]. */
#define MCU_DW_TAP_(xo, wo)                                  \
    "ldr %[v], [%[x], #" #xo "]\n\t"                \
    "ldr %[we], [%[w], #" #wo "]\n\t"               \
    "ldr %[wo], [%[w], #" #wo " + 4]\n\t"           \
    "sxtb16 %[e], %[v]\n\t"                         \
    "sxtb16 %[o], %[v], ror #8\n\t"                 \
    "smlabb %[a0], %[e], %[we], %[a0]\n\t"          \
    "smlatt %[a2], %[e], %[we], %[a2]\n\t"          \
    "smlabb %[a1], %[o], %[wo], %[a1]\n\t"          \
    "smlatt %[a3], %[o], %[wo], %[a3]\n\t"

/* The nine taps of a 3x3 kernel whose rows are row_step apart in the window: mcu_dw_tap() unrolled, in
 * assembly because GCC spills the weight pointer and the row offsets under this register
 * pressure (12 live registers: 9 instructions per tap). The three loads of a tap are single LDRs,
 * which the M4 pipelines (4 cycles), where an LDRD is never pipelined (5). */
#define MCU_DW_TAPS3X3_                                                             \
    MCU_DW_TAP_(0, 0) MCU_DW_TAP_(4, 8) MCU_DW_TAP_(8, 16) "add %[x], %[x], %[rs]\n\t" \
    MCU_DW_TAP_(0, 24) MCU_DW_TAP_(4, 32) MCU_DW_TAP_(8, 40) "add %[x], %[x], %[rs]\n\t" \
    MCU_DW_TAP_(0, 48) MCU_DW_TAP_(4, 56) MCU_DW_TAP_(8, 64)
static inline __attribute__((always_inline)) void mcu_dw_taps3x3(const int8_t *x, int32_t row_step, const int16_t *w, mcu_acc4 *acc)
{
    uint32_t v, e, o, we, wo;
    __asm__(MCU_DW_TAPS3X3_
            : [a0] "+r"(acc->c0), [a1] "+r"(acc->c1), [a2] "+r"(acc->c2), [a3] "+r"(acc->c3), [x] "+r"(x),
              [v] "=&r"(v), [e] "=&r"(e), [o] "=&r"(o), [we] "=&r"(we), [wo] "=&r"(wo)
            : [rs] "r"(row_step), [w] "r"(w)
            : "memory");
}

/* Output channel k requantized in place: its sum `a` with q[k]'s constants (mcu_fast_channel, 12 bytes: the
 * multiplier, its rounding term and right shift), the operands named by the caller's assembly: the constants'
 * pointer q, scratch m, r, sh and t. */
#define MCU_DW_REQUANTIZE_(a, k, q, m, r, sh, t)                  \
    "ldr %[" m "], [%[" q "], #" #k " * 12]\n\t"                  \
    "ldrd %[" r "], %[" sh "], [%[" q "], #" #k " * 12 + 4]\n\t"   \
    "lsl %[" t "], %[" a "], #1\n\t"                               \
    "smmlar %[" t "], %[" t "], %[" m "], %[" r "]\n\t"             \
    "add %[" t "], %[" t "], %[" a "], asr #31\n\t"                \
    "asr %[" a "], %[" t "], %[" sh "]\n\t"                        \
    "ssat %[" a "], #8, %[" a "]\n\t"

/* A group's four sums (a0-a3) requantized and packed into a0, a byte a channel. */
#define MCU_DW_REQUANTIZE4_(q, m, r, sh, t)                                                                   \
    MCU_DW_REQUANTIZE_("a0", 0, q, m, r, sh, t) MCU_DW_REQUANTIZE_("a1", 1, q, m, r, sh, t)                   \
    MCU_DW_REQUANTIZE_("a2", 2, q, m, r, sh, t) MCU_DW_REQUANTIZE_("a3", 3, q, m, r, sh, t)                   \
    "bfi %[a0], %[a1], #8, #8\n\t"                                                                          \
    "bfi %[a0], %[a2], #16, #8\n\t"                                                                         \
    "bfi %[a0], %[a3], #24, #8\n\t"

/* A group's four outputs at one position, every channel fast (mcu_requantize_fast), as one word clamped
 * to [min4, max4] (mcu_pack4's bounds): in assembly, each channel's constants read with one load and one
 * double load where GCC's code reloaded and spilled around them (about 4 cycles an output of four on the
 * M4: VWW's four-channel layers 1,203 K -> 1,183 K est. cycles), from the group's copy in RAM of them. */
static inline __attribute__((always_inline)) void mcu_dw_store4_fast(mcu_acc4 acc, const mcu_fast_channel q[4],
                                                                    uint32_t min4, uint32_t max4, int8_t *out)
{
    uint32_t m, r, sh, t;
    __asm__ volatile(
        MCU_DW_REQUANTIZE4_("q", "m", "r", "sh", "t")
        "ssub8 %[t], %[a0], %[lo]\n\t"
        "sel %[a0], %[a0], %[lo]\n\t"
        "ssub8 %[t], %[hi], %[a0]\n\t"
        "sel %[a0], %[a0], %[hi]\n\t"
        "str %[a0], [%[out]]"
        : [a0] "+&r"(acc.c0), [a1] "+&r"(acc.c1), [a2] "+&r"(acc.c2), [a3] "+&r"(acc.c3), [m] "=&r"(m),
          [r] "=&r"(r), [sh] "=&r"(sh), [t] "=&r"(t)
        : [q] "r"(q), [lo] "r"(min4), [hi] "r"(max4), [out] "r"(out)
        : "cc", "memory");
}

/* What mcu_dw_row3x3_fast reads from memory once a position (its registers hold the taps' work). */
typedef struct {
    const int32_t *bias;
    const mcu_fast_channel *q;
    uint32_t min4, max4;
    int8_t *out;
    int32_t out_step, x_step;
    const int8_t *x_end;
} mcu_dw_row_job;

/* A row of a group's outputs (3x3 taps adjacent across, every channel fast, four valid), from the window at
 * x to x_end (x_step apart): mcu_dw_taps3x3 then mcu_dw_store4_fast for each, in one loop of assembly whose
 * bookkeeping a position is a few loads from `job` where GCC's loop around the two blocks spilled and
 * reloaded ~35 cycles of it (VWW's four-channel layers: ~25 cycles a position less). */
static inline __attribute__((always_inline)) void mcu_dw_row3x3_fast(const int8_t *x, int32_t row_step,
                                                                    const int16_t *w, mcu_dw_row_job *job)
{
    uint32_t a0, a1, a2, a3, v, e, o, we, wo;
    __asm__ volatile(
        "1:\n\t"
        "ldr %[v], %[bias]\n\t"
        "ldrd %[a0], %[a1], [%[v]]\n\t"
        "ldrd %[a2], %[a3], [%[v], #8]\n\t"
        MCU_DW_TAPS3X3_
        "sub %[x], %[x], %[rs], lsl #1\n\t"
        "ldr %[wo], %[q]\n\t"
        MCU_DW_REQUANTIZE4_("wo", "v", "e", "o", "we")
        "ldr %[v], %[lo]\n\t"
        "ssub8 %[e], %[a0], %[v]\n\t"
        "sel %[a0], %[a0], %[v]\n\t"
        "ldr %[v], %[hi]\n\t"
        "ssub8 %[e], %[v], %[a0]\n\t"
        "sel %[a0], %[a0], %[v]\n\t"
        "ldr %[v], %[out]\n\t"
        "ldr %[e], %[out_step]\n\t"
        "str %[a0], [%[v]]\n\t"
        "add %[v], %[v], %[e]\n\t"
        "str %[v], %[out]\n\t"
        "ldr %[e], %[x_step]\n\t"
        "ldr %[v], %[x_end]\n\t"
        "add %[x], %[x], %[e]\n\t"
        "cmp %[x], %[v]\n\t"
        "bne 1b"
        : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [x] "+r"(x), [v] "=&r"(v), [e] "=&r"(e),
          [o] "=&r"(o), [we] "=&r"(we), [wo] "=&r"(wo), [out] "+m"(job->out)
        : [rs] "r"(row_step), [w] "r"(w), [bias] "m"(job->bias), [q] "m"(job->q), [lo] "m"(job->min4),
          [hi] "m"(job->max4), [out_step] "m"(job->out_step), [x_step] "m"(job->x_step), [x_end] "m"(job->x_end)
        : "cc", "memory");
}

/* The geometry of one call, worked out once. */
typedef struct {
    int32_t rows, cols;     /* the window every output reads: padded input, [rows][cols][4] bytes */
    int32_t row_step;       /* bytes between vertically adjacent taps (dilation) */
    int32_t col_step;       /* ... horizontally adjacent taps */
    int32_t out_row_step;   /* bytes between the windows of vertically adjacent outputs (stride) */
    int32_t out_col_step;   /* ... horizontally adjacent outputs */
    int32_t k_h, k_w;
} mcu_dw_geometry;

/* Every output of one group; a 3x3 kernel with adjacent columns runs its taps unrolled. `valid`,
 * `fast` and `three` are constants where the caller inlines this, so that each copy has one path. */
static inline __attribute__((always_inline)) void mcu_dw_group_outputs(
    const mcu_dw_geometry *lay, const mcu_dw_conv_params *dw, const mcu_channel ch[4], int fast, int three,
    const int8_t *window, const int16_t *w, const int32_t *bias, const mcu_dims *output_dims, int8_t *out,
    int32_t valid)
{
    const int32_t out_c = output_dims->c, rs = lay->row_step, offset = dw->output_offset;
    const mcu_activation act = dw->activation;
    const uint32_t min4 = mcu_all_bytes(act.min), max4 = mcu_all_bytes(act.max);
    const mcu_fast_channel none = {0, 0, 0};  /* a slow channel's right may be negative: no shift by it */
    const mcu_fast_channel q[4] = {fast ? mcu_fast_channel_of(&ch[0]) : none, fast ? mcu_fast_channel_of(&ch[1]) : none,
                                   fast ? mcu_fast_channel_of(&ch[2]) : none, fast ? mcu_fast_channel_of(&ch[3]) : none};
    if (valid == 4 && fast && three && output_dims->w > 0) {
        mcu_dw_row_job job = {bias, q, min4, max4, out, out_c, lay->out_col_step, NULL};
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int8_t *const x = window + oy * lay->out_row_step;
            job.x_end = x + output_dims->w * lay->out_col_step;
            mcu_dw_row3x3_fast(x, rs, w, &job);
        }
        return;
    }
    for (int32_t oy = 0; oy < output_dims->h; ++oy) {
        const int8_t *x = window + oy * lay->out_row_step;
        for (int32_t ox = 0; ox < output_dims->w; ++ox, x += lay->out_col_step, out += out_c) {
            mcu_acc4 acc = {bias[0], bias[1], bias[2], bias[3]};
            if (three) {
                mcu_dw_taps3x3(x, rs, w, &acc);
            } else {
                const int8_t *row = x;
                const int16_t *wt = w;
                for (int32_t ky = 0; ky < lay->k_h; ++ky, row += rs) {
                    const int8_t *p = row;
                    for (int32_t kx = 0; kx < lay->k_w; ++kx, p += lay->col_step, wt += 4) {
                        mcu_dw_tap(p, wt, &acc);
                    }
                }
            }
            if (valid == 4 && fast) {
                mcu_dw_store4_fast(acc, q, min4, max4, out);
            } else if (valid == 4) {
                const uint32_t word = mcu_pack4(mcu_channel_value(acc.c0, &ch[0], fast, offset),
                                                mcu_channel_value(acc.c1, &ch[1], fast, offset),
                                                mcu_channel_value(acc.c2, &ch[2], fast, offset),
                                                mcu_channel_value(acc.c3, &ch[3], fast, offset), min4, max4);
                memcpy(out, &word, sizeof word);
            } else {
                const int32_t all[4] = {acc.c0, acc.c1, acc.c2, acc.c3};
                for (int32_t k = 0; k < valid; ++k) {
                    out[k] = mcu_channel_output(all[k], &ch[k], fast, offset, act);
                }
            }
        }
    }
}

/* The geometry of a call (mcu_depthwise_conv2d_s8_x4's contract), for mcu_depthwise_conv2d_s4_x4. */
static inline __attribute__((always_inline)) mcu_dw_geometry mcu_dw_layout(const mcu_dw_conv_params *dw,
                                                                           const mcu_dims *filter_dims,
                                                                           const mcu_dims *output_dims)
{
    mcu_dw_geometry lay;
    lay.k_h = filter_dims->h;
    lay.k_w = filter_dims->w;
    lay.rows = (output_dims->h - 1) * dw->stride.h + (lay.k_h - 1) * dw->dilation.h + 1;
    lay.cols = (output_dims->w - 1) * dw->stride.w + (lay.k_w - 1) * dw->dilation.w + 1;
    lay.row_step = dw->dilation.h * lay.cols * 4;
    lay.col_step = dw->dilation.w * 4;
    lay.out_row_step = dw->stride.h * lay.cols * 4;
    lay.out_col_step = dw->stride.w * 4;
    return lay;
}

/* Every output of the group of channels oc.. (its weights w, already int16) for each image: the group
 * copied into the window, then mcu_dw_group_outputs in the copy its flags call for. */
static inline __attribute__((always_inline)) void mcu_dw_group(const mcu_dw_geometry *lay, const mcu_dw_conv_params *dw,
                                                               const mcu_channel *channels, const mcu_dims *input_dims,
                                                               const int8_t *input, const int16_t *w,
                                                               const int32_t *bias_folded, const mcu_dims *output_dims,
                                                               int8_t *output, int8_t *window, int32_t oc)
{
    const int32_t c = output_dims->c;
    const int three = lay->k_h == 3 && lay->k_w == 3 && dw->dilation.w == 1;
    const int32_t image_in = input_dims->h * input_dims->w * c, image_out = output_dims->h * output_dims->w * c;
    const int32_t valid = c - oc < 4 ? c - oc : 4;
    const mcu_channel *ch = &channels[oc];
    const int fast = ch[0].fast && ch[1].fast && ch[2].fast && ch[3].fast;
    const int32_t *b = bias_folded + oc;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        mcu_window_group4(input_dims, input + n * image_in + oc, valid, lay->rows, lay->cols, dw->padding,
                          dw->input_offset, window);
        int8_t *out = output + n * image_out + oc;
        if (valid < 4) {
            mcu_dw_group_outputs(lay, dw, ch, fast, three, window, w, b, output_dims, out, valid);
        } else if (fast && three) {
            mcu_dw_group_outputs(lay, dw, ch, 1, 1, window, w, b, output_dims, out, 4);
        } else if (fast) {
            mcu_dw_group_outputs(lay, dw, ch, 1, 0, window, w, b, output_dims, out, 4);
        } else {
            mcu_dw_group_outputs(lay, dw, ch, 0, three, window, w, b, output_dims, out, 4);
        }
    }
}

/*
 * A one-image CONV_2D whose output only a DEPTHWISE_CONV_2D reads, without that output ever existing
 * whole (MCUNetV2's patch-based execution): `rows` holds the conv output rows the depthwise's current
 * output row reads (mcu_conv2d_hold_rows_s8_x6), and the depthwise kernel (dw_bits 16:
 * mcu_depthwise_conv2d_s8_x4; 4: mcu_depthwise_conv2d_s4_x4) computes one output row from them (its
 * padding moved so that `rows` is its whole input).
 * scratch: the conv's; rows: ((KH-1) * dilation_h + 1) * OW_conv * C bytes; window: the depthwise's for
 * one output row. output must not be input.
 */
static inline __attribute__((always_inline)) void mcu_conv2d_depthwise_x4(
    const mcu_conv_params *conv, const mcu_channel *channels, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const void *filter, int32_t filter_bits, const int32_t *bias,
    const mcu_dims *mid_dims, const mcu_dw_conv_params *dw, const mcu_channel *dw_channels,
    const mcu_dims *dw_filter_dims, const void *dw_filter, int dw_bits, const int32_t *bias_folded,
    const mcu_dims *output_dims, int8_t *output, int16_t *scratch, int8_t *rows, int8_t *window)
{
    const int32_t span = (dw_filter_dims->h - 1) * dw->dilation.h + 1, out_row = output_dims->w * output_dims->c;
    int32_t held[2] = {0, 0};
    for (int32_t oy = 0; oy < output_dims->h; ++oy) {
        mcu_dw_conv_params one = *dw;
        mcu_dims in;
        one.padding.h = mcu_conv2d_hold_rows_s8_x6(conv, channels, input_dims, input, filter_dims, filter, filter_bits,
                                                   bias, mid_dims, oy * dw->stride.h - dw->padding.h, span, held,
                                                   rows, scratch, &in);
        const mcu_dims line = {1, 1, output_dims->w, output_dims->c};
        if (dw_bits == 4) {
            mcu_depthwise_conv2d_s4_x4(&one, dw_channels, &in, rows, dw_filter_dims, (const int8_t *)dw_filter,
                                       bias_folded, &line, output + oy * out_row, window);
        } else {
            mcu_depthwise_conv2d_s8_x4(&one, dw_channels, &in, rows, dw_filter_dims, (const int16_t *)dw_filter,
                                       bias_folded, &line, output + oy * out_row, window);
        }
    }
}

#endif /* MCU_NN_DW_DSP_H */
