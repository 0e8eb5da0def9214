#include "mcu_nn_support.h"

/*
 * Reference DEPTHWISE_CONV_2D (TFLM reference_integer_ops::DepthwiseConvPerChannel): output channel
 * oc = ic * depth_multiplier + m filters input channel ic alone, with the arithmetic of mcu_conv2d_s8.
 */
typedef struct {
    const mcu_dw_conv_params *dw;
    const mcu_per_channel_quant *quant;
    const mcu_dims *input_dims, *filter_dims;
    const int8_t *input, *filter;
    const int32_t *bias;
    int32_t out_c;
    int8_t *output;
} dw_s8;

static inline void dw_s8_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores and loads through int8 pointers could alias it */
    dw_s8 *s = (dw_s8 *)state;
    const mcu_dw_conv_params *dw = s->dw;
    const int32_t in_w = s->input_dims->w, in_c = s->input_dims->c, k_w = s->filter_dims->w, out_c = s->out_c;
    const int8_t *image = s->input + win.batch * s->input_dims->h * in_w * in_c;
    for (int32_t oc = 0; oc < out_c; ++oc) {
        const int32_t ic = oc / dw->depth_multiplier;
        uint32_t acc = s->bias ? (uint32_t)s->bias[oc] : 0u; /* wraps as TFLM's int32 sum does on every target */
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int32_t iy = win.y0 + ky * dw->dilation.h;
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx) {
                const int32_t ix = win.x0 + kx * dw->dilation.w;
                acc += (uint32_t)((image[(iy * in_w + ix) * in_c + ic] + dw->input_offset) * s->filter[(ky * k_w + kx) * out_c + oc]);
            }
        }
        const int32_t y = mcu_requantize((int32_t)acc, s->quant->multiplier[oc], s->quant->shift[oc]) + dw->output_offset;
        *s->output++ = mcu_clamp_s8(y, dw->activation);
    }
}

void mcu_depthwise_conv2d_s8(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output)
{
    dw_s8 state = {dw, quant, input_dims, filter_dims, input, filter, bias, output_dims->c, output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, dw->stride, dw->padding, dw->dilation, kernel, dw_s8_position, &state);
}
