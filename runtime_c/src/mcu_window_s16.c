#include "mcu_nn_support.h"

void mcu_window_s16(const mcu_window_params *params, const int16_t *input, const int16_t *window, int16_t *output)
{
    for (int32_t start = 0; start < params->size; start += params->window_size) {
        for (int32_t i = 0; i < params->window_size; ++i) {
            const int32_t raw = ((int32_t)input[start + i] * window[i]) >> params->shift;
            output[start + i] = (int16_t)(raw < INT16_MIN ? INT16_MIN : (raw > INT16_MAX ? INT16_MAX : raw));
        }
    }
}
