#include "mcu_nn_dw3_dsp.h"

/*
 * 16x8 DEPTHWISE_CONV_2D 3x3, stride 1, no dilation, depth multiplier 1, on DSP cores: the contract
 * and results of mcu_depthwise_conv2d_s16 (int16 input, int8 filter, int64 bias, no zero points), a
 * channel at a time as mcu_depthwise_conv2d_s8_x2: the channel's window holds its inputs (zeros
 * outside the image), filter_pairs each kernel row's weights as (w0, w1), (w1, w2), and the int32
 * sums of nine products (|sum| < 9 * 2^22) take the int64 bias before the requantization.
 * scratch: as mcu_depthwise_conv2d_s8_x2's with one window.
 */

/* The channel's window (mcu_dw3_fill), in a function of its own: inlined, it would crowd the
 * registers of the loops around it. */
static __attribute__((noinline)) void fill_window(const mcu_dw3_layout *l, const int16_t *input, int pads,
                                                  uint32_t *window)
{
    mcu_dw3_fill(l, input, 2, 0, pads, window);
}

void mcu_depthwise_conv2d_s16_x2(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                                 const mcu_dims *input_dims, const int16_t *input,
                                 const mcu_dims *filter_dims, const int16_t *filter_pairs, const int64_t *bias,
                                 const mcu_dims *output_dims, int16_t *output, int16_t *scratch)
{
    const mcu_dw3_layout l = mcu_dw3_layout_of(input_dims, output_dims, dw->padding, 1);
    const int32_t c = output_dims->c, rs = l.stride * 2;
    const int32_t chunk = MCU_DW3_CHUNK / l.stride > 0 ? MCU_DW3_CHUNK / l.stride : 1;  /* rows per pass */
    const mcu_activation act = dw->activation;
    int32_t *acc = (int32_t *)(void *)(scratch + mcu_dw3_window_int16(&l));
    (void)filter_dims;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        const int16_t *image = input + n * input_dims->h * input_dims->w * c;
        int16_t *out_image = output + n * output_dims->h * output_dims->w * c;
        for (int32_t ch = 0; ch < c; ++ch) {
            uint32_t w[6];
            memcpy(w, filter_pairs + ch * 12, sizeof w);
            fill_window(&l, image + ch, n == 0 && ch == 0, (uint32_t *)(void *)scratch);
            const int64_t b = bias[ch];
            const int32_t multiplier = quant->multiplier[ch], shift = quant->shift[ch];
            /* a pass runs over whole window rows: the outputs of the pad columns are computed, not stored */
            for (int32_t oy = 0; oy < l.rows; oy += chunk) {
                const int32_t n_rows = l.rows - oy < chunk ? l.rows - oy : chunk;
                mcu_dw3_sums_x2(scratch + oy * l.stride, rs, w, n_rows * l.stride / 2, acc);
                for (int32_t r = 0; r < n_rows; ++r) {
                    const int32_t *sums = acc + r * l.stride;
                    int16_t *out = out_image + ch + (oy + r) * l.out_row_step;
                    for (int32_t ox = 0; ox < l.len; ++ox, out += l.out_step) {
                        *out = mcu_clamp_s16(mcu_requantize_wide(sums[ox] + b, 64, multiplier, shift), act);
                    }
                }
            }
        }
    }
}
