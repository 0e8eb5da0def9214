#include "mcu_nn_support.h"

/*
 * Reference TRANSPOSE_CONV, int8 or 16x8 (bits): input [N,H,W,IC], filter [OC,KH,KW,IC] int8, bias
 * [OC] (widened to int64 by mcugen), output [N,OH,OW,OC]. Input (iy, ix) tap (fy, fx) lands on output
 * (iy * stride + fy - pad, ix * stride + fx - pad); each output gathers the taps landing on it:
 *   acc = sum (input + input_offset) * filter             (int64; an int32 accumulator wraps at the end)
 *   out = clamp(requantize(acc + bias[oc]) + output_offset)
 * the sums TFLM scatters into its output-sized scratch, without the scratch.
 */
void mcu_transpose_conv(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t bits,
                        int32_t accumulator_bits, const mcu_dims *input_dims, const void *input,
                        const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                        const mcu_dims *output_dims, void *output)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w, out_c = output_dims->c;
    int32_t at = 0;
    for (int32_t b = 0; b < output_dims->n; ++b) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                for (int32_t oc = 0; oc < out_c; ++oc) {
                    int64_t acc = 0;
                    for (int32_t fy = 0; fy < k_h; ++fy) {
                        const int32_t ty = oy + conv->padding.h - fy;
                        if (ty < 0 || ty % conv->stride.h || ty / conv->stride.h >= in_h) {
                            continue;
                        }
                        for (int32_t fx = 0; fx < k_w; ++fx) {
                            const int32_t tx = ox + conv->padding.w - fx;
                            if (tx < 0 || tx % conv->stride.w || tx / conv->stride.w >= in_w) {
                                continue;
                            }
                            const int32_t pixel = ((b * in_h + ty / conv->stride.h) * in_w + tx / conv->stride.w) * in_c;
                            const int8_t *w = filter + ((oc * k_h + fy) * k_w + fx) * in_c;
                            for (int32_t ic = 0; ic < in_c; ++ic) {
                                acc += (int64_t)(mcu_load(input, pixel + ic, bits) + conv->input_offset) * w[ic];
                            }
                        }
                    }
                    const int32_t y = mcu_requantize_wide(acc + bias[oc], accumulator_bits, quant->multiplier[oc],
                                                          quant->shift[oc]);
                    mcu_store(output, at++, bits, mcu_clamp(y + conv->output_offset, conv->activation));
                }
            }
        }
    }
}
