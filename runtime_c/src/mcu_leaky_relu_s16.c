#include "mcu_nn_support.h"

void mcu_leaky_relu_s16(const mcu_leaky_relu_params *leaky, int32_t size, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < size; ++i) {
        const int32_t d = input[i] + leaky->input_offset;
        const int32_t below = mcu_requantize(d, leaky->alpha_multiplier, leaky->alpha_shift);
        const int32_t y = d >= 0 ? mcu_requantize(d, leaky->identity_multiplier, leaky->identity_shift)
                                 : leaky->alpha_negate ? -below : below;
        output[i] = (int16_t)mcu_sat_s16(y + leaky->output_offset);
    }
}
