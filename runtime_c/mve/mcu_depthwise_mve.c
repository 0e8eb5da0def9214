#include "mcu_nn_dw_mve.h"

/* Weak: a build without INT4 depthwise layers links no unpacking (only bits 4 calls it). */
#pragma weak mcu_unpack_s4

/* How a group's four outputs are stored (store4): all four channels present, without or with a left shift
 * (a scale of one half or more); fewer than four channels. */
enum { WHOLE, WHOLE_LEFT, PARTIAL };

/* A group's constants, read from memory where its outputs are stored (the eight q registers hold the sums
 * and the taps): the folded bias, the multiplier and the shift split as mcu_requantize_x4_split takes it;
 * the output offset and clamp; the channels present; which store its outputs take, decided once. */
typedef struct {
    int32x4_t bias, multiplier, left, right;
    int32_t offset, min, max, form;
    mve_pred16_t p;
} group_quant;

static inline group_quant group_of(const int32_t *bias_folded, const mcu_per_channel_quant *quant,
                                   const mcu_dw_conv_params *dw, int32_t oc, int32_t valid)
{
    const mve_pred16_t p = vctp32q((uint32_t)valid);
    const int32x4_t shift = vldrwq_z_s32(quant->shift + oc, p), zero = vdupq_n_s32(0);
    const int32x4_t left = vmaxq_s32(shift, zero);
    const int32_t form = valid < 4 ? PARTIAL : vmaxvq_s32(0, left) > 0 ? WHOLE_LEFT : WHOLE;
    const group_quant q = {vldrwq_s32(bias_folded + oc), vldrwq_z_s32(quant->multiplier + oc, p), left,
                           vminq_s32(shift, zero), dw->output_offset, dw->activation.min, dw->activation.max, form,
                           p};
    return q;
}

/* clamp(requantize(acc) + output_offset) of a group's channels, the lanes past its channels not stored. */
static inline __attribute__((always_inline)) void store_group(int8_t *out, int32x4_t acc, const group_quant *q)
{
    int32x4_t y = vaddq_n_s32(mcu_requantize_x4_split(acc, q->multiplier, q->left, q->right), q->offset);
    y = vminq_s32(vmaxq_s32(y, vdupq_n_s32(q->min)), vdupq_n_s32(q->max));
    vstrbq_p_s32(out, y, q->p);
}

/* One tap of four outputs from the group's copy: the tap's weights widened from wt (which moves on), and
 * per output k its four inputs at pk + X (X an immediate: the tap's column, 4 bytes each) widened,
 * multiplied and added to its sum. */
#define MCU_DW_TAP4_(X)                                      \
    "vldrb.s32 %q[w], [%[wt]], #4\n\t"                       \
    "vldrb.s32 %q[x], [%[p0], #" #X "]\n\t"                  \
    "vmul.i32 %q[x], %q[x], %q[w]\n\t"                       \
    "vadd.i32 %q[a0], %q[a0], %q[x]\n\t"                     \
    "vldrb.s32 %q[x], [%[p1], #" #X "]\n\t"                  \
    "vmul.i32 %q[x], %q[x], %q[w]\n\t"                       \
    "vadd.i32 %q[a1], %q[a1], %q[x]\n\t"                     \
    "vldrb.s32 %q[x], [%[p2], #" #X "]\n\t"                  \
    "vmul.i32 %q[x], %q[x], %q[w]\n\t"                       \
    "vadd.i32 %q[a2], %q[a2], %q[x]\n\t"                     \
    "vldrb.s32 %q[x], [%[p3], #" #X "]\n\t"                  \
    "vmul.i32 %q[x], %q[x], %q[w]\n\t"                       \
    "vadd.i32 %q[a3], %q[a3], %q[x]\n\t"

/* A row of three taps (adjacent columns of the copy), the four windows' pointers moved to the next row. */
#define MCU_DW_ROW3_                                                              \
    MCU_DW_TAP4_(0) MCU_DW_TAP4_(4) MCU_DW_TAP4_(8)                               \
    "add %[p0], %[p0], %[rs]\n\t"                                                 \
    "add %[p1], %[p1], %[rs]\n\t"                                                 \
    "add %[p2], %[p2], %[rs]\n\t"                                                 \
    "add %[p3], %[p3], %[rs]\n\t"
#define MCU_DW_ROW3_OPERANDS_                                                                              \
    : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [x] "=&w"(xv), [w] "=&w"(wv), [wt] "+r"(wt), \
      [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), [p3] "+r"(p3)                                             \
    : [rs] "r"(row_step)                                                                                   \
    : "memory"

/* One sum's requantization (mcu_requantize_x4_split's steps, its left shift where `L` is "vshl.s32"), offset
 * and clamp by the vectors in %q[l] and %q[m] (the left shift and multiplier no longer needed), stored. */
#define MCU_DW_REQUANT_(A, L)                                 \
    L " %q[" A "], %q[" A "], %q[l]\n\t"                      \
    "vqrdmulh.s32 %q[" A "], %q[" A "], %q[m]\n\t"            \
    "vand %q[t], %q[" A "], %q[r]\n\t"                        \
    "vshr.s32 %q[t], %q[t], #31\n\t"                          \
    "vqadd.s32 %q[" A "], %q[" A "], %q[t]\n\t"               \
    "vrshl.s32 %q[" A "], %q[" A "], %q[r]\n\t"               \
    "vadd.i32 %q[" A "], %q[" A "], %[offset]\n\t"
#define MCU_DW_CLAMP_STORE_(A)                                \
    "vmax.s32 %q[" A "], %q[" A "], %q[l]\n\t"                \
    "vmin.s32 %q[" A "], %q[" A "], %q[m]\n\t"                \
    "vstrb.32 %q[" A "], [%[o]]\n\t"                          \
    "add %[o], %[o], %[step]\n\t"
#define MCU_DW_STORE4_(L)                                                                                  \
    MCU_DW_REQUANT_("a0", L) MCU_DW_REQUANT_("a1", L) MCU_DW_REQUANT_("a2", L) MCU_DW_REQUANT_("a3", L)     \
    "vdup.32 %q[l], %[min]\n\t"                                                                            \
    "vdup.32 %q[m], %[max]\n\t"                                                                            \
    MCU_DW_CLAMP_STORE_("a0") MCU_DW_CLAMP_STORE_("a1") MCU_DW_CLAMP_STORE_("a2") MCU_DW_CLAMP_STORE_("a3")

#define MCU_DW_STORE4_OPERANDS_                                                                            \
    : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [l] "+w"(l), [m] "+w"(m), [t] "=&w"(t),    \
      [o] "+l"(out)                                                                                        \
    : [r] "w"(r), [offset] "r"(q->offset), [min] "r"(q->min), [max] "r"(q->max), [step] "r"(out_step)        \
    : "memory"

/* Four sums of a whole group requantized, offset, clamped and stored out_step apart. In assembly: in C,
 * GCC keeps the group's constants on the stack and reads them again for every output. Measured on KWS on
 * the M55 (instructions): each of its four depthwise layers takes 135,281 with this block, 139,344 with
 * store_group for each output (the model +1.3%), which is 2,176 B less flash (this block is inlined in every
 * specialisation of the image walk). The left shift is left out where every channel's is 0 (WHOLE: a scale
 * below one half, the usual case). */
static inline __attribute__((always_inline)) void store4(int8_t *out, int32_t out_step, int32x4_t a0, int32x4_t a1,
                                                         int32x4_t a2, int32x4_t a3, const group_quant *q)
{
    int32x4_t l = q->left, m = q->multiplier, t;
    const int32x4_t r = q->right;
    if (q->form == WHOLE) {
        __asm__ volatile(MCU_DW_STORE4_("@") MCU_DW_STORE4_OPERANDS_);
    } else {
        __asm__ volatile(MCU_DW_STORE4_("vshl.s32") MCU_DW_STORE4_OPERANDS_);
    }
}

/* Four outputs of one group whose windows lie pos_step apart (in the image or its copy) and whose results
 * lie out_step apart: each tap's weights loaded once for the four, then the four stored. `three`: a
 * 3-wide undilated kernel on the copy, each row of taps in assembly (in C, GCC's schedule of the unrolled
 * row spills the sums: KWS's depthwise layers take 175,656 instructions each on the M55 with the C tap loop
 * below, 135,281 with these rows, the model 13% more; the rows cost 1,192 B of flash). */
static inline __attribute__((always_inline)) void four_outputs(const int8_t *x, const int8_t *wt, int32_t k_h,
                                                               int32_t k_w, int32_t row_step, int32_t col_step,
                                                               int32_t pos_step, int three, int8_t *out,
                                                               int32_t out_step, const group_quant *q)
{
    int32x4_t a0 = q->bias, a1 = a0, a2 = a0, a3 = a0;
    if (three) {
        const int8_t *p0 = x, *p1 = p0 + pos_step, *p2 = p1 + pos_step, *p3 = p2 + pos_step;
        int32x4_t xv, wv;
        if (k_h == 3) { /* 3x3, the usual depthwise kernel: no loop */
            __asm__(MCU_DW_ROW3_ MCU_DW_ROW3_ MCU_DW_ROW3_ MCU_DW_ROW3_OPERANDS_);
        } else {
            for (int32_t ky = 0; ky < k_h; ++ky) {
                __asm__(MCU_DW_ROW3_ MCU_DW_ROW3_OPERANDS_);
            }
        }
    } else {
        for (int32_t ky = 0; ky < k_h; ++ky, x += row_step) {
            const int8_t *t = x;
            for (int32_t kx = 0; kx < k_w; ++kx, t += col_step, wt += 4) {
                const int32x4_t wv = vldrbq_s32(wt);
                a0 = vaddq_s32(a0, vmulq_s32(vldrbq_s32(t), wv));
                a1 = vaddq_s32(a1, vmulq_s32(vldrbq_s32(t + pos_step), wv));
                a2 = vaddq_s32(a2, vmulq_s32(vldrbq_s32(t + 2 * pos_step), wv));
                a3 = vaddq_s32(a3, vmulq_s32(vldrbq_s32(t + 3 * pos_step), wv));
            }
        }
    }
    if (q->form == PARTIAL) {
        store_group(out, a0, q);
        store_group(out + out_step, a1, q);
        store_group(out + 2 * out_step, a2, q);
        store_group(out + 3 * out_step, a3, q);
        return;
    }
    store4(out, out_step, a0, a1, a2, a3, q);
}

/* One output of one group: its taps unrolled where the width and the column step are constants. */
static inline __attribute__((always_inline)) void one_output(const int8_t *x, const int8_t *wt, int32_t k_h,
                                                             int32_t k_w, int32_t row_step, int32_t col_step,
                                                             int8_t *out, const group_quant *q)
{
    int32x4_t a = q->bias;
    for (int32_t ky = 0; ky < k_h; ++ky, x += row_step) {
        const int8_t *t = x;
        for (int32_t kx = 0; kx < k_w; ++kx, t += col_step, wt += 4) {
            a = vaddq_s32(a, vmulq_s32(vldrbq_s32(t), vldrbq_s32(wt)));
        }
    }
    store_group(out, a, q);
}

/* Where a window's taps and positions lie: rows and columns of the group's copy (cols * 4 and 4 bytes
 * apart) or of the image itself (a row of pixels and c bytes), times the dilation and the stride. */
typedef struct {
    int32_t row, col, out_row, out_col;
} steps;

/* Every output of one image's group of channels from `image` (its copy or the image itself, at steps s):
 * four at a time along each row (their rows of taps in assembly where `three`: 3 wide on the copy),
 * then the columns the rows' fours leave four at a time down the column (a narrow output, as KWS's 5 wide,
 * computes all but a few four at a time), then the rest. */
static inline __attribute__((always_inline)) void image_outputs(const int8_t *image, const int8_t *w, int32_t k_h,
                                                                int32_t k_w, steps s, int three,
                                                                const mcu_dims *output_dims, int8_t *out,
                                                                const group_quant *q)
{
    const int32_t c = output_dims->c, out_w = output_dims->w, out_h = output_dims->h, row_out = out_w * c;
    const int32_t fours = out_w & ~3;
    if (three) {
        k_w = 3;
        s.col = 4;
    }
    /* one loop over the rows' fours: a narrow output's row holds one or two */
    const int32_t per_row = fours / 4;
    const int8_t *x = image;
    int8_t *o = out;
    for (int32_t b = 0, in_row = 0; b < out_h * per_row; ++b) {
        four_outputs(x, w, k_h, k_w, s.row, s.col, s.out_col, three, o, c, q);
        x += 4 * s.out_col;
        o += 4 * c;
        if (++in_row == per_row) {
            in_row = 0;
            x += s.out_row - fours * s.out_col;
            o += row_out - fours * c;
        }
    }
    for (int32_t ox = fours; ox < out_w; ++ox) {
        const int8_t *down = image + ox * s.out_col;
        int8_t *to = out + ox * c;
        int32_t oy = 0;
        for (; oy + 4 <= out_h; oy += 4, down += 4 * s.out_row, to += 4 * row_out) {
            four_outputs(down, w, k_h, k_w, s.row, s.col, s.out_row, three, to, row_out, q);
        }
        for (; oy < out_h; ++oy, down += s.out_row, to += row_out) {
            one_output(down, w, k_h, k_w, s.row, s.col, to, q);
        }
    }
}

/* image_outputs on the image itself, out of line: the copy's loop in mcu_depthwise_mve keeps its registers. */
static __attribute__((noinline)) void image_outputs_in_place(const int8_t *image, const int8_t *w, int32_t k_h,
                                                             int32_t k_w, steps s, const mcu_dims *output_dims,
                                                             int8_t *out, const group_quant *q)
{
    image_outputs(image, w, k_h, k_w, s, 0, output_dims, out, q);
}

/* A group's sum over its taps: `rows` runs of `run` taps `step` apart, the weights four bytes a tap; its
 * image loads predicated by `p` unless the group is `whole` (the test then leaves the loop). */
static inline __attribute__((always_inline)) int32x4_t tap_sums(const int8_t *image, const int8_t *wt, int32_t rows,
                                                               int32_t run, int32_t row_step, int32_t step,
                                                               int32x4_t acc, mve_pred16_t p, int whole)
{
    for (int32_t r = 0; r < rows; ++r) {
        const int8_t *t = image + r * row_step;
        for (int32_t k = 0; k < run; ++k, t += step, wt += 4) {
            acc = vaddq_s32(acc, vmulq_s32(whole ? vldrbq_s32(t) : vldrbq_z_s32(t, p), vldrbq_s32(wt)));
        }
    }
    return acc;
}

/* The one output of a layer whose window lies inside the image (a streaming model's temporal kernel: a
 * few channels, many taps in one column): the groups of channels one after another, each its taps in one
 * loop (a one-column kernel's down the column), its last group's loads predicated rather than read past
 * the input's end. Out of line: its loop keeps its pointers in registers. */
static __attribute__((noinline)) void one_position(const int8_t *image, const int8_t *w, int32_t k_h, int32_t k_w,
                                                   int32_t row_step, int32_t col_step, const int32_t *bias_folded,
                                                   const mcu_per_channel_quant *quant, const mcu_dw_conv_params *dw,
                                                   int32_t c, int8_t *out)
{
    const int32_t rows = k_w == 1 ? 1 : k_h, run = k_w == 1 ? k_h : k_w, step = k_w == 1 ? row_step : col_step;
    for (int32_t oc = 0; oc < c; oc += 4) {
        const group_quant q = group_of(bias_folded, quant, dw, oc, c - oc < 4 ? c - oc : 4);
        const int8_t *wt = w + oc * k_h * k_w;
        const int32x4_t acc = c - oc >= 4 ? tap_sums(image + oc, wt, rows, run, row_step, step, q.bias, q.p, 1)
                                          : tap_sums(image + oc, wt, rows, run, row_step, step, q.bias, q.p, 0);
        store_group(out + oc, acc, &q);
    }
}

/* The window's cells outside the image (its padding) hold the input zero point for every group: filled
 * once per layer, 16 bytes a store, before any group's pixels are copied in (window_pixels). */
static void fill_padding(int8_t *window, int32_t bytes, int32_t input_offset)
{
    const int8x16_t zero_point = vdupq_n_s8((int8_t)-input_offset);
    for (int32_t k = 0; k < bytes; k += 16) {
        vstrbq_p_s8(window + k, zero_point, vctp8q((uint32_t)(bytes - k)));
    }
}

/* A group's pixels into its window (mcu_window_group4's layout, the padding left as fill_padding set it):
 * per image row, two pixels' four channels a gather (byte offsets 0-3 and c to c+3, as halfwords),
 * narrowed into eight window bytes; the channels past `valid` read as nothing (zero: their weights are 0). */
static void window_pixels(const mcu_dims *in, const int8_t *group, int32_t valid, int32_t rows, int32_t cols,
                          mcu_tile padding, int8_t *window)
{
    const int32_t c = in->c, left = padding.w < cols ? padding.w : cols;
    const int32_t right = padding.w + in->w < cols ? padding.w + in->w : cols;
    const uint16x8_t lane = vidupq_n_u16(0, 1);
    const uint16x8_t offsets = vaddq_u16(vandq_u16(lane, vdupq_n_u16(3)), vmulq_n_u16(vshrq_n_u16(lane, 2), (uint16_t)c));
    /* the lanes of channels < valid: two predicate bits a halfword */
    const mve_pred16_t channels = (mve_pred16_t)(((1u << (2 * valid)) - 1) * 0x0101u);
    for (int32_t y = padding.h > 0 ? padding.h : 0; y < rows && y - padding.h < in->h; ++y) {
        const int8_t *src = group + ((y - padding.h) * in->w + left - padding.w) * c;
        int8_t *dst = window + (y * cols + left) * 4;
        int32_t x = left;
        for (; x + 2 <= right; x += 2, src += 2 * c, dst += 8) {
            vstrbq_u16((uint8_t *)dst, vldrbq_gather_offset_z_u16((const uint8_t *)src, offsets, channels));
        }
        if (x < right) { /* a last pixel: its word (the channels past valid zero) */
            uint32_t word = 0;
            if (valid == 4) {
                memcpy(&word, src, sizeof word);
            } else {
                for (int32_t k = 0; k < valid; ++k) {
                    word |= (uint32_t)(uint8_t)src[k] << (8 * k);
                }
            }
            memcpy(dst, &word, sizeof word);
        }
    }
}

void mcu_depthwise_mve(
    const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const int8_t *filter_x4, int bits, const int32_t *bias_folded,
    const mcu_dims *output_dims, int8_t *output, int8_t *window)
{
    const int32_t c = output_dims->c, k_h = filter_dims->h, k_w = filter_dims->w, taps = k_h * k_w;
    const int32_t rows = (output_dims->h - 1) * dw->stride.h + (k_h - 1) * dw->dilation.h + 1;
    const int32_t cols = (output_dims->w - 1) * dw->stride.w + (k_w - 1) * dw->dilation.w + 1;
    const steps copied = {dw->dilation.h * cols * 4, dw->dilation.w * 4, dw->stride.h * cols * 4, dw->stride.w * 4};
    const int32_t pixels = input_dims->w * c;
    const steps in_place = {dw->dilation.h * pixels, dw->dilation.w * c, dw->stride.h * pixels, dw->stride.w * c};
    const int32_t image_in = input_dims->h * input_dims->w * c, image_out = output_dims->h * output_dims->w * c;
    const int three = k_w == 3 && dw->dilation.w == 1;
    /* Where no window reaches past the image (no padding) it is read where it lies rather than copied
     * (a window per group of channels: most of a layer with few outputs and long kernels), unless the
     * output overwrites input a later output reads (in place, more than one output position: one
     * position's group is stored after all its taps are read, over bytes no other group reads) or the
     * group has fewer than four channels (its words would read past the input's end). */
    const int single = output_dims->h * output_dims->w == 1 && input_dims->n == 1;
    const int inside = dw->padding.h == 0 && dw->padding.w == 0 && rows <= input_dims->h && cols <= input_dims->w &&
                       (output != input || single);
    if (single && inside && bits == 8) {
        one_position(input, filter_x4, k_h, k_w, in_place.row, in_place.col, bias_folded, quant, dw, c, output);
        return;
    }
    if (!inside) {
        fill_padding(window, rows * cols * 4, dw->input_offset);
    }
    for (int32_t oc = 0; oc < c; oc += 4) {
        const int32_t valid = c - oc < 4 ? c - oc : 4;
        const group_quant q = group_of(bias_folded, quant, dw, oc, valid);
        const int8_t *w = filter_x4 + oc * taps;
        if (bits == 4) {  /* the group's weights, unpacked once for all its outputs */
            int8_t *group = window + ((rows * cols * 4 + 3) & ~3);
            mcu_unpack_s4(filter_x4 + oc * taps / 2, taps * 4, group);
            w = group;
        }
        for (int32_t n = 0; n < input_dims->n; ++n) {
            const int8_t *image = input + n * image_in + oc;
            int8_t *out = output + n * image_out + oc;
            if (inside && valid == 4) {
                image_outputs_in_place(image, w, k_h, k_w, in_place, output_dims, out, &q);
            } else {
                window_pixels(input_dims, image, valid, rows, cols, dw->padding, window);
                if (three) {
                    image_outputs(window, w, k_h, k_w, copied, 1, output_dims, out, &q);
                } else {
                    image_outputs(window, w, k_h, k_w, copied, 0, output_dims, out, &q);
                }
            }
        }
    }
}
