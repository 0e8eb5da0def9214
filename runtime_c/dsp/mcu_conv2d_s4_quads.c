#include "mcu_nn_conv2d_dsp.h"

/* CONV_2D on DSP cores, six positions at a time on INT4 weights four channels a word: mcu_conv2d_s8_dsp. */
void mcu_conv2d_s4_quads(const mcu_conv_params *conv, const mcu_channel *channels,
                         const mcu_dims *input_dims, const int8_t *input,
                         const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias,
                         const mcu_dims *output_dims, int8_t *output, int16_t *scratch)
{
    mcu_conv2d_s8_dsp(conv, channels, input_dims, input, filter_dims, filter, bias, NULL, NULL, output_dims, output,
                      scratch, MCU_FORM_S4_QUADS, 0);
}
