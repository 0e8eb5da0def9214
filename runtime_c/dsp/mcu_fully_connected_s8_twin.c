#include "mcu_nn_fc_twin_dsp.h"

/* FULLY_CONNECTED on DSP cores on twin words (kernels/layouts.py twin4): int8 weights, two units' bytes in each
 * halfword, 14 ALU instructions per 16 MACs where the int8 layout takes 18 (MCU_DOT4_TWIN), at the int8 layout's
 * flash; no filter offset (mcugen takes only layers without one). Layers requantized alike by a fast
 * row go through mcu_fc_twin_shared, the others (fewer: per-channel FULLY_CONNECTED layers are rare) a group of
 * four units at a time through their channel rows, on the twin loop's short form. */
void mcu_fully_connected_s8_twin(const mcu_fc_params *fc, const mcu_channel *channels,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const int8_t *filter_twins, const int32_t *bias_folded,
                                 const mcu_dims *output_dims, int8_t *output)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    if (fc->per_tensor && channels[0].fast) {
        mcu_fc_twin_shared(fc, mcu_fast_channel_of(channels), input_dims, input, filter_twins, bias_folded, units,
                           output);
        return;
    }
    for (int32_t n = 0; n < input_dims->n; ++n, input += depth, output += units) {
        const int32_t lifted = (int32_t)(128u * (uint32_t)mcu_row_sum(input, depth));
        const void *w = filter_twins;
        for (int32_t o = 0; o < units; o += 4) {
            int32_t a0, a1, a2, a3;
            mcu_twin_row_of(input, depth, &w, lifted, bias_folded + o, 1, &a0, &a1, &a2, &a3);
            mcu_fc_store4(a0, a1, a2, a3, fc->per_tensor ? channels : &channels[o], units - o, fc->output_offset,
                          fc->activation, output + o);
        }
    }
}
