#include "mcu_nn_mve.h"
#include "mcu_nn_window.h"

/*
 * 16x8 DEPTHWISE_CONV_2D with Helium, depth multiplier 1: the results of mcu_depthwise_conv2d_s16 for
 * layers whose sums of products fit int32 (KH * KW * 32768 * 128 < 2^31). Per output position (its window
 * clipped to the image by mcu_window_walk: 16x8 has no zero points, so taps outside add nothing), four
 * channels per vector: each tap's int16 inputs and int8 weights widened to 32-bit lanes as they load,
 * multiplied and added (the last channels predicated), then each sum plus its int64 bias requantized
 * as the reference does.
 */
typedef struct {
    const mcu_dw_conv_params *dw;
    const mcu_per_channel_quant *quant;
    const mcu_dims *input_dims, *filter_dims;
    const int16_t *input;
    const int8_t *filter;
    const int64_t *bias;
    int16_t *output;
} dw_s16;

static inline void dw_s16_position(void *state, const mcu_window *window)
{
    const mcu_window win = *window;
    dw_s16 *s = (dw_s16 *)state;
    const mcu_dw_conv_params *dw = s->dw;
    const int32_t in_w = s->input_dims->w, channels = s->input_dims->c, k_w = s->filter_dims->w;
    const int32_t taps_x = win.kx1 - win.kx0, x_step = dw->dilation.w * channels;
    const int16_t *first = s->input + ((win.batch * s->input_dims->h + win.y0 + win.ky0 * dw->dilation.h) * in_w +
                                       win.x0 + win.kx0 * dw->dilation.w) * channels;
    const int8_t *weights = s->filter + (win.ky0 * k_w + win.kx0) * channels;
    int32_t sums[4];
    for (int32_t c = 0; c < channels; c += 4) {
        const mve_pred16_t lanes = vctp32q((uint32_t)(channels - c));
        int32x4_t acc = vdupq_n_s32(0);
        const int16_t *row = first + c;
        const int8_t *w_row = weights + c;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky, row += dw->dilation.h * in_w * channels, w_row += k_w * channels) {
            const int16_t *x = row;
            const int8_t *w = w_row;
            for (int32_t k = 0; k < taps_x; ++k, x += x_step, w += channels) {
                acc = vaddq_s32(acc, vmulq_s32(vldrhq_z_s32(x, lanes), vldrbq_z_s32(w, lanes)));
            }
        }
        vstrwq_s32(sums, acc);
        for (int32_t k = 0; k < 4 && c + k < channels; ++k) {
            s->output[c + k] = mcu_clamp_s16(mcu_requantize64(sums[k] + s->bias[c + k], s->quant->multiplier[c + k],
                                                              s->quant->shift[c + k]),
                                             dw->activation);
        }
    }
    s->output += channels;
}

void mcu_depthwise_conv2d_s16_mve(const mcu_dw_conv_params *dw, const mcu_per_channel_quant *quant,
                                  const mcu_dims *input_dims, const int16_t *input,
                                  const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                                  const mcu_dims *output_dims, int16_t *output)
{
    dw_s16 state = {dw, quant, input_dims, filter_dims, input, filter, bias, output};
    const mcu_tile kernel = {filter_dims->h, filter_dims->w};
    mcu_window_walk(input_dims, output_dims, dw->stride, dw->padding, dw->dilation, kernel, dw_s16_position, &state);
}
