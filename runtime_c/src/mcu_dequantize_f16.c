#include "mcu_nn_half.h"

/* _Float16 is the host's and the cores' with half-precision arithmetic, where mcugen calls this; elsewhere the
 * file compiles to nothing. */
#if defined(__FLT16_MAX__)

/* float16 -> float32, exact: an fp16 layer's output for float32 readers. */
void mcu_dequantize_f16(int32_t count, const mcu_f16 *input, float *output)
{
    for (int32_t i = 0; i < count; ++i) {
        output[i] = (float)input[i];
    }
}

#endif /* __FLT16_MAX__ */
