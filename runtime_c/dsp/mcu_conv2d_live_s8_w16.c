#include "mcu_nn_conv2d_dsp.h"

/* mcu_conv2d_s8_w16 computing only a layer's live channels, those whose weights are not all zero (the
 * others, pruned, output one value each whatever the input): filter_dims n of them, their filter, bias
 * and channel table rows in order, `live` their output channels; `pruned` holds every output channel's
 * value at a position (the live ones' overwritten). */
void mcu_conv2d_live_s8_w16(const mcu_conv_params *conv, const mcu_channel *channels,
                            const mcu_dims *input_dims, const int8_t *input,
                            const mcu_dims *filter_dims, const int16_t *filter_pairs, const int32_t *bias,
                            const int16_t *live, const int8_t *pruned, const mcu_dims *output_dims, int8_t *output,
                            int16_t *scratch)
{
    mcu_conv2d_s8_dsp(conv, channels, input_dims, input, filter_dims, filter_pairs, bias, live, pruned, output_dims,
                      output, scratch, MCU_FORM_W16, 0);
}
