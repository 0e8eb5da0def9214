#include "mcu_nn_conv2d_dsp.h"

/*
 * Output rows [first, first + rows) of a one-image CONV_2D, written to output as an image of
 * `rows` rows: mcu_conv2d_s8_x6 with the window moved down. Output row r reads input rows from
 * r * stride_h - padding_h, so taking padding_h - first * stride_h as the padding (negative once
 * the strip is past the top padding) and `rows` as the output height computes exactly those rows;
 * the input's own height still bounds the window, so the bottom padding is as before. filter_bits: 8
 * for mcu_conv2d_s8_x6's filter, 16 for mcu_conv2d_s8_w16's, 4 for mcu_conv2d_s4_x6's, MCU_FILTER_TWIN for
 * mcu_conv2d_s8_twin's, MCU_FILTER_S4_QUADS for mcu_conv2d_s4_quads' (the conv's own call decides). The
 * references are weak: a build links the kernel of the form its calls name, not all five (kernels/strips.py
 * names it).
 */

/* Weak: firmware without an INT4 conv in strips links no INT4 kernel (the reference resolves to 0 there,
 * and filter_bits is never 4). */
#pragma weak mcu_conv2d_s8_x6
#pragma weak mcu_conv2d_s8_w16
#pragma weak mcu_conv2d_s4_x6
#pragma weak mcu_conv2d_s8_twin
#pragma weak mcu_conv2d_s4_quads

void mcu_conv2d_rows_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                           const mcu_dims *input_dims, const int8_t *input,
                           const mcu_dims *filter_dims, const void *filter, int32_t filter_bits, const int32_t *bias,
                           const mcu_dims *output_dims, int32_t first, int32_t rows, int8_t *output,
                           int16_t *scratch)
{
    mcu_conv_params strip = *conv;
    strip.padding.h = conv->padding.h - first * conv->stride.h;
    mcu_dims strip_dims = *output_dims;
    strip_dims.h = rows;
    if (filter_bits == 4) {
        mcu_conv2d_s4_x6(&strip, channels, input_dims, input, filter_dims, (const int8_t *)filter, bias, &strip_dims,
                         output, scratch);
    } else if (filter_bits == MCU_FILTER_S4_QUADS) {
        mcu_conv2d_s4_quads(&strip, channels, input_dims, input, filter_dims, (const int8_t *)filter, bias,
                            &strip_dims, output, scratch);
    } else if (filter_bits == MCU_FILTER_TWIN) {
        mcu_conv2d_s8_twin(&strip, channels, input_dims, input, filter_dims, (const int8_t *)filter, bias, &strip_dims,
                           output, scratch);
    } else if (filter_bits == 16) {
        mcu_conv2d_s8_w16(&strip, channels, input_dims, input, filter_dims, (const int16_t *)filter, bias, &strip_dims,
                          output, scratch);
    } else {
        mcu_conv2d_s8_x6(&strip, channels, input_dims, input, filter_dims, (const int8_t *)filter, bias, &strip_dims,
                         output, scratch);
    }
}
