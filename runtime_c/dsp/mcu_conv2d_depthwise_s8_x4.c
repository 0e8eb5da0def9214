#include "mcu_nn_dsp.h"

/*
 * A one-image CONV_2D whose output only a DEPTHWISE_CONV_2D reads, without that output ever existing
 * whole (MCUNetV2's patch-based execution): `rows` holds the conv output rows the depthwise's current
 * output row reads (mcu_conv2d_hold_rows_s8_x6), and mcu_depthwise_conv2d_s8_x4 computes one output
 * row from them (its padding moved so that `rows` is its whole input).
 * scratch: the conv's; rows: ((KH-1) * dilation_h + 1) * OW_conv * C bytes; window: the depthwise's for
 * one output row. output must not be input.
 */
void mcu_conv2d_depthwise_s8_x4(const mcu_conv_params *conv, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                const int32_t *bias, const mcu_dims *mid_dims,
                                const mcu_dw_conv_params *dw, const mcu_channel *dw_channels,
                                const mcu_dims *dw_filter_dims, const int16_t *filter_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int16_t *scratch, int8_t *rows, int8_t *window)
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
        mcu_depthwise_conv2d_s8_x4(&one, dw_channels, &in, rows, dw_filter_dims, filter_x4, bias_folded, &line,
                                   output + oy * out_row, window);
    }
}
