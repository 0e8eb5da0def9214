/*
 * Helium's fp16 lanes (MVE's floating point: the Cortex-M55): mcu_nn_half.h's lane sums eight lanes at a time,
 * each VMUL and VADD rounding on its own as the stated order does (no VFMA). A run shorter than eight takes
 * its last channels under a tail predicate: the lanes past it keep their sums.
 */
#ifndef MCU_NN_HALF_MVE_H
#define MCU_NN_HALF_MVE_H

#if !defined(__ARM_FEATURE_MVE) || !(__ARM_FEATURE_MVE & 2)
#error "runtime_c/mve's fp16 kernels need Helium's floating point (a Cortex-M55 with its FPU)"
#endif

#include <arm_mve.h>

#include "mcu_nn_half_sums.h"

/* MVE's float16_t is __fp16, the same bits as _Float16 */
#define MCU_F16X8_LOAD(p, pred) vldrhq_z_f16((const float16_t *)(p), pred)

/* The lanes move through memcpy: to GCC a _Float16 store and an __fp16 load are of different objects (measured:
 * with the vector loaded from the array as float16_t, a fully connected layer's sums came out wrong). */
static inline void mcu_half_lanes_mve(mcu_f16 *lanes, const mcu_f16 *x, const mcu_f16 *w, int32_t n)
{
    float16x8_t acc;
    memcpy(&acc, lanes, sizeof acc);
    for (int32_t c = 0; c < n; c += MCU_HALF_LANES) {
        const mve_pred16_t p = vctp16q((uint32_t)(n - c));
        const float16x8_t product = vmulq_f16(MCU_F16X8_LOAD(x + c, p), MCU_F16X8_LOAD(w + c, p));
        acc = vaddq_m_f16(acc, acc, product, p);
    }
    memcpy(lanes, &acc, sizeof acc);
}

#endif /* MCU_NN_HALF_MVE_H */
