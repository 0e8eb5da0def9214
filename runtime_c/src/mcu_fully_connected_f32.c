#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/*
 * Reference FULLY_CONNECTED in float32 (TFLM reference_ops::FullyConnected): each unit sums its
 * products in input order from 0.0f, then adds the bias. Four units at a time share each input value
 * (one load for four products); each unit's sum is still its own, in TFLM's order.
 */
void mcu_fully_connected_f32(const mcu_float_activation *activation, int32_t batches, int32_t depth,
                             int32_t units, const float *input, const float *filter, const float *bias,
                             float *output)
{
    for (int32_t b = 0; b < batches; ++b, input += depth) {
        int32_t u = 0;
        for (; u + 4 <= units; u += 4) {
            const float *w0 = filter + u * depth, *w1 = w0 + depth, *w2 = w1 + depth, *w3 = w2 + depth;
            float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f;
            for (int32_t d = 0; d < depth; ++d) {
                const float x = input[d];
                t0 += x * w0[d];
                t1 += x * w1[d];
                t2 += x * w2[d];
                t3 += x * w3[d];
            }
            const float sums[4] = {t0, t1, t2, t3};
            for (int32_t k = 0; k < 4; ++k) {
                *output++ = mcu_clamp_f32(sums[k] + (bias != NULL ? bias[u + k] : 0.0f), *activation);
            }
        }
        for (; u < units; ++u) {
            const float *w = filter + u * depth;
            float total = 0.0f;
            for (int32_t d = 0; d < depth; ++d) {
                total += input[d] * w[d];
            }
            *output++ = mcu_clamp_f32(total + (bias != NULL ? bias[u] : 0.0f), *activation);
        }
    }
}
