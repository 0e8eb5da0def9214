#include "mcu_nn_dw_mve.h"

/* Weak: a build without INT4 depthwise layers links no unpacking (only bits 4 calls it). */
#pragma weak mcu_unpack_s4

/* clamp(requantize(acc) + output_offset) of a group's channels, the lanes past `p` not stored. */
static inline void store_group(int8_t *out, int32x4_t acc, int32x4_t multiplier, int32x4_t shift,
                               const mcu_dw_conv_params *dw, mve_pred16_t p)
{
    int32x4_t y = vaddq_n_s32(mcu_requantize_x4(acc, multiplier, shift), dw->output_offset);
    y = vminq_s32(vmaxq_s32(y, vdupq_n_s32(dw->activation.min)), vdupq_n_s32(dw->activation.max));
    vstrbq_p_s32(out, y, p);
}

/* Four horizontally adjacent outputs (their windows pos_step apart) of one group: each tap's weights
 * loaded once for the four. Inlined where the steps and kernel width are constants (stride 1, 3 wide),
 * every load's offset is then an immediate. */
static inline __attribute__((always_inline)) void four_outputs(const int8_t *x, const int8_t *wt, int32_t k_h,
                                                               int32_t k_w, int32_t row_step, int32_t col_step,
                                                               int32_t pos_step, int32x4_t acc[4])
{
    int32x4_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
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
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* One output of one group (the row of four_outputs a row ends on): its taps unrolled where the width and
 * the column step are constants. */
static inline __attribute__((always_inline)) int32x4_t one_output(const int8_t *x, const int8_t *wt, int32_t k_h,
                                                                 int32_t k_w, int32_t row_step, int32_t col_step,
                                                                 int32x4_t a)
{
    for (int32_t ky = 0; ky < k_h; ++ky, x += row_step) {
        const int8_t *t = x;
        for (int32_t kx = 0; kx < k_w; ++kx, t += col_step, wt += 4) {
            a = vaddq_s32(a, vmulq_s32(vldrbq_s32(t), vldrbq_s32(wt)));
        }
    }
    return a;
}

/* Where a window's taps and positions lie: rows and columns of the group's copy (cols * 4 and 4 bytes
 * apart) or of the image itself (a row of pixels and c bytes), times the dilation and the stride. */
typedef struct {
    int32_t row, col, out_row, out_col;
} steps;

/* Every output of one image's group of channels from `image` (its copy or the image itself, at steps s):
 * four at a time on four_outputs (its taps unrolled where `three`: 3 wide, stride 1, the copy's steps),
 * then the rest. */
static inline __attribute__((always_inline)) void image_outputs(
    const int8_t *image, const int8_t *w, int32_t k_h, int32_t k_w, steps s, int three, const mcu_dims *output_dims,
    int8_t *out, int32x4_t bias, int32x4_t multiplier, int32x4_t shift, const mcu_dw_conv_params *dw, mve_pred16_t p)
{
    const int32_t c = output_dims->c, out_w = output_dims->w;
    for (int32_t oy = 0; oy < output_dims->h; ++oy) {
        const int8_t *x = image + oy * s.out_row;
        int32_t ox = 0;
        for (; ox + 4 <= out_w; ox += 4, x += 4 * s.out_col, out += 4 * c) {
            int32x4_t a[4] = {bias, bias, bias, bias};
            if (three) {
                four_outputs(x, w, k_h, 3, s.row, 4, 4, a);
            } else {
                four_outputs(x, w, k_h, k_w, s.row, s.col, s.out_col, a);
            }
            store_group(out, a[0], multiplier, shift, dw, p);
            store_group(out + c, a[1], multiplier, shift, dw, p);
            store_group(out + 2 * c, a[2], multiplier, shift, dw, p);
            store_group(out + 3 * c, a[3], multiplier, shift, dw, p);
        }
        for (; ox < out_w; ++ox, x += s.out_col, out += c) {
            if (three) {
                store_group(out, one_output(x, w, k_h, 3, s.row, 4, bias), multiplier, shift, dw, p);
            } else {
                store_group(out, one_output(x, w, k_h, k_w, s.row, s.col, bias), multiplier, shift, dw, p);
            }
        }
    }
}

/* image_outputs on the image itself, out of line: the copy's loop in mcu_depthwise_mve keeps its registers. */
static __attribute__((noinline)) void image_outputs_in_place(
    const int8_t *image, const int8_t *w, int32_t k_h, int32_t k_w, steps s, const mcu_dims *output_dims,
    int8_t *out, int32x4_t bias, int32x4_t multiplier, int32x4_t shift, const mcu_dw_conv_params *dw, mve_pred16_t p)
{
    image_outputs(image, w, k_h, k_w, s, 0, output_dims, out, bias, multiplier, shift, dw, p);
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
        const mve_pred16_t p = vctp32q((uint32_t)(c - oc));
        const int32x4_t bias = vldrwq_s32(bias_folded + oc);
        const int8_t *wt = w + oc * k_h * k_w;
        const int32x4_t acc = c - oc >= 4 ? tap_sums(image + oc, wt, rows, run, row_step, step, bias, p, 1)
                                          : tap_sums(image + oc, wt, rows, run, row_step, step, bias, p, 0);
        store_group(out + oc, acc, vldrwq_z_s32(quant->multiplier + oc, p), vldrwq_z_s32(quant->shift + oc, p), dw, p);
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
    const int three = k_w == 3 && dw->dilation.w == 1 && dw->stride.w == 1;
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
    for (int32_t oc = 0; oc < c; oc += 4) {
        const int32_t valid = c - oc < 4 ? c - oc : 4;
        const mve_pred16_t p = vctp32q((uint32_t)valid);
        const int32x4_t bias = vldrwq_s32(bias_folded + oc);
        const int32x4_t multiplier = vldrwq_z_s32(quant->multiplier + oc, p), shift = vldrwq_z_s32(quant->shift + oc, p);
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
                image_outputs_in_place(image, w, k_h, k_w, in_place, output_dims, out, bias, multiplier, shift, dw, p);
            } else {
                mcu_window_group4(input_dims, image, valid, rows, cols, dw->padding, dw->input_offset, window);
                image_outputs(window, w, k_h, k_w, copied, three, output_dims, out, bias, multiplier, shift, dw, p);
            }
        }
    }
}
