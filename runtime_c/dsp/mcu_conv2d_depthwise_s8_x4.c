#include "mcu_nn_dw_dsp.h"

/* Weak: mcu_conv2d_depthwise_x4 names both depthwise kernels; a build links the one its layers name. */
#pragma weak mcu_depthwise_conv2d_s4_x4

/* A CONV_2D run in strips into the DEPTHWISE_CONV_2D that alone reads it, on int16-widened depthwise weights:
 * mcu_conv2d_depthwise_x4. */
void mcu_conv2d_depthwise_s8_x4(const mcu_conv_params *conv, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                const int32_t *bias, const mcu_dims *mid_dims,
                                const mcu_dw_conv_params *dw, const mcu_channel *dw_channels,
                                const mcu_dims *dw_filter_dims, const int16_t *filter_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int16_t *scratch, int8_t *rows, int8_t *window)
{
    mcu_conv2d_depthwise_x4(conv, channels, input_dims, input, filter_dims, filter, filter_bits, bias, mid_dims, dw,
                            dw_channels, dw_filter_dims, filter_x4, 16, bias_folded, output_dims, output, scratch,
                            rows, window);
}
