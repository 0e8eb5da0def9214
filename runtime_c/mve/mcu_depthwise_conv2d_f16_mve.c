#include "mcu_nn_fp_exact.h"

#include "mcu_nn_half_mve.h"

/* DEPTHWISE_CONV_2D in fp16 on Helium, depth multiplier 1: eight channels a vector, each channel's sum its own
 * (mcu_depthwise_conv2d_f16's order). The clamp compares with the bounds as float16: the same as in float32,
 * as +-FLT_MAX and the infinities round alike. It asks "greater than", which a NaN never is: MVE's VCMP LT is
 * "less than or unordered" (measured: vcmpltq_f16 took a NaN for below a RELU's 0 and clamped it to 0). */
void mcu_depthwise_conv2d_f16_mve(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                                  const mcu_f16 *input, const mcu_dims *filter_dims, const mcu_f16 *filter,
                                  const mcu_f16 *bias, const mcu_dims *output_dims, mcu_f16 *output)
{
    const int32_t channels = output_dims->c;
    const float16x8_t lo = vdupq_n_f16((float16_t)params->activation.min);
    const float16x8_t hi = vdupq_n_f16((float16_t)params->activation.max);
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, params->dilation.h, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox, output += channels) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, params->dilation.w, input_dims->w, &kx0, &kx1);
                const mcu_f16 *origin = input + ((b * input_dims->h + y0) * input_dims->w + x0) * channels;
                for (int32_t oc = 0; oc < channels; oc += MCU_HALF_LANES) {
                    const mve_pred16_t p = vctp16q((uint32_t)(channels - oc));
                    float16x8_t sum = vdupq_n_f16(0);
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int32_t at = (ky * params->dilation.h * input_dims->w + kx * params->dilation.w) *
                                               channels;
                            const float16x8_t product = vmulq_f16(
                                MCU_F16X8_LOAD(origin + at + oc, p),
                                MCU_F16X8_LOAD(filter + (ky * filter_dims->w + kx) * channels + oc, p));
                            sum = vaddq_f16(sum, product);
                        }
                    }
                    if (bias != NULL) {
                        sum = vaddq_f16(sum, MCU_F16X8_LOAD(bias + oc, p));
                    }
                    sum = vpselq_f16(lo, sum, vcmpgtq_f16(lo, sum));
                    sum = vpselq_f16(hi, sum, vcmpgtq_f16(sum, hi));
                    vstrhq_p_f16((float16_t *)(output + oc), sum, p);
                }
            }
        }
    }
}
