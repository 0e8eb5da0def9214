#include "mcu_nn_fp_exact.h"

#include "mcu_nn_half_sums.h"

/* _Float16 is the host's and the cores' with half-precision arithmetic, where mcugen calls this; elsewhere the
 * file compiles to nothing. */
#if defined(__FLT16_MAX__)

/* Reference DEPTHWISE_CONV_2D in fp16: each output one sum from +0 over its in-image taps in filter row, column
 * order (output channel oc reads input channel oc / depth_multiplier), then the bias and the clamp. */
void mcu_depthwise_conv2d_f16(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                              const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                              const mcu_dims *output_dims, mcu_f16 *output)
{
    const int32_t channels = output_dims->c;
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * params->stride.h - params->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, filter_dims->h, params->dilation.h, input_dims->h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * params->stride.w - params->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, filter_dims->w, params->dilation.w, input_dims->w, &kx0, &kx1);
                const int32_t origin = ((b * input_dims->h + y0) * input_dims->w + x0) * input_dims->c;
                for (int32_t oc = 0; oc < channels; ++oc) {
                    mcu_f16 sum = 0;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            const int32_t at = (ky * params->dilation.h * input_dims->w + kx * params->dilation.w) *
                                               input_dims->c;
                            const mcu_f16 product = input[origin + at + oc / params->depth_multiplier] *
                                                    filter[(ky * filter_dims->w + kx) * channels + oc];
                            sum = sum + product;
                        }
                    }
                    *output++ = mcu_half_finish(sum, bias != NULL ? &bias[oc] : NULL, &params->activation);
                }
            }
        }
    }
}

#endif /* __FLT16_MAX__ */
