#include "mcu_nn_support.h"

static inline int32_t prelu_one(const void *params, int32_t x, int32_t alpha)
{
    const mcu_prelu_params *prelu = params;
    const int32_t v = x + prelu->input_offset;
    const int32_t y = v >= 0
        ? mcu_requantize(v, prelu->multiplier1, prelu->shift1)
        : mcu_requantize(v * (alpha + prelu->alpha_offset), prelu->multiplier2, prelu->shift2);
    return mcu_clamp_s8(y + prelu->output_offset, (mcu_activation){-128, 127});
}

/* TFLM int8 PRELU (reference_ops::BroadcastPrelu4DSlow). */
void mcu_prelu_s8(const mcu_prelu_params *prelu, const mcu_broadcast *bc, const int8_t *input, const int8_t *alpha,
                  int8_t *output)
{
    mcu_broadcast_rows(bc, input, alpha, output, prelu_one, prelu);
}
