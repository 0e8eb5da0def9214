/*
 * The fp16 kernels' shared order of operations (mcu_nn_half.h): the lane sums, their fold, the bias and clamp, and
 * the fully connected and conv loops around a lane function (the reference's a lane at a time, Helium's
 * eight). Included by the kernels' files after mcu_nn_fp_exact.h, so nothing here contracts either.
 */
#ifndef MCU_NN_HALF_SUMS_H
#define MCU_NN_HALF_SUMS_H

#include "mcu_nn_half.h"
#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

#if defined(__FLT16_MAX__)

#define MCU_HALF_LANES 8

/* Adds x[c] * w[c] for c < n to lanes[c % 8], each product and sum rounded on its own. */
typedef void (*mcu_half_lanes_fn)(mcu_f16 *lanes, const mcu_f16 *x, const mcu_f16 *w, int32_t n);

static inline void mcu_half_lanes(mcu_f16 *lanes, const mcu_f16 *x, const mcu_f16 *w, int32_t n)
{
    for (int32_t c = 0; c < n; ++c) {
        const mcu_f16 product = x[c] * w[c];
        lanes[c % MCU_HALF_LANES] = lanes[c % MCU_HALF_LANES] + product;
    }
}

static inline mcu_f16 mcu_half_fold(const mcu_f16 *lanes)
{
    const mcu_f16 a = lanes[0] + lanes[1], b = lanes[2] + lanes[3], c = lanes[4] + lanes[5], d = lanes[6] + lanes[7];
    const mcu_f16 ab = a + b, cd = c + d;
    return ab + cd;
}

/* The sum plus the bias (none: nothing added), clamped in float32; the bounds are float16 values or
 * +-FLT_MAX, which round back to the infinities they replace. */
static inline mcu_f16 mcu_half_finish(mcu_f16 sum, const mcu_f16 *bias, const mcu_float_activation *activation)
{
    if (bias != NULL) {
        sum = sum + *bias;
    }
    return (mcu_f16)mcu_clamp_f32((float)sum, *activation);
}

static inline void mcu_half_fc(const mcu_float_activation *activation, int32_t batches, int32_t depth, int32_t units,
                               const mcu_f16 *input, const mcu_f16 *filter, const mcu_f16 *bias, mcu_f16 *output,
                               mcu_half_lanes_fn lanes_of)
{
    for (int32_t b = 0; b < batches; ++b, input += depth) {
        for (int32_t u = 0; u < units; ++u) {
            mcu_f16 lanes[MCU_HALF_LANES] = {0};
            lanes_of(lanes, input, filter + u * depth, depth);
            *output++ = mcu_half_finish(mcu_half_fold(lanes), bias != NULL ? &bias[u] : NULL, activation);
        }
    }
}

static inline void mcu_half_conv(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                                 const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                                 const mcu_dims *output_dims, mcu_f16 *output, mcu_half_lanes_fn lanes_of)
{
    const int32_t depth = filter_dims->c;
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, params->dilation.h, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, params->dilation.w, input_dims->w, &kx0, &kx1);
                /* where the input pixel under tap (0, 0) would be (in the padding, maybe) */
                const int32_t origin = ((b * input_dims->h + y0) * input_dims->w + x0) * depth;
                for (int32_t oc = 0; oc < output_dims->c; ++oc) {
                    mcu_f16 lanes[MCU_HALF_LANES] = {0};
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int32_t at = (ky * params->dilation.h * input_dims->w + kx * params->dilation.w) * depth;
                            lanes_of(lanes, input + origin + at,
                                     filter + ((oc * filter_dims->h + ky) * filter_dims->w + kx) * depth, depth);
                        }
                    }
                    *output++ = mcu_half_finish(mcu_half_fold(lanes), bias != NULL ? &bias[oc] : NULL,
                                                &params->activation);
                }
            }
        }
    }
}

#endif /* __FLT16_MAX__ */

#endif /* MCU_NN_HALF_SUMS_H */
