#include "mcu_nn_dsp.h"

/* First and one-past-last kernel index whose dilated tap origin + k * dilation lies in [0, size). */
static void dilated_taps(int32_t origin, int32_t kernel, int32_t dilation, int32_t size, int32_t *first,
                         int32_t *last)
{
    if (dilation == 1) {
        *first = origin < 0 ? -origin : 0;
        *last = size - origin;
    } else {
        *first = origin < 0 ? (-origin + dilation - 1) / dilation : 0;
        *last = size - origin > 0 ? (size - origin + dilation - 1) / dilation : 0;
    }
    *last = *last < kernel ? *last : kernel;
}

/* The in-image taps of output position (oy, ox): kernel rows [ky0, ky1) and columns [kx0, kx1),
 * the input address of tap (ky0, kx0) for channel 0 and the filter index of that tap. */
typedef struct {
    int32_t ky0, ky1, kx0, kx1;
    const int8_t *x;
    int32_t w;
} window;

static inline window window_at(const mcu_dw_conv_params *dw, const mcu_dims *input_dims, const int8_t *image,
                               const mcu_dims *filter_dims, int32_t out_c, int32_t oy, int32_t ox)
{
    window win;
    const int32_t y0 = oy * dw->stride.h - dw->padding.h, x0 = ox * dw->stride.w - dw->padding.w;
    dilated_taps(y0, filter_dims->h, dw->dilation.h, input_dims->h, &win.ky0, &win.ky1);
    dilated_taps(x0, filter_dims->w, dw->dilation.w, input_dims->w, &win.kx0, &win.kx1);
    win.x = image + ((y0 + win.ky0 * dw->dilation.h) * input_dims->w + x0 + win.kx0 * dw->dilation.w)
                    * input_dims->c;
    win.w = (win.ky0 * filter_dims->w + win.kx0) * out_c;
    return win;
}

/* acc[k] += (x[k] + offset) * w[k] for the four channels of one tap: one word of input and one of
 * filter, unpacked into int16 pairs, four single products (SMLABB/SMLATT). */
static inline void tap4(const int8_t *x, const int8_t *w, int16x2_t offset, int32_t acc[4])
{
    const uint32_t xv = mcu_load4(x), wv = mcu_load4(w);
    const int16x2_t even = __sadd16(mcu_even_bytes(xv), offset), odd = __sadd16(mcu_odd_bytes(xv), offset);
    const int16x2_t w_even = mcu_even_bytes(wv), w_odd = mcu_odd_bytes(wv);
    acc[0] = __smlabb(even, w_even, acc[0]);
    acc[1] = __smlabb(odd, w_odd, acc[1]);
    acc[2] = __smlatt(even, w_even, acc[2]);
    acc[3] = __smlatt(odd, w_odd, acc[3]);
}

/*
 * Four output channels oc..oc+3 of depth multiplier 1 over every position (tap4 per tap). The
 * in-image kernel rows are worked out once per output row, the columns per position; a window
 * with three in-image columns (every inner position of a 3-wide kernel) runs them unrolled.
 * `fast` is every channel's mcu_channel.fast: the requantization is chosen once per group.
 */
static inline void four_channels(const mcu_dw_conv_params *dw, const mcu_channel ch[4], int fast,
                                 const mcu_dims *input_dims, const int8_t *input, const mcu_dims *filter_dims,
                                 const int8_t *filter, const int32_t *bias, const mcu_dims *output_dims,
                                 int8_t *output, int32_t oc)
{
    const int32_t in_w = input_dims->w, in_c = input_dims->c, out_c = output_dims->c, k_w = filter_dims->w;
    const int32_t dx = dw->dilation.w * in_c, dy = dw->dilation.h * in_w * in_c, wdy = k_w * out_c;
    const int16x2_t offset = mcu_both_halves(dw->input_offset);
    const int32_t b0 = bias ? bias[oc] : 0, b1 = bias ? bias[oc + 1] : 0;
    const int32_t b2 = bias ? bias[oc + 2] : 0, b3 = bias ? bias[oc + 3] : 0;
    int8_t *out = output + oc;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * input_dims->h * in_w * in_c + oc;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * dw->stride.h - dw->padding.h;
            int32_t ky0, ky1;
            dilated_taps(y0, filter_dims->h, dw->dilation.h, input_dims->h, &ky0, &ky1);
            const int8_t *const x_top = image + (y0 + ky0 * dw->dilation.h) * in_w * in_c;
            const int8_t *const w_top = filter + ky0 * wdy + oc;
            for (int32_t ox = 0; ox < output_dims->w; ++ox, out += out_c) {
                const int32_t x0 = ox * dw->stride.w - dw->padding.w;
                int32_t kx0, kx1;
                dilated_taps(x0, k_w, dw->dilation.w, in_w, &kx0, &kx1);
                const int8_t *x = x_top + (x0 + kx0 * dw->dilation.w) * in_c, *w = w_top + kx0 * out_c;
                int32_t acc[4] = {b0, b1, b2, b3};
                if (kx1 - kx0 == 3) {
                    for (int32_t ky = ky0; ky < ky1; ++ky, x += dy, w += wdy) {
                        tap4(x, w, offset, acc);
                        tap4(x + dx, w + out_c, offset, acc);
                        tap4(x + 2 * dx, w + 2 * out_c, offset, acc);
                    }
                } else {
                    for (int32_t ky = ky0; ky < ky1; ++ky, x += dy, w += wdy) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            tap4(x + (kx - kx0) * dx, w + (kx - kx0) * out_c, offset, acc);
                        }
                    }
                }
                out[0] = mcu_channel_output(acc[0], &ch[0], fast, dw->output_offset, dw->activation);
                out[1] = mcu_channel_output(acc[1], &ch[1], fast, dw->output_offset, dw->activation);
                out[2] = mcu_channel_output(acc[2], &ch[2], fast, dw->output_offset, dw->activation);
                out[3] = mcu_channel_output(acc[3], &ch[3], fast, dw->output_offset, dw->activation);
            }
        }
    }
}

/* One output channel over every position: the channels four_channels leaves. */
static void one_channel(const mcu_dw_conv_params *dw, const mcu_channel *ch, const mcu_dims *input_dims,
                        const int8_t *input, const mcu_dims *filter_dims, const int8_t *filter,
                        const int32_t *bias, const mcu_dims *output_dims, int8_t *output, int32_t oc)
{
    const int32_t in_c = input_dims->c, out_c = output_dims->c;
    const int32_t dx = dw->dilation.w * in_c, dy = dw->dilation.h * input_dims->w * in_c;
    const int32_t wdy = filter_dims->w * out_c;
    int8_t *out = output + oc;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * input_dims->h * input_dims->w * in_c + oc / dw->depth_multiplier;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            for (int32_t ox = 0; ox < output_dims->w; ++ox, out += out_c) {
                const window win = window_at(dw, input_dims, image, filter_dims, out_c, oy, ox);
                int32_t acc = bias ? bias[oc] : 0;
                const int8_t *x_row = win.x, *w_row = filter + win.w + oc;
                for (int32_t ky = win.ky0; ky < win.ky1; ++ky, x_row += dy, w_row += wdy) {
                    const int8_t *x = x_row, *w = w_row;
                    for (int32_t kx = win.kx0; kx < win.kx1; ++kx, x += dx, w += out_c) {
                        acc += (*x + dw->input_offset) * *w;
                    }
                }
                *out = mcu_channel_output(acc, ch, ch->fast, dw->output_offset, dw->activation);
            }
        }
    }
}

/*
 * DEPTHWISE_CONV_2D for cores with the DSP extension: the contract and results of
 * src/mcu_depthwise_conv2d_s8.c. With depth multiplier 1 channels go four at a time
 * (four_channels), the rest one at a time (a single input channel goes to CONV_2D instead); each group runs over all positions,
 * so its requantization constants are set up once. In-image taps are worked out per position, and
 * the loops walk pointers: no division or multiplication per tap.
 */
void mcu_depthwise_conv2d_s8(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output)
{
    const int32_t out_c = output_dims->c, mult = dw->depth_multiplier;
    const int32_t limit = mcu_bias_limit(filter_dims->h * filter_dims->w);
    const int32_t four_wide = mult == 1 ? out_c & ~3 : 0;
    int32_t oc = 0;
    for (; oc < four_wide; oc += 4) {
        mcu_channel ch[4];
        for (int32_t k = 0; k < 4; ++k) {
            mcu_channel_init(&ch[k], quant, oc + k, bias, limit);
        }
        if (ch[0].fast && ch[1].fast && ch[2].fast && ch[3].fast) {
            four_channels(dw, ch, 1, input_dims, input, filter_dims, filter, bias, output_dims, output, oc);
        } else {
            four_channels(dw, ch, 0, input_dims, input, filter_dims, filter, bias, output_dims, output, oc);
        }
    }
    for (; oc < out_c; ++oc) {
        mcu_channel ch;
        mcu_channel_init(&ch, quant, oc, bias, limit);
        one_channel(dw, &ch, input_dims, input, filter_dims, filter, bias, output_dims, output, oc);
    }
}
