#include "mcu_nn_conv2d_dsp.h"

/*
 * A ResNet block whose shortcut is a conv (a 1x1 stride-2 projection, usually): CONV_2D -> CONV_2D on the main
 * path as mcu_conv2d_conv2d_add_s8_x6 runs it, and the shortcut conv (conv3 on `input`, output output_dims)
 * computed strip by strip too, into `shortcut`, so that no conv's output ever exists whole. Each strip reads
 * its rows of `input` (the first conv's held rows, the shortcut's) before its output rows are written, so
 * output may be input when every input byte read after a strip lies past the bytes written by then (mcugen
 * checks): the block's output then takes no bytes of its own.
 */
void mcu_conv2d_conv2d_add_shortcut_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                                          const mcu_dims *input_dims, const int8_t *input,
                                          const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                          const int32_t *bias, const mcu_dims *mid_dims,
                                          const mcu_conv_params *conv2, const mcu_channel *channels2,
                                          const mcu_dims *filter2_dims, const void *filter2, int32_t filter2_bits,
                                          const int32_t *bias2, const mcu_dims *output_dims, int32_t strip_rows,
                                          const mcu_conv_params *conv3, const mcu_channel *channels3,
                                          const mcu_dims *filter3_dims, const void *filter3, int32_t filter3_bits,
                                          const int32_t *bias3, const mcu_add_params *add, int8_t *output,
                                          int16_t *scratch, int8_t *rows, int8_t *tile, int8_t *shortcut)
{
    const int32_t row_values = output_dims->w * output_dims->c;
    int32_t held[2] = {0, 0};
    for (int32_t oy = 0; oy < output_dims->h; oy += strip_rows) {
        const int32_t n = output_dims->h - oy < strip_rows ? output_dims->h - oy : strip_rows;
        mcu_chain_strip(conv, channels, input_dims, input, filter_dims, filter, filter_bits, bias, mid_dims, conv2,
                        channels2, filter2_dims, filter2, filter2_bits, bias2, output_dims, oy, n, held, scratch, rows,
                        tile);
        mcu_conv2d_rows_s8_x6(conv3, channels3, input_dims, input, filter3_dims, filter3, filter3_bits, bias3,
                              output_dims, oy, n, shortcut, scratch);
        mcu_add_s8_x4(add, n * row_values, tile, shortcut, output + oy * row_values);
    }
}
