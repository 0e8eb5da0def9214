#include "mcu_nn_support.h"

void mcu_copy_strided(const mcu_copy_params *copy, const void *input, void *output)
{
    int32_t index[MCU_MAX_DIMS] = {0};
    const int32_t last = copy->rank - 1;
    const int32_t n = copy->shape[last], si = copy->in_stride[last], so = copy->out_stride[last];
    do {
        const int8_t *src = (const int8_t *)input + copy->in_offset + mcu_dot_index(last, index, copy->in_stride);
        int8_t *dst = (int8_t *)output + copy->out_offset + mcu_dot_index(last, index, copy->out_stride);
        if (si == 1 && so == 1) { /* a contiguous run (READ/ASSIGN_VARIABLE, most slices): the C library's copy */
            memcpy(dst, src, (size_t)n);
        } else {
            for (int32_t i = 0; i < n; ++i) {
                dst[i * so] = src[i * si];
            }
        }
    } while (mcu_next_index(last, copy->shape, index));
}
