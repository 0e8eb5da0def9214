/*
 * The reference CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED bodies, one for each filter type: int8
 * (mcu_*_s8) and INT4 (mcu_*_s4: two weights to a byte, the low nibble first, as a .tflite file and
 * TFLM hold them, read where they lie in flash). `bits` is a constant where a kernel inlines them.
 * The arithmetic is TFLM's reference_integer_ops' (an INT4 filter is unpacked to int8 there first):
 *   acc = bias[oc] + sum over in-image taps of (input + input_offset) * (filter + filter_offset)
 *   out = clamp(requantize(acc, multiplier[oc], shift[oc]) + output_offset)
 * Taps outside the image contribute nothing, which is what zero-padding in the real domain means. The
 * int32 sum wraps past 2^31 as TFLM's does on every Arm and x86 target (unsigned here: C leaves a
 * signed overflow undefined).
 */
#ifndef MCU_NN_CONV_REF_H
#define MCU_NN_CONV_REF_H

#include "mcu_nn_support.h"
#include "mcu_nn_window.h"

/* Weight i of a filter of `bits` 8 or 4. */
static inline __attribute__((always_inline)) int32_t mcu_weight(const int8_t *filter, int32_t i, int bits)
{
    if (bits == 8) {
        return filter[i];
    }
    const uint8_t byte = (uint8_t)filter[i >> 1];
    return (int32_t)((i & 1 ? byte >> 4 : byte & 0x0Fu) ^ 0x08u) - 8;
}

typedef struct {
    const mcu_conv_params *conv;
    const mcu_per_channel_quant *quant;
    const mcu_dims *input_dims, *filter_dims;
    const int8_t *input, *filter;
    const int32_t *bias;
    int32_t out_c;
    int8_t *output;
} mcu_conv_ref;

static inline __attribute__((always_inline)) void mcu_conv_ref_position(mcu_conv_ref *s, const mcu_window *window,
                                                                        int bits)
{
    const mcu_window win = *window; /* a local copy: stores and loads through int8 pointers could alias it */
    const mcu_conv_params *conv = s->conv;
    const int32_t in_w = s->input_dims->w, in_c = s->input_dims->c;
    const int32_t k_w = s->filter_dims->w, taps = s->filter_dims->h * k_w * in_c;
    const int8_t *image = s->input + win.batch * s->input_dims->h * in_w * in_c;
    const int32_t offset = conv->input_offset, dx = conv->dilation.w;
    /* a row of adjacent taps (dilation 1) is one run of bytes in the input and of weights in the filter */
    const int32_t runs = dx == 1 ? 1 : win.kx1 - win.kx0, run = dx == 1 ? (win.kx1 - win.kx0) * in_c : in_c;
    for (int32_t oc = 0; oc < s->out_c; ++oc) {
        const int8_t *kernel = s->filter + oc * taps; /* int8 weights by pointer: the M0 has few registers */
        uint32_t acc = s->bias ? (uint32_t)s->bias[oc] : 0u;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int8_t *x = image + ((win.y0 + ky * conv->dilation.h) * in_w + win.x0 + win.kx0 * dx) * in_c;
            const int32_t first = (ky * k_w + win.kx0) * in_c; /* the run's first weight */
            if (bits == 8) {
                const int8_t *w = kernel + first;
                for (int32_t r = 0; r < runs; ++r, x += dx * in_c, w += in_c) {
                    for (int32_t i = 0; i < run; ++i) {
                        acc += (uint32_t)((x[i] + offset) * w[i]);
                    }
                }
                continue;
            }
            int32_t w = oc * taps + first;
            for (int32_t r = 0; r < runs; ++r, x += dx * in_c, w += in_c) {
                for (int32_t i = 0; i < run; ++i) {
                    acc += (uint32_t)((x[i] + offset) * mcu_weight(s->filter, w + i, bits));
                }
            }
        }
        const int32_t y = mcu_requantize((int32_t)acc, s->quant->multiplier[oc], s->quant->shift[oc]) + conv->output_offset;
        *s->output++ = mcu_clamp_s8(y, conv->activation);
    }
}

/* output channel oc = ic * depth_multiplier + m filters input channel ic alone */
typedef struct {
    const mcu_dw_conv_params *dw;
    const mcu_per_channel_quant *quant;
    const mcu_dims *input_dims, *filter_dims;
    const int8_t *input, *filter;
    const int32_t *bias;
    int32_t out_c;
    int8_t *output;
} mcu_dw_ref;

static inline __attribute__((always_inline)) void mcu_dw_ref_position(mcu_dw_ref *s, const mcu_window *window, int bits)
{
    const mcu_window win = *window;
    const mcu_dw_conv_params *dw = s->dw;
    const int32_t in_w = s->input_dims->w, in_c = s->input_dims->c, k_w = s->filter_dims->w, out_c = s->out_c;
    const int8_t *image = s->input + win.batch * s->input_dims->h * in_w * in_c;
    for (int32_t oc = 0; oc < out_c; ++oc) {
        const int32_t ic = oc / dw->depth_multiplier;
        uint32_t acc = s->bias ? (uint32_t)s->bias[oc] : 0u;
        for (int32_t ky = win.ky0; ky < win.ky1; ++ky) {
            const int32_t iy = win.y0 + ky * dw->dilation.h;
            for (int32_t kx = win.kx0; kx < win.kx1; ++kx) {
                const int32_t ix = win.x0 + kx * dw->dilation.w;
                acc += (uint32_t)((image[(iy * in_w + ix) * in_c + ic] + dw->input_offset) *
                                  mcu_weight(s->filter, (ky * k_w + kx) * out_c + oc, bits));
            }
        }
        const int32_t y = mcu_requantize((int32_t)acc, s->quant->multiplier[oc], s->quant->shift[oc]) + dw->output_offset;
        *s->output++ = mcu_clamp_s8(y, dw->activation);
    }
}

static inline __attribute__((always_inline)) void mcu_fully_connected_ref(
    const mcu_fc_params *fc, const mcu_per_channel_quant *quant, const mcu_dims *input_dims, const int8_t *input,
    const int8_t *filter, const int32_t *bias, const mcu_dims *output_dims, int8_t *output, int bits)
{
    const int32_t depth = input_dims->c, units = output_dims->c;
    for (int32_t n = 0; n < input_dims->n; ++n) {
        const int8_t *x = input + n * depth;
        for (int32_t o = 0; o < units; ++o) {
            uint32_t acc = bias ? (uint32_t)bias[o] : 0u;
            for (int32_t d = 0; d < depth; ++d) {
                acc += (uint32_t)((x[d] + fc->input_offset) * (mcu_weight(filter, o * depth + d, bits) + fc->filter_offset));
            }
            const int32_t y = mcu_requantize((int32_t)acc, quant->multiplier[o], quant->shift[o]) + fc->output_offset;
            *output++ = mcu_clamp_s8(y, fc->activation);
        }
    }
}

#endif /* MCU_NN_CONV_REF_H */
