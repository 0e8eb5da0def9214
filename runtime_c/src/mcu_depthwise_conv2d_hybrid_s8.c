#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/*
 * LiteRT's reference DepthwiseConvHybridPerChannel: each batch image quantized whole and asymmetrically
 * (mcu_hybrid_image), output channel ic * depth_multiplier + m the int32 sum of w x (q - zero point) over
 * input channel ic's in-image taps (the padding adds nothing), then float(acc) x (channel scale x factor),
 * the bias and the clamp.
 */
typedef struct {
    mcu_hybrid_walk walk;
    mcu_tile dilation;
    int32_t multiplier;
} hybrid_depthwise;

static inline void hybrid_depthwise_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window;
    hybrid_depthwise *d = (hybrid_depthwise *)state;
    mcu_hybrid_walk *s = &d->walk;
    const int32_t in_w = s->input_dims->w, depth = s->input_dims->c;
    mcu_hybrid_image(s, win.batch);
    for (int32_t oc = 0; oc < s->channels; ++oc) {
        uint32_t acc = 0;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx) {
                const int32_t y = win.y0 + ky * d->dilation.h, x = win.x0 + kx * d->dilation.w;
                const int32_t q = s->scratch[(y * in_w + x) * depth + oc / d->multiplier];
                acc += (uint32_t)(s->filter[(ky * s->filter_dims->w + kx) * s->channels + oc] * (q - s->offset));
            }
        }
        float v = (float)(int32_t)acc * (s->scales[oc] * s->factor);
        v = s->bias != NULL ? v + s->bias[oc] : v;
        *s->output++ = mcu_clamp_f32(v, s->activation);
    }
}

void mcu_depthwise_conv2d_hybrid_s8(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                                    const float *input, const mcu_dims *filter_dims, const int8_t *filter,
                                    const float *scales, const float *bias, const mcu_dims *output_dims,
                                    int8_t *scratch, float *output)
{
    hybrid_depthwise state = {{input_dims, filter_dims, input, filter, scales, bias, params->activation, 1, 1.0f,
                               output_dims->c, -1, 0, 1.0f, scratch, output},
                              params->dilation, params->depth_multiplier};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, params->stride, params->padding, params->dilation, kernel,
                    hybrid_depthwise_position, &state);
}
