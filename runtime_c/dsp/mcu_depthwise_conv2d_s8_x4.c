#include "mcu_nn_dw_dsp.h"
#include "mcu_nn_window.h"

/*
 * DEPTHWISE_CONV_2D with depth multiplier 1 on DSP cores: the contract and results of
 * mcu_depthwise_conv2d_s8, on constants mcugen lays out for it:
 *   filter_x4: [ceil(C/4)][KH*KW][4] int16, each group's taps in order, a tap's four channels as
 *              (c, c+2, c+1, c+3) (the order SXTB16 unpacks a word in), zero past C;
 *   bias_folded: bias[c] + input_offset * sum of channel c's taps, wrapping as int32: the offset
 *              is then added to no input value, padding included, as the window pads with
 *              -input_offset (so x * w there is -input_offset * w, cancelling that tap's share);
 *   window:    scratch of rows * cols * 4 bytes, rows = (OH-1)*stride_h + (KH-1)*dilation_h + 1 and
 *              cols likewise, word-aligned.
 * Channels go four at a time: the group is copied into the window (mcu_window_group4), then every output
 * of the group is computed from it (mcu_depthwise_conv2d_s4_x4 shares the helpers, not this loop: moved into
 * one, it cost this kernel 1% on the M33 through GCC's register allocation). The output may therefore be the input's own memory (in place):
 * output (p, c) lands on input (p, c), a channel of the group already copied out.
 */
void mcu_depthwise_conv2d_s8_x4(const mcu_dw_conv_params *dw, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const int16_t *filter_x4,
                                const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output,
                                int8_t *window)
{
    const int32_t c = output_dims->c, taps = filter_dims->h * filter_dims->w;
    mcu_dw_geometry lay;
    lay.k_h = filter_dims->h;
    lay.k_w = filter_dims->w;
    lay.rows = (output_dims->h - 1) * dw->stride.h + (lay.k_h - 1) * dw->dilation.h + 1;
    lay.cols = (output_dims->w - 1) * dw->stride.w + (lay.k_w - 1) * dw->dilation.w + 1;
    lay.row_step = dw->dilation.h * lay.cols * 4;
    lay.col_step = dw->dilation.w * 4;
    lay.out_row_step = dw->stride.h * lay.cols * 4;
    lay.out_col_step = dw->stride.w * 4;
    const int three = lay.k_h == 3 && lay.k_w == 3 && dw->dilation.w == 1;
    const int32_t image_in = input_dims->h * input_dims->w * c, image_out = output_dims->h * output_dims->w * c;
    for (int32_t oc = 0; oc < c; oc += 4) {
        const int32_t valid = c - oc < 4 ? c - oc : 4;
        const mcu_channel *ch = &channels[oc];
        const int fast = ch[0].fast && ch[1].fast && ch[2].fast && ch[3].fast;
        const int16_t *w = filter_x4 + oc * taps;
        const int32_t *b = bias_folded + oc;
        for (int32_t n = 0; n < input_dims->n; ++n) {
            mcu_window_group4(input_dims, input + n * image_in + oc, valid, lay.rows, lay.cols, dw->padding,
                              dw->input_offset, window);
            int8_t *out = output + n * image_out + oc;
            if (valid < 4) {
                mcu_dw_group_outputs(&lay, dw, ch, fast, three, window, w, b, output_dims, out, valid);
            } else if (fast && three) {
                mcu_dw_group_outputs(&lay, dw, ch, 1, 1, window, w, b, output_dims, out, 4);
            } else if (fast) {
                mcu_dw_group_outputs(&lay, dw, ch, 1, 0, window, w, b, output_dims, out, 4);
            } else {
                mcu_dw_group_outputs(&lay, dw, ch, 0, three, window, w, b, output_dims, out, 4);
            }
        }
    }
}
