#include "mcu_nn_dw_dsp.h"

/*
 * DEPTHWISE_CONV_2D with depth multiplier 1 on DSP cores: the contract and results of
 * mcu_depthwise_conv2d_s8, on constants mcugen lays out for it:
 *   filter_x4: [ceil(C/4)][KH*KW][4] int16, each group's taps in order, a tap's four channels as
 *              (c, c+2, c+1, c+3) (the order SXTB16 unpacks a word in), zero past C;
 *   bias_folded: bias[c] + input_offset * sum of channel c's taps, wrapping as int32: the offset
 *              is then added to no input value, padding included, as the window pads with
 *              -input_offset (so x * w there is -input_offset * w, cancelling that tap's share);
 *   window:    scratch of rows * cols * 4 bytes, rows = (OH-1)*stride_h + (KH-1)*dilation_h + 1 and
 *              cols likewise, word-aligned.
 * Channels go four at a time: the group is copied into the window (mcu_dw_group), then every output
 * of the group is computed from it. The output may therefore be the input's own memory (in place):
 * output (p, c) lands on input (p, c), a channel of the group already copied out.
 */
void mcu_depthwise_conv2d_s8_x4(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const int16_t *filter_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int8_t *window)
{
    const mcu_dw_geometry lay = mcu_dw_layout(dw, input_dims, filter_dims, output_dims);
    const int32_t taps = filter_dims->h * filter_dims->w;
    for (int32_t oc = 0; oc < output_dims->c; oc += 4) {
        mcu_dw_group(&lay, dw, channels, input_dims, input, filter_x4 + oc * taps, bias_folded, output_dims, output,
                     window, oc);
    }
}
