#include "mcu_nn_dw_dsp.h"

/* mcu_depthwise_conv2d_s8_x4 on INT4 weights read packed (its filter_x4's values two to a byte, the low
 * nibble first): each group's unpacked past the window, from a word, once before its outputs. */
void mcu_depthwise_conv2d_s4_x4(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const int8_t *packed_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int8_t *window)
{
    const mcu_dw_geometry lay = mcu_dw_layout(dw, filter_dims, output_dims);
    const int32_t taps = filter_dims->h * filter_dims->w;
    int16_t *group = (int16_t *)(void *)(window + ((lay.rows * lay.cols * 4 + 3) & ~3));
    for (int32_t oc = 0; oc < output_dims->c; oc += 4) {
        mcu_unpack_s4_s16(packed_x4 + oc * taps / 2, taps * 4, group);
        mcu_dw_group(&lay, dw, channels, input_dims, input, group, bias_folded, output_dims, output, window, oc);
    }
}
