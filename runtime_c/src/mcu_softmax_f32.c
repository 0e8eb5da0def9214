#include "mcu_nn_fp_exact.h"

#include <float.h>

#include "mcu_nn_support.h"

/*
 * Reference SOFTMAX in float32 (TFLM reference_ops::Softmax): per row, the maximum (std::max from
 * the lowest float), e^((x - max) * beta) for each value, their sum in order, and each divided by it.
 */
void mcu_softmax_f32(float beta, int32_t rows, int32_t depth, const float *input, float *output)
{
    for (int32_t r = 0; r < rows; ++r, input += depth, output += depth) {
        float max = -FLT_MAX;
        for (int32_t c = 0; c < depth; ++c) {
            max = max < input[c] ? input[c] : max;
        }
        float sum = 0.0f;
        for (int32_t c = 0; c < depth; ++c) {
            output[c] = mcu_expf((input[c] - max) * beta);
            sum += output[c];
        }
        for (int32_t c = 0; c < depth; ++c) {
            output[c] = output[c] / sum;
        }
    }
}
