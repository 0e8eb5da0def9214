#include "mcu_nn_support.h"

/*
 * Reference CONV_2D (TFLM reference_integer_ops::ConvPerChannel):
 *   acc = bias[oc] + sum over in-image taps of (input + input_offset) * filter
 *   out = clamp(requantize(acc, multiplier[oc], shift[oc]) + output_offset)
 * Taps outside the image contribute nothing, which is what zero-padding in the real domain means.
 * The int32 sum wraps past 2^31 as TFLM's does on every Arm and x86 target (unsigned here: C leaves
 * a signed overflow undefined).
 */
typedef struct {
    const mcu_conv_params *conv;
    const mcu_per_channel_quant *quant;
    const mcu_dims *input_dims, *filter_dims;
    const int8_t *input, *filter;
    const int32_t *bias;
    int32_t out_c;
    int8_t *output;
} conv_s8;

static inline void conv_s8_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores and loads through int8 pointers could alias it */
    conv_s8 *s = (conv_s8 *)state;
    const mcu_conv_params *conv = s->conv;
    const int32_t in_w = s->input_dims->w, in_c = s->input_dims->c;
    const int32_t k_w = s->filter_dims->w, taps = s->filter_dims->h * k_w * in_c;
    const int8_t *image = s->input + win.batch * s->input_dims->h * in_w * in_c;
    const int32_t offset = conv->input_offset, dx = conv->dilation.w;
    /* a row of adjacent taps (dilation 1) is one run of bytes in the input and in the filter alike */
    const int32_t runs = dx == 1 ? 1 : win.kx1 - win.kx0, run = dx == 1 ? (win.kx1 - win.kx0) * in_c : in_c;
    for (int32_t oc = 0; oc < s->out_c; ++oc) {
        const int8_t *kernel = s->filter + oc * taps;
        uint32_t acc = s->bias ? (uint32_t)s->bias[oc] : 0u; /* wraps as TFLM's int32 sum does on every target */
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int8_t *x = image + ((win.y0 + ky * conv->dilation.h) * in_w + win.x0 + win.kx0 * dx) * in_c;
            const int8_t *w = kernel + (ky * k_w + win.kx0) * in_c;
            for (int32_t r = 0; r < runs; ++r, x += dx * in_c, w += in_c) {
                for (int32_t i = 0; i < run; ++i) {
                    acc += (uint32_t)((x[i] + offset) * w[i]);
                }
            }
        }
        const int32_t y = mcu_requantize((int32_t)acc, s->quant->multiplier[oc], s->quant->shift[oc]) + conv->output_offset;
        *s->output++ = mcu_clamp_s8(y, conv->activation);
    }
}

void mcu_conv2d_s8(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                   const mcu_dims *input_dims, const int8_t *input,
                   const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                   const mcu_dims *output_dims, int8_t *output)
{
    conv_s8 state = {conv, quant, input_dims, filter_dims, input, filter, bias, output_dims->c, output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, conv->stride, conv->padding, conv->dilation, kernel, conv_s8_position,
                    &state);
}
