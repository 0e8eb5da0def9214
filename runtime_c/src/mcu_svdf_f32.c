#include "mcu_nn_fp_exact.h"

#include <math.h>

#include "mcu_nn_support.h"

/* TFLM's ActivationValFloat: std::max(0.0f, x) and std::min(x, hi) in that operand order. */
static float activate(mcu_f32_activation kind, float x)
{
    switch (kind) {
    case MCU_F32_ACT_RELU: return 0.0f < x ? x : 0.0f;
    case MCU_F32_ACT_RELU_N1_TO_1: {
        const float low = 1.0f < x ? 1.0f : x;
        return -1.0f < low ? low : -1.0f;
    }
    case MCU_F32_ACT_RELU6: {
        const float low = 6.0f < x ? 6.0f : x;
        return 0.0f < low ? low : 0.0f;
    }
    case MCU_F32_ACT_TANH: return mcu_tanhf(x);
    case MCU_F32_ACT_SIGN_BIT: return signbit(x) ? 1.0f : 0.0f;
    default: return x;
    }
}

void mcu_svdf_f32(const mcu_svdf_f32_params *p, const float *input, const float *weights_feature,
                  const float *weights_time, const float *bias, float *state, float *output)
{
    const int32_t filters = p->shape.filters, memory = p->shape.memory, size = p->shape.input_size;
    /* the whole buffer one place to the left, as TFLM moves it: each filter's oldest value leaves */
    for (int32_t i = 0; i + 1 < p->shape.batches * filters * memory; ++i) {
        state[i] = state[i + 1];
    }
    for (int32_t b = 0; b < p->shape.batches; ++b, input += size) {
        float *rows = state + b * filters * memory;
        for (int32_t f = 0; f < filters; ++f) {
            const float *w = weights_feature + f * size;
            float total = 0.0f;
            for (int32_t k = 0; k < size; ++k) {
                total += w[k] * input[k];
            }
            rows[f * memory + memory - 1] = total;
        }
        for (int32_t u = 0; u < filters / p->shape.rank; ++u) {
            float out = bias[u];
            for (int32_t r = 0; r < p->shape.rank; ++r) {
                const int32_t f = u * p->shape.rank + r;
                float total = 0.0f;
                for (int32_t j = 0; j < memory; ++j) {
                    total += weights_time[f * memory + j] * rows[f * memory + j];
                }
                out += total;
            }
            *output++ = activate(p->activation, out);
        }
    }
}
