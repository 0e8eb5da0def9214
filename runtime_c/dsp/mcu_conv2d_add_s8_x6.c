#include "mcu_nn_conv2d_dsp.h"

/*
 * A one-image CONV_2D and the ADD of its output to a residual of the same shape, without the
 * conv's output ever existing whole: the conv runs `strip_rows` output rows at a time into `tile`,
 * and each strip is added (mcu_add_s8_x4, the conv's output as input 1) to the same rows of the
 * residual. Each output value is written after the residual value at its place is read, so output
 * may be residual (in place). scratch: mcu_conv2d_s8_x6's; tile: strip_rows * OW * C bytes.
 */
void mcu_conv2d_add_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                          const mcu_dims *input_dims, const int8_t *input,
                          const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                          const int32_t *bias,
                          const mcu_dims *output_dims, int32_t strip_rows,
                          const mcu_add_params *add, const int8_t *residual, int8_t *output,
                          int16_t *scratch, int8_t *tile)
{
    const int32_t row_values = output_dims->w * output_dims->c;
    for (int32_t first = 0; first < output_dims->h; first += strip_rows) {
        const int32_t rows = output_dims->h - first < strip_rows ? output_dims->h - first : strip_rows;
        mcu_conv2d_rows_s8_x6(conv, channels, input_dims, input, filter_dims, filter, filter_bits, bias, output_dims,
                              first, rows, tile, scratch);
        mcu_add_s8_x4(add, rows * row_values, tile, residual + first * row_values, output + first * row_values);
    }
}
