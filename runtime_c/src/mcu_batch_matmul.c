#include "mcu_nn_support.h"

/*
 * BATCH_MATMUL (TFLM reference_ops::BatchMatMul, int8 and 16x8): for each output batch b, the matrices
 * of L and R starting at lhs_offsets[b] and rhs_offsets[b] (broadcast batches repeat an offset):
 *   acc = sum_k (L[i, k] + lhs_offset) * (R[k, j] + rhs_offset)
 *   int8:  out = clamp(requantize(acc, int32 wrapping) + output_offset)
 *   int16: out = clamp(TFLM's int64 requantize of acc)             (offsets 0)
 * L[i, k] lies at i * lhs_row_stride + k * lhs_depth_stride, R[k, j] at k * rhs_depth_stride +
 * j * rhs_col_stride: the strides say whether a matrix is read transposed (adj_x, adj_y).
 */
void mcu_batch_matmul(const mcu_batch_matmul_params *p, const void *lhs, const void *rhs, void *output)
{
    int32_t out = 0;
    for (int32_t b = 0; b < p->batches; ++b) {
        for (int32_t i = 0; i < p->rows; ++i) {
            for (int32_t j = 0; j < p->cols; ++j) {
                int32_t l = p->lhs_offsets[b] + i * p->lhs_row_stride;
                int32_t r = p->rhs_offsets[b] + j * p->rhs_col_stride;
                int64_t acc = 0;
                for (int32_t k = 0; k < p->depth; ++k, l += p->lhs_depth_stride, r += p->rhs_depth_stride) {
                    acc += (int64_t)(mcu_load(lhs, l, p->bits) + p->lhs_offset) * (mcu_load(rhs, r, p->bits) + p->rhs_offset);
                }
                const int32_t y = p->bits == 8
                    ? mcu_requantize((int32_t)(uint32_t)(uint64_t)acc, p->rescale.multiplier, p->rescale.shift) + p->output_offset
                    : mcu_requantize64(acc, p->rescale.multiplier, p->rescale.shift);
                mcu_store(output, out++, p->bits, mcu_clamp(y, p->activation));
            }
        }
    }
}
