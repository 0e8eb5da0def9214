/*
 * The fp16 kernels' shared order of operations (mcu_nn_half.h): the lane sums, their fold, the bias and clamp, the
 * fully connected loop and the conv's position around a lane function (the reference's a lane at a time, Helium's
 * eight), and the window walk (mcu_window_walk's) every conv and depthwise kernel runs its position in. Included by the kernels' files after mcu_nn_fp_exact.h, so nothing here contracts either.
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

/* What a fp16 conv's or depthwise's per-position function reads while mcu_window_walk runs it. */
typedef struct {
    const mcu_float_conv_params *params;
    const mcu_dims *input_dims, *filter_dims;
    const mcu_f16 *input, *filter, *bias;
    int32_t channels; /* output channels */
    mcu_f16 *output;  /* the next position's first output */
    mcu_half_lanes_fn lanes_of;
} mcu_half_walk;

/* The input element under tap (ky, kx) of a window, at channel 0. */
static inline const mcu_f16 *mcu_half_tap(const mcu_half_walk *s, const mcu_window *w, int32_t ky, int32_t kx)
{
    const int32_t y = w->y0 + ky * s->params->dilation.h, x = w->x0 + kx * s->params->dilation.w;
    return s->input + ((w->batch * s->input_dims->h + y) * s->input_dims->w + x) * s->input_dims->c;
}

static inline void mcu_half_conv_position(void *state, const mcu_window *w)
{
    mcu_half_walk *s = (mcu_half_walk *)state;
    const mcu_dims *f = s->filter_dims;
    for (int32_t oc = 0; oc < s->channels; ++oc) {
        mcu_f16 lanes[MCU_HALF_LANES] = {0};
        for (int32_t ky = w->ky0; ky < w->ky1; ++ky) {
            for (int32_t kx = w->kx0; kx < w->kx1; ++kx) {
                s->lanes_of(lanes, mcu_half_tap(s, w, ky, kx), s->filter + ((oc * f->h + ky) * f->w + kx) * f->c, f->c);
            }
        }
        *s->output++ = mcu_half_finish(mcu_half_fold(lanes), s->bias != NULL ? &s->bias[oc] : NULL,
                                       &s->params->activation);
    }
}

/* Runs `position` at every output position of a fp16 conv or depthwise (lanes_of: the conv's lane function). */
static inline void mcu_half_window(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                                   const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                                   const mcu_dims *output_dims, mcu_f16 *output, mcu_window_fn position,
                                   mcu_half_lanes_fn lanes_of)
{
    mcu_half_walk state = {params, input_dims, filter_dims, input, filter, bias, output_dims->c, output, lanes_of};
    const mcu_tile taps = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, params->stride, params->padding, params->dilation, taps, position, &state);
}

#endif /* __FLT16_MAX__ */

#endif /* MCU_NN_HALF_SUMS_H */
