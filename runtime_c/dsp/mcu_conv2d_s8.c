#include "mcu_nn_dsp.h"

/*
 * A 1x1 convolution with stride 1 (MobileNet's and DS-CNN's pointwise layers, most of their MACs):
 * output pixel p is the dot product of input pixel p with each filter row. Two pixels times two
 * output channels at a time: four SMLAD accumulators share every unpacked word. The input offset
 * is taken out of the loop, (x + xo) . w = x . w + xo * sum(w), with sum(w) once per channel.
 * An odd last pixel or channel is paired with itself (computed and stored twice, harmlessly).
 */
static void pointwise(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t pixels,
                      int32_t in_c, const int8_t *input, int32_t out_c, const int8_t *filter, const int32_t *bias,
                      int8_t *output)
{
    const int16x2_t ones = mcu_both_halves(1);
    for (int32_t oc = 0; oc < out_c; oc += 2) {
        const int32_t oc1 = oc + 1 < out_c ? oc + 1 : oc;
        const int8_t *w0 = filter + oc * in_c, *w1 = filter + oc1 * in_c;
        int32_t sum0 = 0, sum1 = 0, i = 0;
        for (; i + 4 <= in_c; i += 4) {
            const uint32_t v0 = mcu_load4(w0 + i), v1 = mcu_load4(w1 + i);
            sum0 = __smlad(mcu_odd_bytes(v0), ones, __smlad(mcu_even_bytes(v0), ones, sum0));
            sum1 = __smlad(mcu_odd_bytes(v1), ones, __smlad(mcu_even_bytes(v1), ones, sum1));
        }
        for (; i < in_c; ++i) {
            sum0 += w0[i];
            sum1 += w1[i];
        }
        const int32_t base0 = (bias ? bias[oc] : 0) + conv->input_offset * sum0;
        const int32_t base1 = (bias ? bias[oc1] : 0) + conv->input_offset * sum1;
        for (int32_t p = 0; p < pixels; p += 2) {
            const int32_t p1 = p + 1 < pixels ? p + 1 : p;
            const int8_t *x0 = input + p * in_c;
            /* the second pixel and channel as offsets from the first: two pointers move, not four */
            const int32_t dx = (p1 - p) * in_c, dw = (oc1 - oc) * in_c;
            const int8_t *x = x0, *w = w0, *const end = x0 + (in_c & ~3);
            int32_t a00 = base0, a01 = base1, a10 = base0, a11 = base1;
            for (; x != end; x += 4, w += 4) {
                const uint32_t v0 = mcu_load4(w), v1 = mcu_load4(w + dw);
                const int16x2_t w0e = mcu_even_bytes(v0), w0o = mcu_odd_bytes(v0);
                const int16x2_t w1e = mcu_even_bytes(v1), w1o = mcu_odd_bytes(v1);
                uint32_t u = mcu_load4(x);
                int16x2_t xe = mcu_even_bytes(u), xo = mcu_odd_bytes(u);
                a00 = __smlad(xo, w0o, __smlad(xe, w0e, a00));
                a01 = __smlad(xo, w1o, __smlad(xe, w1e, a01));
                u = mcu_load4(x + dx);
                xe = mcu_even_bytes(u);
                xo = mcu_odd_bytes(u);
                a10 = __smlad(xo, w0o, __smlad(xe, w0e, a10));
                a11 = __smlad(xo, w1o, __smlad(xe, w1e, a11));
            }
            for (i = in_c & ~3; i < in_c; ++i) {
                a00 += x0[i] * w0[i];
                a01 += x0[i] * w1[i];
                a10 += x0[dx + i] * w0[i];
                a11 += x0[dx + i] * w1[i];
            }
            const int32_t acc[4] = {a00, a01, a10, a11};
            const int32_t where[4] = {p * out_c + oc, p * out_c + oc1, p1 * out_c + oc, p1 * out_c + oc1};
            for (int32_t k = 0; k < 4; ++k) {
                const int32_t c = k & 1 ? oc1 : oc;
                const int32_t value = mcu_requantize(acc[k], quant->multiplier[c], quant->shift[c]);
                output[where[k]] = mcu_clamp_s8(value + conv->output_offset, conv->activation);
            }
        }
    }
}

/* Patches up to this size are gathered on the stack (see below); DSP boards have >= 8 KB of stack. */
#define PATCH_BYTES 1024

/*
 * CONV_2D for cores with the DSP extension: the contract and results of src/mcu_conv2d_s8.c.
 * 1x1 stride-1 layers go to pointwise(). Otherwise output channels go four at a time through
 * mcu_dot4_s8. When the whole kernel patch fits in PATCH_BYTES, each output position first gathers
 * it into one contiguous run, out-of-image taps holding the input zero point (x + input_offset = 0,
 * exactly what skipping them gives), and every channel group takes it in one call: a 10x4 kernel
 * on one channel is then 40 values, not ten runs of four. Bigger patches go row by row (one call
 * per in-image kernel row lying wholly inside the image, tap by tap at the edges).
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

    if (k_h == 1 && k_w == 1 && conv->stride.h == 1 && conv->stride.w == 1 && conv->padding.h == 0
        && conv->padding.w == 0) {
        pointwise(conv, quant, input_dims->n * in_h * in_w, in_c, input, out_c, filter, bias, output);
        return;
    }
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * in_h * in_w * in_c;
        for (int32_t oy = 0; oy < out_h; ++oy) {
            const int32_t y0 = oy * conv->stride.h - conv->padding.h;
            for (int32_t ox = 0; ox < out_w; ++ox) {
                const int32_t x0 = ox * conv->stride.w - conv->padding.w;
                const int whole_rows = dil_w == 1 && x0 >= 0 && x0 + k_w <= in_w;
                if (kernel_size <= PATCH_BYTES) {
                    int8_t patch[PATCH_BYTES];
                    for (int32_t ky = 0; ky < k_h; ++ky) {
                        const int32_t iy = y0 + ky * dil_h;
                        for (int32_t kx = 0; kx < k_w; ++kx) {
                            const int32_t ix = x0 + kx * dil_w;
                            int8_t *tap = patch + (ky * k_w + kx) * in_c;
                            if (iy >= 0 && iy < in_h && ix >= 0 && ix < in_w) {
                                memcpy(tap, image + (iy * in_w + ix) * in_c, (size_t)in_c);
                            } else {
                                memset(tap, -conv->input_offset, (size_t)in_c);
                            }
                        }
                    }
                    for (int32_t oc = 0; oc < out_c; oc += 4) {
                        int32_t channel[4], acc[4];
                        const int8_t *kernel[4];
                        mcu_group4(oc, out_c, bias, filter, kernel_size, channel, acc, kernel);
                        mcu_dot4_s8(patch, conv->input_offset, kernel, 0, kernel_size, acc);
                        mcu_store4(acc, channel, quant, conv->output_offset, conv->activation, output);
                    }
                    output += out_c;
                    continue;
                }
                for (int32_t oc = 0; oc < out_c; oc += 4) {
                    int32_t channel[4], acc[4];
                    const int8_t *kernel[4];
                    mcu_group4(oc, out_c, bias, filter, kernel_size, channel, acc, kernel);
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
