#include "mcu_nn_support.h"

/* float(x - zero_point) is exact (int16 included), so one float32 multiply rounds the exact product
 * once, as TFLM's double product cast to float does. */
void mcu_dequantize_f32(const mcu_float_quant *quant, int32_t size, const void *input, float *output)
{
    for (int32_t i = 0; i < size; ++i) {
        output[i] = (float)(mcu_load(input, i, quant->bits) - quant->zero_point) * quant->scale;
    }
}
