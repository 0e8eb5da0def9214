#include "mcu_nn_conv_ref.h"
#include "mcu_nn_window.h"

/* Reference DEPTHWISE_CONV_2D (TFLM reference_integer_ops::DepthwiseConvPerChannel) on an INT4 filter:
 * mcu_nn_conv_ref.h. */
static void position(void *state, const mcu_window *window)
{
    mcu_dw_ref_position((mcu_dw_ref *)state, window, 4);
}

void mcu_depthwise_conv2d_s4(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                             const mcu_dims *input_dims, const int8_t *input,
                             const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                             const mcu_dims *output_dims, int8_t *output)
{
    mcu_dw_ref state = {dw, quant, input_dims, filter_dims, input, filter, bias, output_dims->c, output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, dw->stride, dw->padding, dw->dilation, kernel, position, &state);
}
