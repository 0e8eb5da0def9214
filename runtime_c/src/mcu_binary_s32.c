#include "mcu_nn_support.h"

static inline int32_t binary(const mcu_binary_s32_params *p, int32_t a, int32_t b)
{
    /* wrapping arithmetic on the unsigned twins: C leaves signed overflow undefined */
    const uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    int32_t r;
    switch (p->operation) {
    case MCU_S32_ADD: r = (int32_t)(ua + ub); break;
    case MCU_S32_SUB: r = (int32_t)(ua - ub); break;
    case MCU_S32_MUL: r = (int32_t)(ua * ub); break;
    case MCU_S32_DIV: r = b == 0 ? 0 : (b == -1 ? (int32_t)(0u - ua) : a / b); break;
    case MCU_S32_MAXIMUM: return a > b ? a : b;
    default: return a < b ? a : b;
    }
    return r < p->activation_min ? p->activation_min : (r > p->activation_max ? p->activation_max : r);
}

/* Elementwise int32 arithmetic as TFLM's reference kernels compute it (see mcu_nn_elementwise.h). */
void mcu_binary_s32(const mcu_binary_s32_params *params, const mcu_broadcast *bc, const int32_t *input1,
                    const int32_t *input2, int32_t *output)
{
    int32_t index[MCU_MAX_DIMS] = {0};
    const int32_t last = bc->rank - 1, n = bc->shape[last], step1 = bc->stride1[last], step2 = bc->stride2[last];
    do {
        const int32_t *a = input1 + mcu_dot_index(last, index, bc->stride1);
        const int32_t *b = input2 + mcu_dot_index(last, index, bc->stride2);
        for (int32_t i = 0; i < n; ++i) {
            *output++ = binary(params, a[i * step1], b[i * step2]);
        }
    } while (mcu_next_index(last, bc->shape, index));
}
