#include "mcu_nn_mve.h"

/* n bytes from src (or, src NULL, the bytes of filler) to dst, 16 per vector, the tail predicated: inline,
 * where a memcpy per tap would cost a call for the few channels early layers have. */
static inline void copy_bytes(int8_t *dst, const int8_t *src, int8x16_t filler, int32_t n)
{
    if (n == 1) { /* a one-channel input (audio features): a byte costs less than setting up a vector */
        *dst = src ? *src : vgetq_lane_s8(filler, 0);
        return;
    }
    for (int32_t k = 0; k < n; k += 16) {
        const mve_pred16_t p = vctp8q((uint32_t)(n - k));
        vstrbq_p_s8(dst + k, src ? vldrbq_z_s8(src + k, p) : filler, p);
    }
}

/*
 * CONV_2D with Helium (MVE): per output position, its patch [KH, KW, Cin] gathered into scratch (taps
 * outside the image filled with the input zero point, whose products the folded bias cancels: bias_folded
 * = bias + input_offset * sum of the channel's weights counts every tap), then the patch through the
 * filter as one row of mcu_row_units_s8. The results are mcu_conv2d_s8's.
 */
void mcu_conv2d_s8_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                       const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias_folded,
                       const mcu_dims *output_dims, int8_t *output, int8_t *patch)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w, out_c = output_dims->c;
    const int32_t depth = k_h * k_w * in_c;
    const int8x16_t padding = vdupq_n_s8((int8_t)-conv->input_offset); /* the input zero point */

    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * in_h * in_w * in_c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * conv->stride.h - conv->padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * conv->stride.w - conv->padding.w;
                /* a row of taps wholly inside the image, adjacent (dilation 1), is one run of input bytes */
                const int row_inside = conv->dilation.w == 1 && x0 >= 0 && x0 + k_w <= in_w;
                int8_t *to = patch;
                for (int32_t ky = 0; ky < k_h; ++ky) {
                    const int32_t iy = y0 + ky * conv->dilation.h;
                    if (iy < 0 || iy >= in_h || row_inside) {
                        const int inside = iy >= 0 && iy < in_h;
                        copy_bytes(to, inside ? image + (iy * in_w + x0) * in_c : NULL, padding, k_w * in_c);
                        to += k_w * in_c;
                        continue;
                    }
                    for (int32_t kx = 0; kx < k_w; ++kx, to += in_c) {
                        const int32_t ix = x0 + kx * conv->dilation.w;
                        copy_bytes(to, ix >= 0 && ix < in_w ? image + (iy * in_w + ix) * in_c : NULL, padding, in_c);
                    }
                }
                mcu_row_units_s8(patch, depth, filter, bias_folded, out_c, quant, conv->output_offset,
                                 conv->activation, output);
                output += out_c;
            }
        }
    }
}
