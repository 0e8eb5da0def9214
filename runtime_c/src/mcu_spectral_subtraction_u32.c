#include "mcu_nn_support.h"

void mcu_spectral_subtraction_u32(const mcu_spectral_subtraction_params *params, const uint32_t *input,
                                  uint32_t *output, uint32_t *noise_estimate, uint32_t *state)
{
    for (int32_t i = 0; i < params->channels; ++i) {
        const int odd = i & 1; /* odd channels have their own smoothing */
        const uint32_t smoothing = odd ? params->alternate_smoothing : params->smoothing;
        const uint32_t keep = odd ? params->alternate_one_minus_smoothing : params->one_minus_smoothing;
        const uint32_t scaled = input[i] << params->smoothing_bits;
        state[i] = (uint32_t)(((uint64_t)scaled * smoothing + (uint64_t)state[i] * keep) >>
                              params->spectral_subtraction_bits);
        uint32_t estimate = state[i];
        if (estimate > scaled) {
            estimate = scaled;
            if (params->clamping) {
                state[i] = scaled;
            }
        }
        const uint32_t floor = (uint32_t)(((uint64_t)input[i] * params->min_signal_remaining) >>
                                          params->spectral_subtraction_bits);
        const uint32_t subtracted = (scaled - estimate) >> params->smoothing_bits;
        output[i] = subtracted > floor ? subtracted : floor;
    }
    for (int32_t i = 0; i < params->channels; ++i) {
        noise_estimate[i] = state[i];
    }
}
