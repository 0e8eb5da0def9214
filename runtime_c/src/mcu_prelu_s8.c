#include "mcu_nn_support.h"

static void prelu_row(const void *params, int32_t bits, int32_t n, const void *input, int32_t step_x,
                      const void *alpha_row, int32_t step_alpha, void *output_row)
{
    (void)bits; /* int8 only */
    const mcu_prelu_params *prelu = params;
    const int8_t *x = input, *alpha = alpha_row;
    int8_t *output = output_row;
    for (int32_t i = 0; i < n; ++i) {
        const int32_t v = x[i * step_x] + prelu->input_offset;
        const int32_t y = v >= 0
            ? mcu_requantize(v, prelu->multiplier1, prelu->shift1)
            : mcu_requantize(v * (alpha[i * step_alpha] + prelu->alpha_offset), prelu->multiplier2, prelu->shift2);
        output[i] = mcu_clamp_s8(y + prelu->output_offset, (mcu_activation){-128, 127});
    }
}

/* TFLM int8 PRELU (reference_ops::BroadcastPrelu4DSlow). */
void mcu_prelu_s8(const mcu_prelu_params *prelu, const mcu_broadcast *bc, const int8_t *input, const int8_t *alpha,
                  int8_t *output)
{
    mcu_broadcast_rows(bc, input, alpha, output, prelu_row, prelu);
}
