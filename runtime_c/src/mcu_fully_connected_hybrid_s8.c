#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"

/*
 * LiteRT's EvalHybridDense: every output starts as the bias (or 0); an input that is all zeros leaves
 * it there (LiteRT skips the products); otherwise each batch row is quantized, each unit's int32 dot
 * product less its weight sum times the row's zero point is scaled by the row's factor times the
 * weights' scale and added, one float32 product and one float32 sum; then the fused activation, as
 * ApplyActivationToVector's (mcu_hybrid_activate).
 */
void mcu_fully_connected_hybrid_s8(const mcu_hybrid_params *params, int32_t batches, int32_t depth,
                                   int32_t units, const float *input, const int8_t *filter, const float *scales,
                                   const int32_t *row_sums, const float *bias, int8_t *scratch, float *output)
{
    int32_t zero = 1;
    for (int32_t i = 0; i < batches * depth; ++i) {
        zero &= input[i] == 0.0f;
    }
    for (int32_t b = 0; b < batches; ++b, input += depth, output += units) {
        int32_t offset = 0;
        float factor = 1.0f;
        if (!zero) {
            factor = mcu_hybrid_quantize_row(params->asymmetric, depth, input, scratch, &offset);
            factor = scales != NULL ? factor : factor * params->filter_scale;
        }
        for (int32_t u = 0; u < units; ++u) {
            float v = bias != NULL ? bias[u] : 0.0f;
            if (!zero) {
                const int32_t dot = mcu_hybrid_dot(filter + u * depth, scratch, depth,
                                                   row_sums != NULL ? row_sums[u] : 0, offset);
                v = v + (float)dot * (scales != NULL ? factor * scales[u] : factor);
            }
            output[u] = mcu_hybrid_activate(v, params->activation);
        }
    }
}
