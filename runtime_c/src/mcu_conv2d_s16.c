#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/*
 * Reference 16x8 CONV_2D (TFLM reference_integer_ops::ConvPerChannel for int16): int16 input,
 * int8 filter, int64 bias, no zero points (TFLM's int16 kernel adds none);
 *   acc = bias[oc] + sum over in-image taps of input * filter      (int64, or int32 wrapping)
 *   out = clamp(requantize(acc, multiplier[oc], shift[oc]))        (mcu_requantize_wide)
 */
typedef struct {
    const mcu_conv_params *conv;
    const mcu_per_channel_quant *quant;
    int32_t accumulator_bits;
    const mcu_dims *input_dims, *filter_dims;
    const int16_t *input;
    const int8_t *filter;
    const int64_t *bias;
    int32_t out_c;
    int16_t *output;
} conv_s16;

static inline void conv_s16_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores and loads through int8 pointers could alias it */
    conv_s16 *s = (conv_s16 *)state;
    const mcu_conv_params *conv = s->conv;
    const int32_t in_w = s->input_dims->w, in_c = s->input_dims->c;
    const int32_t k_w = s->filter_dims->w, taps = s->filter_dims->h * k_w * in_c;
    const int16_t *image = s->input + win.batch * s->input_dims->h * in_w * in_c;
    const int32_t dx = conv->dilation.w;
    for (int32_t oc = 0; oc < s->out_c; ++oc) {
        const int8_t *kernel = s->filter + oc * taps;
        int64_t acc = s->bias[oc];
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int16_t *x = image + ((win.y0 + ky * conv->dilation.h) * in_w + win.x0 + win.kx0 * dx) * in_c;
            const int8_t *w = kernel + (ky * k_w + win.kx0) * in_c;
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx, x += dx * in_c, w += in_c) {
                int32_t partial = 0; /* one tap's channels: |x * w| <= 2^22, far from 2^31 for real depths */
                for (int32_t ic = 0; ic < in_c; ++ic) {
                    partial += x[ic] * w[ic];
                }
                acc += partial;
            }
        }
        const int32_t y = mcu_requantize_wide(acc, s->accumulator_bits, s->quant->multiplier[oc], s->quant->shift[oc]);
        *s->output++ = mcu_clamp_s16(y, conv->activation);
    }
}

void mcu_conv2d_s16(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                    const mcu_dims *input_dims, const int16_t *input,
                    const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                    const mcu_dims *output_dims, int16_t *output)
{
    conv_s16 state = {conv, quant, accumulator_bits, input_dims, filter_dims, input, filter, bias, output_dims->c,
                      output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, conv->stride, conv->padding, conv->dilation, kernel, conv_s16_position,
                    &state);
}
