#include "mcu_nn_half.h"

/* float32 -> float16, to nearest even (past 65504: infinite): an fp16 layer's input. */
void mcu_quantize_f16(int32_t count, const float *input, mcu_f16 *output)
{
    for (int32_t i = 0; i < count; ++i) {
        output[i] = (mcu_f16)input[i];
    }
}
