#include "mcu_nn.h"

/* float(x - zero_point) is exact (int16 included), so one float32 multiply rounds the exact product
 * once, as TFLM's double product cast to float does. */
void mcu_dequantize_f32(const mcu_float_quant *quant, int32_t size, const void *input, float *output)
{
    for (int32_t i = 0; i < size; ++i) {
        const int32_t q = quant->bits == 16 ? ((const int16_t *)input)[i] : ((const int8_t *)input)[i];
        output[i] = (float)(q - quant->zero_point) * quant->scale;
    }
}
