#include "mcu_nn_dw_dsp.h"

/* Weak: mcu_conv2d_depthwise_x4 names every depthwise kernel it runs; a build links the one its layers name. */
#pragma weak mcu_depthwise_conv2d_s8_x4
#pragma weak mcu_depthwise_conv2d_s4_x4

/* A CONV_2D run in strips into the 3x3 DEPTHWISE_CONV_2D that alone reads it, a channel at a time:
 * mcu_conv2d_depthwise_x4 on mcu_depthwise_conv2d_s8_x2. */
void mcu_conv2d_depthwise_s8_x2(const mcu_conv_params *conv, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                const int32_t *bias, const mcu_dims *mid_dims,
                                const mcu_dw_conv_params *dw, const mcu_channel *dw_channels,
                                const mcu_dims *dw_filter_dims, const int16_t *filter_pairs,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int16_t *scratch, int8_t *rows, int16_t *window)
{
    mcu_conv2d_depthwise_x4(conv, channels, input_dims, input, filter_dims, filter, filter_bits, bias, mid_dims, dw,
                            dw_channels, dw_filter_dims, filter_pairs, 2, bias_folded, output_dims, output, scratch,
                            rows, (int8_t *)(void *)window);
}
