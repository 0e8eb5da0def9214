#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/* One output position's sums for output channels [oc, oc + n) (n 1 or 4) of one group, each from 0.0f
 * over the in-image taps in filter row, column, input channel order: TFLM's order for each channel. */
static inline void position_sums(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                                 const float *input, int32_t origin, const mcu_dims *filter_dims, const float *filter,
                                 int32_t oc, int32_t n, int32_t ky0, int32_t ky1, int32_t kx0, int32_t kx1, float *sums)
{
    const int32_t depth = filter_dims->c, per_filter = filter_dims->h * filter_dims->w * depth;
    float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f;
    for (int32_t ky = ky0; ky < ky1; ++ky) {
        for (int32_t kx = kx0; kx < kx1; ++kx) {
            const float *x = input + (origin + (ky * params->dilation.h * input_dims->w + kx * params->dilation.w)
                                               * input_dims->c);
            const float *w0 = filter + ((oc * filter_dims->h + ky) * filter_dims->w + kx) * depth;
            if (n == 4) {
                const float *w1 = w0 + per_filter, *w2 = w1 + per_filter, *w3 = w2 + per_filter;
                for (int32_t ic = 0; ic < depth; ++ic) {
                    const float v = x[ic];
                    t0 += v * w0[ic];
                    t1 += v * w1[ic];
                    t2 += v * w2[ic];
                    t3 += v * w3[ic];
                }
            } else {
                for (int32_t ic = 0; ic < depth; ++ic) {
                    t0 += x[ic] * w0[ic];
                }
            }
        }
    }
    sums[0] = t0;
    sums[1] = t1;
    sums[2] = t2;
    sums[3] = t3;
}

/*
 * Reference CONV_2D in float32 (TFLM reference_ops::Conv): each output sums its in-image taps in
 * filter row, filter column, input channel order from 0.0f, then adds the bias; taps in the padding
 * are skipped, not multiplied by zero (an infinite weight there would make a NaN). Four output channels
 * of a group at a time share each input value; each channel's sum is still its own, in that order.
 */
void mcu_conv2d_f32(const mcu_float_conv_params *params, const mcu_dims *input_dims, const float *input,
                    const mcu_dims *filter_dims, const float *filter, const float *bias,
                    const mcu_dims *output_dims, float *output)
{
    const int32_t depth = filter_dims->c, groups = input_dims->c / depth, per_group = output_dims->c / groups;
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, params->dilation.h, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, params->dilation.w, input_dims->w, &kx0, &kx1);
                /* where the input pixel under tap (0, 0) would be (in the padding, maybe): only in-image taps are read */
                const int32_t origin = ((b * input_dims->h + y0) * input_dims->w + x0) * input_dims->c;
                for (int32_t g = 0; g < groups; ++g) {
                    for (int32_t oc = g * per_group, end = oc + per_group; oc < end;) {
                        const int32_t n = end - oc >= 4 ? 4 : 1;
                        float sums[4];
                        position_sums(params, input_dims, input, origin + g * depth, filter_dims, filter, oc, n,
                                      ky0, ky1, kx0, kx1, sums);
                        for (int32_t k = 0; k < n; ++k, ++oc) {
                            *output++ = mcu_clamp_f32(sums[k] + (bias != NULL ? bias[oc] : 0.0f), params->activation);
                        }
                    }
                }
            }
        }
    }
}
