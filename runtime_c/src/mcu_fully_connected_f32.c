#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/*
 * Reference FULLY_CONNECTED in float32 (TFLM reference_ops::FullyConnected): each unit sums its
 * products in input order from 0.0f, then adds the bias.
 */
void mcu_fully_connected_f32(const mcu_float_activation *activation, int32_t batches, int32_t depth,
                             int32_t units, const float *input, const float *weights, const float *bias,
                             float *output)
{
    for (int32_t b = 0; b < batches; ++b, input += depth) {
        const float *w = weights;
        for (int32_t u = 0; u < units; ++u, w += depth) {
            float total = 0.0f;
            for (int32_t d = 0; d < depth; ++d) {
                total += input[d] * w[d];
            }
            *output++ = mcu_clamp_f32(total + (bias != NULL ? bias[u] : 0.0f), *activation);
        }
    }
}
