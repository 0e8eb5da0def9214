#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

static inline float binary(const mcu_binary_f32_params *p, float a, float b)
{
    switch (p->operation) {
    case MCU_F32_ADD: return mcu_clamp_f32(a + b, p->activation);
    case MCU_F32_SUB: return mcu_clamp_f32(a - b, p->activation);
    case MCU_F32_MUL: return mcu_clamp_f32(a * b, p->activation);
    case MCU_F32_DIV: return mcu_clamp_f32(a / b, p->activation);
    case MCU_F32_MAXIMUM: return a > b ? a : b;
    case MCU_F32_MINIMUM: return a < b ? a : b;
    case MCU_F32_PRELU: return a >= 0.0f ? a : a * b;
    default: {
        const float d = a - b;
        return d * d;
    }
    }
}

/*
 * Elementwise float32 ADD, SUB, MUL, DIV (then the fused activation), MAXIMUM, MINIMUM (TFLM's
 * `a > b ? a : b`, `a < b ? a : b`), SQUARED_DIFFERENCE ((a - b) * (a - b)) and PRELU (`a >= 0 ? a : a * b`,
 * b the broadcast alpha), broadcasting as numpy
 * does: one IEEE operation per element, as TFLM's float kernels compute them.
 */
void mcu_binary_f32(const mcu_binary_f32_params *params, const mcu_broadcast *bc, const float *input1,
                    const float *input2, float *output)
{
    int32_t index[MCU_MAX_DIMS] = {0};
    const int32_t last = bc->rank - 1, n = bc->shape[last], step1 = bc->stride1[last], step2 = bc->stride2[last];
    do {
        const float *a = input1 + mcu_dot_index(last, index, bc->stride1);
        const float *b = input2 + mcu_dot_index(last, index, bc->stride2);
        for (int32_t i = 0; i < n; ++i) {
            *output++ = binary(params, a[i * step1], b[i * step2]);
        }
    } while (mcu_next_index(last, bc->shape, index));
}
