#include "mcu_nn_support.h"

void mcu_filter_bank_u32(const mcu_filter_bank_params *params, const uint32_t *input, const int16_t *weights,
                         const int16_t *unweights, const int16_t *frequency_starts, const int16_t *weight_starts,
                         const int16_t *widths, uint64_t *output)
{
    uint64_t weighted = 0, unweighted = 0;
    for (int32_t i = 0; i <= params->channels; ++i) {
        const uint32_t *bins = input + frequency_starts[i];
        const int16_t *w = weights + weight_starts[i], *u = unweights + weight_starts[i];
        for (int32_t j = 0; j < widths[i]; ++j) {
            /* an int16 weight as uint64: a negative one wraps, as in TFLM */
            weighted += (uint64_t)(int64_t)w[j] * bins[j];
            unweighted += (uint64_t)(int64_t)u[j] * bins[j];
        }
        if (i >= 1 && i <= params->outputs) { /* channel 0 is TFLM's scratch */
            output[i - 1] = weighted;
        }
        weighted = unweighted;
        unweighted = 0;
    }
}
