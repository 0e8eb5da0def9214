#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/*
 * LiteRT's hybrid CONV_2D: each batch image quantized whole (mcu_hybrid_image: asymmetric for per-channel
 * weights, EvalHybridPerChannel; symmetric for one scale, EvalHybrid), each output's int32 sum of
 * w x (q - zero point) over its in-image taps (the padding adds nothing) scaled in float32 as that kernel
 * does: (acc x channel scale) x factor, or acc x (factor x scale) (which equals the latter's 0.0f +
 * acc x scale: the product is never -0.0); then the bias and the clamp.
 */
static inline void hybrid_conv_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window;
    mcu_hybrid_walk *s = (mcu_hybrid_walk *)state;
    const int32_t in_w = s->input_dims->w, depth = s->input_dims->c, k_w = s->filter_dims->w;
    mcu_hybrid_image(s, win.batch);
    for (int32_t oc = 0; oc < s->channels; ++oc) {
        uint32_t acc = 0;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx) {
                const int8_t *q = s->scratch + ((win.y0 + ky) * in_w + win.x0 + kx) * depth;
                const int8_t *w = s->filter + ((oc * s->filter_dims->h + ky) * k_w + kx) * depth;
                for (int32_t ic = 0; ic < depth; ++ic) {
                    acc += (uint32_t)(w[ic] * (q[ic] - s->offset));
                }
            }
        }
        const float sum = (float)(int32_t)acc;
        float v = s->scales != NULL ? sum * s->scales[oc] * s->factor : sum * s->factor;
        v = s->bias != NULL ? v + s->bias[oc] : v;
        *s->output++ = mcu_clamp_f32(v, s->activation);
    }
}

void mcu_conv2d_hybrid_s8(const mcu_hybrid_conv_params *params, const mcu_dims *input_dims, const float *input,
                          const mcu_dims *filter_dims, const int8_t *filter, const float *scales, const float *bias,
                          const mcu_dims *output_dims, int8_t *scratch, float *output)
{
    mcu_hybrid_walk state = {input_dims, filter_dims, input, filter, scales, bias, params->activation,
                             params->asymmetric, params->filter_scale, output_dims->c, -1, 0, 1.0f, scratch, output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w}, undilated = {1, 1};
    mcu_window_walk(input_dims, output_dims, params->stride, params->padding, undilated, kernel, hybrid_conv_position,
                    &state);
}
