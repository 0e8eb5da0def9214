#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"

/* L's row i of the matrix at `at` quantized into `quantized` (gathered into `row` first where adj_x strides
 * it): its factor, and its zero point in *offset. */
static float quantize(const mcu_batch_matmul_params *p, int32_t asymmetric, const float *at, int32_t i, float *row,
                      int8_t *quantized, int32_t *offset)
{
    const float *l = at + i * p->lhs_row_stride;
    if (p->lhs_depth_stride != 1) {
        for (int32_t k = 0; k < p->depth; ++k) {
            row[k] = l[k * p->lhs_depth_stride];
        }
        l = row;
    }
    return mcu_hybrid_quantize_row(asymmetric, p->depth, l, quantized, offset);
}

/*
 * BATCH_MATMUL with a constant int8 R (LiteRT's EvalHybrid): each row of L quantized as a hybrid
 * FULLY_CONNECTED's input rows are; each output's int32 dot product with its column of R taken back
 * through float32 less the column's sum times the row's zero point, truncated to int32, then 0.0f +
 * scale * (float)that, scale the row's factor times the weights' one scale or times the column's. The
 * factors and zero points are those of the rows of the matrix at factor_offsets[b], the column sums from
 * sum_offsets[b] (LiteRT's, which are another batch's where two batch dimensions exceed 1).
 */
void mcu_batch_matmul_hybrid_s8(const mcu_batch_matmul_params *p, const mcu_hybrid_params *hybrid, const float *lhs,
                                const int8_t *rhs, const float *scales, const int32_t *column_sums,
                                const int32_t *factor_offsets, const int32_t *sum_offsets, int8_t *scratch,
                                float *output)
{
    float *row = (float *)(void *)scratch;
    int8_t *quantized = scratch + 4 * p->depth;
    for (int32_t b = 0; b < p->batches; ++b) {
        const int32_t *sums = column_sums != NULL ? column_sums + sum_offsets[b] : NULL;
        for (int32_t i = 0; i < p->rows; ++i) {
            int32_t offset = 0;
            float factor = 0.0f;
            if (factor_offsets[b] != p->lhs_offsets[b]) {
                factor = quantize(p, hybrid->asymmetric, lhs + factor_offsets[b], i, row, quantized, &offset);
            }
            int32_t own = 0;
            const float own_factor = quantize(p, hybrid->asymmetric, lhs + p->lhs_offsets[b], i, row, quantized, &own);
            if (factor_offsets[b] == p->lhs_offsets[b]) {
                factor = own_factor, offset = own;
            }
            factor = scales != NULL ? factor : factor * hybrid->filter_scale;
            for (int32_t j = 0; j < p->cols; ++j) {
                const int8_t *r = rhs + p->rhs_offsets[b] + j * p->rhs_col_stride;
                uint32_t dot = 0;
                for (int32_t k = 0; k < p->depth; ++k, r += p->rhs_depth_stride) {
                    dot += (uint32_t)(quantized[k] * *r);
                }
                const float sum = sums != NULL ? (float)sums[j] : 0.0f;
                const int32_t total = mcu_truncate_f32_x86((float)(int32_t)dot - sum * (float)offset);
                *output++ = 0.0f + (scales != NULL ? factor * scales[j] : factor) * (float)total;
            }
        }
    }
}
