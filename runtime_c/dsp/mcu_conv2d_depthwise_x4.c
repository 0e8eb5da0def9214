#include "mcu_nn_dw_dsp.h"

/* Weak: a model links the depthwise kernel of its own filter (the build lists it), not the other. */
#pragma weak mcu_depthwise_conv2d_s4_x4
#pragma weak mcu_depthwise_conv2d_s8_x4

void mcu_conv2d_depthwise_x4(
    const mcu_conv_params *conv, const mcu_channel *channels, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const void *filter, int32_t filter_bits, const int32_t *bias,
    const mcu_dims *mid_dims, const mcu_dw_conv_params *dw, const mcu_channel *dw_channels,
    const mcu_dims *dw_filter_dims, const void *dw_filter, int dw_bits, const int32_t *bias_folded,
    const mcu_dims *output_dims, int8_t *output, int16_t *scratch, int8_t *rows, int8_t *window)
{
    const int32_t span = (dw_filter_dims->h - 1) * dw->dilation.h + 1, out_row = output_dims->w * output_dims->c;
    int32_t held[2] = {0, 0};
    for (int32_t oy = 0; oy < output_dims->h; ++oy) {
        mcu_dw_conv_params one = *dw;
        mcu_dims in;
        one.padding.h = mcu_conv2d_hold_rows_s8_x6(conv, channels, input_dims, input, filter_dims, filter, filter_bits,
                                                   bias, mid_dims, oy * dw->stride.h - dw->padding.h, span, held,
                                                   rows, scratch, &in);
        const mcu_dims line = {1, 1, output_dims->w, output_dims->c};
        if (dw_bits == 4) {
            mcu_depthwise_conv2d_s4_x4(&one, dw_channels, &in, rows, dw_filter_dims, (const int8_t *)dw_filter,
                                       bias_folded, &line, output + oy * out_row, window);
        } else {
            mcu_depthwise_conv2d_s8_x4(&one, dw_channels, &in, rows, dw_filter_dims, (const int16_t *)dw_filter,
                                       bias_folded, &line, output + oy * out_row, window);
        }
    }
}
