#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/* BATCH_MATMUL in float32 (TFLM reference_ops::BatchMatMul): each output sums its depth products from
 * 0.0f in order; the operands walked as mcu_batch_matmul walks them (its quantization fields unused). */
void mcu_batch_matmul_f32(const mcu_batch_matmul_params *p, const float *lhs, const float *rhs, float *output)
{
    for (int32_t b = 0; b < p->batches; ++b) {
        for (int32_t i = 0; i < p->rows; ++i) {
            for (int32_t j = 0; j < p->cols; ++j) {
                const float *l = lhs + p->lhs_offsets[b] + i * p->lhs_row_stride;
                const float *r = rhs + p->rhs_offsets[b] + j * p->rhs_col_stride;
                float total = 0.0f;
                for (int32_t k = 0; k < p->depth; ++k, l += p->lhs_depth_stride, r += p->rhs_depth_stride) {
                    total += *l * *r;
                }
                *output++ = total;
            }
        }
    }
}
