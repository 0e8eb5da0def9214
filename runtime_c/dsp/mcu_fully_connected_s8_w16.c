#include "mcu_nn_fc_dsp.h"

/* FULLY_CONNECTED on DSP cores (mcu_fully_connected_dsp) on weights widened to int16 at build time
 * (kernels/layouts.py widen4): twice the filter's flash for 13 instructions per 16 MACs instead of 21;
 * two blocks of four values a turn on paired input loads (MCU_DOT4_W16_PAIRED). */
void mcu_fully_connected_s8_w16(const mcu_fc_params *fc, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const int16_t *filter_pairs, const int32_t *bias_folded,
                                const mcu_dims *output_dims, int8_t *output)
{
    mcu_fully_connected_dsp(fc, channels, input_dims, input, filter_pairs, bias_folded, output_dims, output, 3);
}
