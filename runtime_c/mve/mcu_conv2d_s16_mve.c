#include "mcu_nn_mve.h"

/*
 * 16x8 CONV_2D with Helium (MVE): the results of mcu_conv2d_s16 for layers whose sums of products fit
 * int32 (mcugen takes only those: K * 32768 * 128 < 2^31, K = KH*KW*Cin). Per output position, its
 * patch (the image itself for a 1x1 kernel without padding, else gathered into scratch with zeros past
 * the image: 16x8 has no zero points), then four output channels at a time on mcu_dot4_rows_s16 (the
 * last out_c % 4 one by one); each sum plus its int64 bias requantized as the reference does.
 */
static inline void store(int32_t sum, int64_t bias, int32_t accumulator_bits, const mcu_per_channel_quant *quant,
                         int32_t c, mcu_activation act, int16_t *out)
{
    out[c] = mcu_clamp_s16(mcu_requantize_wide(sum + bias, accumulator_bits, quant->multiplier[c], quant->shift[c]),
                           act);
}

void mcu_conv2d_s16_mve(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                        const mcu_dims *input_dims, const int16_t *input,
                        const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                        const mcu_dims *output_dims, int16_t *output, int16_t *patch)
{
    const int32_t depth = filter_dims->h * filter_dims->w * input_dims->c, out_c = output_dims->c;
    const int direct = filter_dims->h == 1 && filter_dims->w == 1 && conv->padding.h == 0 && conv->padding.w == 0;
    const int32_t zeros[4] = {0, 0, 0, 0};
    for (int32_t q = 0; q < output_dims->n * output_dims->h * output_dims->w; ++q, output += out_c) {
        const int16_t *x = patch;
        if (direct) {
            const int32_t ox = q % output_dims->w, rest = q / output_dims->w;
            const int32_t oy = rest % output_dims->h, b = rest / output_dims->h;
            x = input + ((b * input_dims->h + oy * conv->stride.h) * input_dims->w + ox * conv->stride.w) *
                            input_dims->c;
        } else {
            mcu_gather_patch_mve(conv, input_dims, input, filter_dims, output_dims, q, 2, vdupq_n_s8(0), patch);
        }
        int32_t c = 0;
        for (; c + 4 <= out_c; c += 4) {
            int32_t sums[4];
            vstrwq_s32(sums, mcu_dot4_rows_s16(x, depth, filter + c * depth, zeros));
            for (int32_t k = 0; k < 4; ++k) {
                store(sums[k], bias[c + k], accumulator_bits, quant, c + k, conv->activation, output);
            }
        }
        for (; c < out_c; ++c) {
            const int8_t *w = filter + c * depth;
            int32_t sum = 0;
            for (int32_t d = 0; d < depth; d += 8) {
                const mve_pred16_t p = vctp16q((uint32_t)(depth - d));
                sum = vmladavaq_p_s16(sum, vldrhq_z_s16(x + d, p), vldrbq_z_s16(w + d, p), p);
            }
            store(sum, bias[c], accumulator_bits, quant, c, conv->activation, output);
        }
    }
}
