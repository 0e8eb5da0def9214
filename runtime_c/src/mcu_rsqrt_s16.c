#include "mcu_nn_support.h"

/* TFLM RsqrtEvalQuantized<int16_t>: data = 1 / sqrt(x) << 20 (one requantize of 1 by the inverse square
 * root), then data requantized to the output; see mcu_nn_elementwise.h. */
void mcu_rsqrt_s16(const mcu_rescale *rescale, int32_t size, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < size; ++i) {
        const int32_t x = input[i];
        if (x <= 0) {
            output[i] = INT16_MAX;
            continue;
        }
        const mcu_rescale inv = mcu_inv_sqrt(x);
        const int32_t data = mcu_requantize(1, inv.multiplier, inv.shift + 20);
        const int32_t y = mcu_requantize(data, rescale->multiplier, rescale->shift - 20);
        output[i] = (int16_t)(y < INT16_MIN ? INT16_MIN : y > INT16_MAX ? INT16_MAX : y);
    }
}
