#include "mcu_nn_dsp.h"

/*
 * CONV_2D for cores with the DSP extension: the contract and results of src/mcu_conv2d_s8.c.
 * Output channels go four at a time through mcu_dot4_s8. For each in-image kernel row, the filter
 * row and the input it covers are both contiguous when the row lies wholly inside the image, so
 * one call takes the whole row (k_w * in_c values, which keeps SMLAD busy even when in_c is 1 or 3);
 * at the left and right edges it goes tap by tap.
 */
void mcu_conv2d_s8(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                   const mcu_dims *input_dims, const int8_t *input,
                   const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                   const mcu_dims *output_dims, int8_t *output)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w, kernel_size = k_h * k_w * in_c;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, out_c = output_dims->c;
    const int32_t dil_h = conv->dilation.h, dil_w = conv->dilation.w;

    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * in_h * in_w * in_c;
        for (int32_t oy = 0; oy < out_h; ++oy) {
            const int32_t y0 = oy * conv->stride.h - conv->padding.h;
            for (int32_t ox = 0; ox < out_w; ++ox) {
                const int32_t x0 = ox * conv->stride.w - conv->padding.w;
                const int whole_rows = dil_w == 1 && x0 >= 0 && x0 + k_w <= in_w;
                for (int32_t oc = 0; oc < out_c; oc += 4) {
                    int32_t channel[4], acc[4];
                    const int8_t *kernel[4];
                    mcu_group4(oc, out_c, channel);
                    for (int32_t k = 0; k < 4; ++k) {
                        acc[k] = bias ? bias[channel[k]] : 0;
                        kernel[k] = filter + channel[k] * kernel_size;
                    }
                    for (int32_t ky = 0; ky < k_h; ++ky) {
                        const int32_t iy = y0 + ky * dil_h;
                        if (iy < 0 || iy >= in_h) {
                            continue;
                        }
                        const int8_t *row = image + iy * in_w * in_c;
                        const int32_t tap_row = ky * k_w * in_c;
                        if (whole_rows) {
                            mcu_dot4_s8(row + x0 * in_c, conv->input_offset, kernel, tap_row, k_w * in_c, acc);
                            continue;
                        }
                        for (int32_t kx = 0; kx < k_w; ++kx) {
                            const int32_t ix = x0 + kx * dil_w;
                            if (ix >= 0 && ix < in_w) {
                                mcu_dot4_s8(row + ix * in_c, conv->input_offset, kernel, tap_row + kx * in_c, in_c,
                                            acc);
                            }
                        }
                    }
                    mcu_store4(acc, channel, quant, conv->output_offset, conv->activation, output);
                }
                output += out_c;
            }
        }
    }
}
