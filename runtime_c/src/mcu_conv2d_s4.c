#include "mcu_nn_conv_ref.h"
#include "mcu_nn_window.h"

/* Reference CONV_2D (TFLM reference_integer_ops::ConvPerChannel) on an INT4 filter: mcu_nn_conv_ref.h. */
static void position(void *state, const mcu_window *window)
{
    mcu_conv_ref_position((mcu_conv_ref *)state, window, 4);
}

void mcu_conv2d_s4(const mcu_conv_params *conv, const mcu_per_channel_quant *quant,
                   const mcu_dims *input_dims, const int8_t *input,
                   const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                   const mcu_dims *output_dims, int8_t *output)
{
    mcu_conv_ref state = {conv, quant, input_dims, filter_dims, input, filter, bias, output_dims->c, output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, conv->stride, conv->padding, conv->dilation, kernel, position, &state);
}
