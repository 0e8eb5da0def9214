#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/*
 * Reference 16x8 DEPTHWISE_CONV_2D (TFLM reference_integer_ops::DepthwiseConvPerChannel for int16):
 * int16 input, int8 filter [1, KH, KW, C * depth_multiplier], int64 bias and accumulator, no zero
 * points; output channel oc = ic * depth_multiplier + m reads input channel ic.
 */
typedef struct {
    const mcu_dw_conv_params *dw;
    const mcu_per_channel_quant *quant;
    const mcu_dims *input_dims, *filter_dims;
    const int16_t *input;
    const int8_t *filter;
    const int64_t *bias;
    int32_t out_c;
    int16_t *output;
} dw_s16;

static inline void dw_s16_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores and loads through int8 pointers could alias it */
    dw_s16 *s = (dw_s16 *)state;
    const mcu_dw_conv_params *dw = s->dw;
    const int32_t in_w = s->input_dims->w, in_c = s->input_dims->c, k_w = s->filter_dims->w, out_c = s->out_c;
    const int16_t *image = s->input + win.batch * s->input_dims->h * in_w * in_c;
    for (int32_t oc = 0; oc < out_c; ++oc) {
        const int32_t ic = oc / dw->depth_multiplier;
        int64_t acc = s->bias[oc];
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int32_t iy = win.y0 + ky * dw->dilation.h;
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx) {
                const int32_t ix = win.x0 + kx * dw->dilation.w;
                acc += image[(iy * in_w + ix) * in_c + ic] * s->filter[(ky * k_w + kx) * out_c + oc];
            }
        }
        *s->output++ = mcu_clamp_s16(mcu_requantize64(acc, s->quant->multiplier[oc], s->quant->shift[oc]),
                                     dw->activation);
    }
}

void mcu_depthwise_conv2d_s16(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                              const mcu_dims *input_dims, const int16_t *input,
                              const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                              const mcu_dims *output_dims, int16_t *output)
{
    dw_s16 state = {dw, quant, input_dims, filter_dims, input, filter, bias, output_dims->c, output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, dw->stride, dw->padding, dw->dilation, kernel, dw_s16_position, &state);
}
