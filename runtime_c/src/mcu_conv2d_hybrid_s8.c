#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/*
 * LiteRT's hybrid CONV_2D: each batch image quantized whole (mcu_hybrid_quantize_row: asymmetric for
 * per-channel weights, EvalHybridPerChannel; symmetric for one scale, EvalHybrid), each output's int32
 * sum of w x (q - zero point) over its in-image taps (the padding adds nothing) scaled in float32 as
 * that kernel does: (acc x channel scale) x factor, or acc x (factor x scale) (which equals the latter's
 * 0.0f + acc x scale: the product is never -0.0); then the bias and the clamp.
 */
void mcu_conv2d_hybrid_s8(const mcu_hybrid_conv_params *params, const mcu_dims *input_dims, const float *input,
                          const mcu_dims *filter_dims, const int8_t *filter, const float *scales, const float *bias,
                          const mcu_dims *output_dims, int8_t *scratch, float *output)
{
    const int32_t depth = input_dims->c, image = input_dims->h * input_dims->w * depth;
    for (int32_t b = 0; b < output_dims->n; ++b, input += image) {
        int32_t offset;
        float factor = mcu_hybrid_quantize_row(params->asymmetric, image, input, scratch, &offset);
        factor = scales != NULL ? factor : factor * params->filter_scale;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, 1, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, 1, input_dims->w, &kx0, &kx1);
                for (int32_t oc = 0; oc < output_dims->c; ++oc) {
                    uint32_t acc = 0;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int8_t *q = scratch + ((y0 + ky) * input_dims->w + x0 + kx) * depth;
                            const int8_t *w = filter + ((oc * filter_dims->h + ky) * filter_dims->w + kx) * depth;
                            for (int32_t ic = 0; ic < depth; ++ic) {
                                acc += (uint32_t)(w[ic] * (q[ic] - offset));
                            }
                        }
                    }
                    const float sum = (float)(int32_t)acc;
                    float v = scales != NULL ? sum * scales[oc] * factor : sum * factor;
                    v = bias != NULL ? v + bias[oc] : v;
                    *output++ = mcu_clamp_f32(v, params->activation);
                }
            }
        }
    }
}
