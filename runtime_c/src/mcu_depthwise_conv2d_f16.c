#include "mcu_nn_fp_exact.h"

#include "mcu_nn_half_sums.h"

/* _Float16 is the host's and the cores' with half-precision arithmetic, where mcugen calls this; elsewhere the
 * file compiles to nothing. */
#if defined(__FLT16_MAX__)

static inline void position(void *state, const mcu_window *w)
{
    mcu_half_walk *s = (mcu_half_walk *)state;
    for (int32_t oc = 0; oc < s->channels; ++oc) {
        mcu_f16 sum = 0;
        for (int32_t ky = w->ky0; ky < w->ky1; ++ky) {
            for (int32_t kx = w->kx0; kx < w->kx1; ++kx) {
                const mcu_f16 product = mcu_half_tap(s, w, ky, kx)[oc / s->params->depth_multiplier] *
                                        s->filter[(ky * s->filter_dims->w + kx) * s->channels + oc];
                sum = sum + product;
            }
        }
        *s->output++ = mcu_half_finish(sum, s->bias != NULL ? &s->bias[oc] : NULL, &s->params->activation);
    }
}

/* Reference DEPTHWISE_CONV_2D in fp16: each output one sum from +0 over its in-image taps in filter row, column
 * order (output channel oc reads input channel oc / depth_multiplier), then the bias and the clamp. */
void mcu_depthwise_conv2d_f16(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                              const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                              const mcu_dims *output_dims, mcu_f16 *output)
{
    mcu_half_window(params, input_dims, input, filter_dims, filter, bias, output_dims, output, position, NULL);
}

#endif /* __FLT16_MAX__ */
