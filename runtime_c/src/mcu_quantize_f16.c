#include "mcu_nn_half.h"

/* _Float16 is the host's and the cores' with half-precision arithmetic, where mcugen calls this; elsewhere the
 * file compiles to nothing. */
#if defined(__FLT16_MAX__)

/* float32 -> float16, to nearest even (past 65504: infinite): an fp16 layer's input. */
void mcu_quantize_f16(int32_t count, const float *input, mcu_f16 *output)
{
    for (int32_t i = 0; i < count; ++i) {
        output[i] = (mcu_f16)input[i];
    }
}

#endif /* __FLT16_MAX__ */
