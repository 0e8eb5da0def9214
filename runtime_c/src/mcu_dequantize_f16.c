#include "mcu_nn_half.h"

/* float16 -> float32, exact: an fp16 layer's output for float32 readers. */
void mcu_dequantize_f16(int32_t count, const mcu_f16 *input, float *output)
{
    for (int32_t i = 0; i < count; ++i) {
        output[i] = (float)input[i];
    }
}
