#include "mcu_nn_fp_exact.h"

#include "mcu_nn_half_mve.h"

static inline void position(void *state, const mcu_window *w)
{
    mcu_half_walk *s = (mcu_half_walk *)state;
    const float16x8_t lo = vdupq_n_f16((float16_t)s->params->activation.min);
    const float16x8_t hi = vdupq_n_f16((float16_t)s->params->activation.max);
    for (int32_t oc = 0; oc < s->channels; oc += MCU_HALF_LANES) {
        const mve_pred16_t p = vctp16q((uint32_t)(s->channels - oc));
        float16x8_t sum = vdupq_n_f16(0);
        for (int32_t ky = w->ky0; ky < w->ky1; ++ky) {
            for (int32_t kx = w->kx0; kx < w->kx1; ++kx) {
                const float16x8_t product = vmulq_f16(
                    MCU_F16X8_LOAD(mcu_half_tap(s, w, ky, kx) + oc, p),
                    MCU_F16X8_LOAD(s->filter + (ky * s->filter_dims->w + kx) * s->channels + oc, p));
                sum = vaddq_f16(sum, product);
            }
        }
        if (s->bias != NULL) {
            sum = vaddq_f16(sum, MCU_F16X8_LOAD(s->bias + oc, p));
        }
        sum = vpselq_f16(lo, sum, vcmpgtq_f16(lo, sum));
        sum = vpselq_f16(hi, sum, vcmpgtq_f16(sum, hi));
        vstrhq_p_f16((float16_t *)(s->output + oc), sum, p);
    }
    s->output += s->channels;
}

/* DEPTHWISE_CONV_2D in fp16 on Helium, depth multiplier 1: eight channels a vector, each channel's sum its own
 * (mcu_depthwise_conv2d_f16's order). The clamp compares with the bounds as float16: the same as in float32,
 * as +-FLT_MAX and the infinities round alike. It asks "greater than", which a NaN never is: MVE's VCMP LT is
 * "less than or unordered" (measured: vcmpltq_f16 took a NaN for below a RELU's 0 and clamped it to 0). */
void mcu_depthwise_conv2d_f16_mve(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                                  const mcu_f16 *input, const mcu_dims *filter_dims, const mcu_f16 *filter,
                                  const mcu_f16 *bias, const mcu_dims *output_dims, mcu_f16 *output)
{
    mcu_half_window(params, input_dims, input, filter_dims, filter, bias, output_dims, output, position, NULL);
}
