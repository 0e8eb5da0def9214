#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/*
 * TFLM's reference TRANSPOSE_CONV in float32, its scatter kept: an output's sum must gather its
 * products in the order TFLM adds them (input row, column, channel), which the scatter gives for free.
 */
void mcu_transpose_conv_f32(const mcu_float_conv_params *params, const mcu_dims *input_dims, const float *input,
                            const mcu_dims *filter_dims, const float *filter, const float *bias,
                            const mcu_dims *output_dims, float *output)
{
    const int32_t oh = output_dims->h, ow = output_dims->w, oc = output_dims->c, ic = input_dims->c;
    const int32_t kh = filter_dims->h, kw = filter_dims->w, pixels = output_dims->n * oh * ow;
    for (int32_t i = 0; i < pixels * oc; ++i) {
        output[i] = 0.0f;
    }
    for (int32_t b = 0; b < input_dims->n; ++b) {
        float *image = output + b * oh * ow * oc;
        for (int32_t iy = 0; iy < input_dims->h; ++iy) {
            for (int32_t ix = 0; ix < input_dims->w; ++ix) {
                for (int32_t c = 0; c < ic; ++c) {
                    const float x = *input++;
                    for (int32_t fy = 0; fy < kh; ++fy) {
                        const int32_t y = iy * params->stride.h - params->padding.h + fy;
                        for (int32_t fx = 0; fx < kw; ++fx) {
                            const int32_t xx = ix * params->stride.w - params->padding.w + fx;
                            if (y < 0 || y >= oh || xx < 0 || xx >= ow) {
                                continue;
                            }
                            float *out = image + (y * ow + xx) * oc;
                            const float *w = filter + (fy * kw + fx) * ic + c;
                            for (int32_t o = 0; o < oc; ++o) {
                                out[o] += x * w[o * kh * kw * ic];
                            }
                        }
                    }
                }
            }
        }
    }
    for (int32_t i = 0; i < pixels * oc; ++i) {
        output[i] = mcu_clamp_f32(bias != NULL ? output[i] + bias[i % oc] : output[i], params->activation);
    }
}
