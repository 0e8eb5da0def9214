#include "mcu_nn_dsp.h"

/* First and one-past-last kernel index whose dilated tap origin + k * dilation lies in [0, size). */
static void dilated_taps(int32_t origin, int32_t kernel, int32_t dilation, int32_t size, int32_t *first,
                         int32_t *last)
{
    *first = origin < 0 ? (-origin + dilation - 1) / dilation : 0;
    *last = size - origin > 0 ? (size - origin + dilation - 1) / dilation : 0;
    *last = *last < kernel ? *last : kernel;
}

/*
 * DEPTHWISE_CONV_2D for cores with the DSP extension: the contract and results of
 * src/mcu_depthwise_conv2d_s8.c. Channels go four at a time when the multiplier is 1 (per tap one
 * word of input, four channels) or a multiple of 4 (the four read one input value): with one word
 * of filter, unpacked into int16 pairs, four single products (SMLABB/SMLATT) go into four
 * accumulators. The other channels (the last out_c % 4, or all of them for other multipliers) go one
 * at a time. In-image taps are worked out once per position.
 */
void mcu_depthwise_conv2d_s8(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, out_c = output_dims->c;
    const int32_t dil_h = dw->dilation.h, dil_w = dw->dilation.w;
    const int32_t mult = dw->depth_multiplier;
    const int32_t four_wide = mult == 1 || mult % 4 == 0 ? out_c & ~3 : 0;
    const int16x2_t offset = mcu_both_halves(dw->input_offset);

    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * in_h * in_w * in_c;
        for (int32_t oy = 0; oy < out_h; ++oy) {
            const int32_t y0 = oy * dw->stride.h - dw->padding.h;
            int32_t ky0, ky1;
            dilated_taps(y0, k_h, dil_h, in_h, &ky0, &ky1);
            for (int32_t ox = 0; ox < out_w; ++ox) {
                const int32_t x0 = ox * dw->stride.w - dw->padding.w;
                int32_t kx0, kx1;
                dilated_taps(x0, k_w, dil_w, in_w, &kx0, &kx1);
                const int32_t origin = (y0 * in_w + x0) * in_c;  /* may be negative; taps never are */
                int32_t oc = 0;
                for (; oc < four_wide; oc += 4) {
                    int32_t a0 = bias ? bias[oc] : 0, a1 = bias ? bias[oc + 1] : 0;
                    int32_t a2 = bias ? bias[oc + 2] : 0, a3 = bias ? bias[oc + 3] : 0;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int8_t *x = image + (origin + (ky * dil_h * in_w + kx * dil_w) * in_c + oc / mult);
                            const uint32_t wv = mcu_load4(filter + (ky * k_w + kx) * out_c + oc);
                            int16x2_t even, odd;
                            if (mult == 1) {
                                const uint32_t xv = mcu_load4(x);
                                even = __sadd16(mcu_even_bytes(xv), offset);
                                odd = __sadd16(mcu_odd_bytes(xv), offset);
                            } else {
                                even = odd = mcu_both_halves(*x + dw->input_offset);
                            }
                            const int16x2_t w_even = mcu_even_bytes(wv), w_odd = mcu_odd_bytes(wv);
                            a0 = __smlabb(even, w_even, a0);
                            a1 = __smlabb(odd, w_odd, a1);
                            a2 = __smlatt(even, w_even, a2);
                            a3 = __smlatt(odd, w_odd, a3);
                        }
                    }
                    const int32_t acc[4] = {a0, a1, a2, a3}, channel[4] = {oc, oc + 1, oc + 2, oc + 3};
                    mcu_store4(acc, channel, quant, dw->output_offset, dw->activation, output);
                }
                for (; oc < out_c; ++oc) {
                    const int32_t ic = oc / mult;
                    int32_t acc = bias ? bias[oc] : 0;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            acc += (image[origin + (ky * dil_h * in_w + kx * dil_w) * in_c + ic] + dw->input_offset)
                                 * filter[(ky * k_w + kx) * out_c + oc];
                        }
                    }
                    acc = mcu_requantize(acc, quant->multiplier[oc], quant->shift[oc]) + dw->output_offset;
                    output[oc] = mcu_clamp_s8(acc, dw->activation);
                }
                output += out_c;
            }
        }
    }
}
