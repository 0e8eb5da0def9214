#include "mcu_nn_support.h"

void mcu_energy_s16(const mcu_energy_params *params, const int16_t *input, uint32_t *output)
{
    for (int32_t i = 0; i < params->size; ++i) {
        uint32_t energy = 0;
        if (i >= params->start && i < params->end) {
            const int32_t re = input[2 * i], im = input[2 * i + 1];
            energy = (uint32_t)(re * re) + (uint32_t)(im * im); /* TFLM's int32 sum wraps the same */
        }
        output[i] = energy;
    }
}
