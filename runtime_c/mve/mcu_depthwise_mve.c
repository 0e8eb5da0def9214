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

void mcu_depthwise_mve(
    const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const int8_t *filter_x4, int bits, const int32_t *bias_folded,
    const mcu_dims *output_dims, int8_t *output, int8_t *window)
{
    const int32_t c = output_dims->c, k_h = filter_dims->h, k_w = filter_dims->w, taps = k_h * k_w;
    const int32_t rows = (output_dims->h - 1) * dw->stride.h + (k_h - 1) * dw->dilation.h + 1;
    const int32_t cols = (output_dims->w - 1) * dw->stride.w + (k_w - 1) * dw->dilation.w + 1;
    const int32_t row_step = dw->dilation.h * cols * 4, col_step = dw->dilation.w * 4;
    const int32_t out_row_step = dw->stride.h * cols * 4, out_col_step = dw->stride.w * 4;
    const int32_t image_in = input_dims->h * input_dims->w * c, out_w = output_dims->w;
    const int three = k_w == 3 && dw->dilation.w == 1 && dw->stride.w == 1;
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
            mcu_window_group4(input_dims, input + n * image_in + oc, valid, rows, cols, dw->padding,
                              dw->input_offset, window);
            int8_t *out = output + n * output_dims->h * out_w * c + oc;
            for (int32_t oy = 0; oy < output_dims->h; ++oy) {
                const int8_t *x = window + oy * out_row_step;
                int32_t ox = 0;
                for (; ox + 4 <= out_w; ox += 4, x += 4 * out_col_step, out += 4 * c) {
                    int32x4_t a[4] = {bias, bias, bias, bias};
                    if (three) {
                        four_outputs(x, w, k_h, 3, row_step, 4, 4, a);
                    } else {
                        four_outputs(x, w, k_h, k_w, row_step, col_step, out_col_step, a);
                    }
                    store_group(out, a[0], multiplier, shift, dw, p);
                    store_group(out + c, a[1], multiplier, shift, dw, p);
                    store_group(out + 2 * c, a[2], multiplier, shift, dw, p);
                    store_group(out + 3 * c, a[3], multiplier, shift, dw, p);
                }
                for (; ox < out_w; ++ox, x += out_col_step, out += c) {
                    int32x4_t a = bias;
                    const int8_t *row = x, *wt = w;
                    for (int32_t ky = 0; ky < k_h; ++ky, row += row_step) {
                        const int8_t *t = row;
                        for (int32_t kx = 0; kx < k_w; ++kx, t += col_step, wt += 4) {
                            a = vaddq_s32(a, vmulq_s32(vldrbq_s32(t), vldrbq_s32(wt)));
                        }
                    }
                    store_group(out, a, multiplier, shift, dw, p);
                }
            }
        }
    }
}
