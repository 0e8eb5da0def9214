#include "mcu_nn_fp_exact.h"

#include <math.h>

#include "mcu_nn_support.h"

static inline float unary(const mcu_unary_f32_params *p, float x)
{
    switch (p->operation) {
    case MCU_F32_RELU: return x < 0.0f ? 0.0f : x;
    case MCU_F32_RELU6: return x > 6.0f ? 6.0f : x < 0.0f ? 0.0f : x;
    case MCU_F32_ABS: return fabsf(x);
    case MCU_F32_NEG: return -x;
    case MCU_F32_SQUARE: return x * x;
    case MCU_F32_SQRT: return sqrtf(x);
    case MCU_F32_RSQRT: return 1.0f / sqrtf(x);
    case MCU_F32_EXP: return mcu_expf(x);
    case MCU_F32_LOG: return mcu_logf(x);
    case MCU_F32_LOGISTIC: return mcu_logistic_f32(x);
    case MCU_F32_ELU: return x < 0.0f ? mcu_expm1f(x) : x;
    case MCU_F32_TANH: return mcu_tanhf(x);
    case MCU_F32_HARD_SWISH: {
        const float r = 0.0f < x + 3.0f ? x + 3.0f : 0.0f; /* std::max(0, x + 3): NaN -> 0 */
        return x * (r < 6.0f ? r : 6.0f) / 6.0f;
    }
    default: return x > 0.0f ? x : x * p->alpha; /* LEAKY_RELU */
    }
}

/*
 * Elementwise float32 ops, each spelled as TFLM's float kernel spells it (comparisons in its order, so
 * NaNs go where TFLM's go). e^x, e^x - 1, log and tanh are mcu_expf, mcu_expm1f, mcu_logf and mcu_tanhf,
 * bit for bit the host glibc's expf, expm1f, logf and tanhf (measured on every 7th float); square roots
 * are IEEE's, correctly rounded everywhere.
 */
void mcu_unary_f32(const mcu_unary_f32_params *params, int32_t size, const float *input, float *output)
{
    for (int32_t i = 0; i < size; ++i) {
        output[i] = unary(params, input[i]);
    }
}
