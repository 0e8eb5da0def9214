#include "mcu_nn.h"

/* float(x - zero_point) is exact, so one float32 multiply rounds the exact product once, as TFLM's
 * double product cast to float does. */
void mcu_dequantize_s8_f32(const mcu_float_quant *quant, int32_t size, const int8_t *input, float *output)
{
    for (int32_t i = 0; i < size; ++i) {
        output[i] = (float)(input[i] - quant->zero_point) * quant->scale;
    }
}
