#include "mcu_nn_conv2d_dsp.h"

/*
 * CONV_2D -> CONV_2D -> ADD (a ResNet block's main path and its residual) with neither conv's output
 * ever existing whole: `rows` holds the first conv's output rows that strip_rows output rows of the
 * second read (mcu_conv2d_hold_rows_s8_x6), the second computes those rows into `tile` from them (its
 * padding moved so that `rows` is its whole input), and they are added (mcu_add_s8_x4, the second conv's
 * output as input 1) to the residual's. residual NULL: the residual is `input`, the first conv's own.
 * Output rows are written after the rows they read; output may be residual, or (residual NULL) input
 * when every input row the first conv reads after a strip is past the strip's rows (mcugen checks).
 * strip_rows: mcugen takes the fewest rows whose positions fill whole blocks of the convs (a row of 32
 * alone left two positions to the slower two-position sums, a row of 16 one: ResNet-8 -2.3% cycles).
 * scratch: the larger of the two convs' (they take turns); rows: at most (strip_rows - 1) * stride2_h +
 * (KH2-1) * dilation2_h + 1 rows of mid W * C bytes; tile: strip_rows * OW * C bytes.
 */
void mcu_conv2d_conv2d_add_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                                 const mcu_dims *input_dims, const int8_t *input,
                                 const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                 const int32_t *bias, const mcu_dims *mid_dims,
                                 const mcu_conv_params *conv2, const mcu_channel *channels2,
                                 const mcu_dims *filter2_dims, const void *filter2, int32_t filter2_bits,
                                 const int32_t *bias2, const mcu_dims *output_dims, int32_t strip_rows,
                                 const mcu_add_params *add, const int8_t *residual, int8_t *output,
                                 int16_t *scratch, int8_t *rows, int8_t *tile)
{
    const int32_t row_values = output_dims->w * output_dims->c;
    const int8_t *skip = residual != NULL ? residual : input;
    int32_t held[2] = {0, 0};
    for (int32_t oy = 0; oy < output_dims->h; oy += strip_rows) {
        const int32_t n = output_dims->h - oy < strip_rows ? output_dims->h - oy : strip_rows;
        mcu_chain_strip(conv, channels, input_dims, input, filter_dims, filter, filter_bits, bias, mid_dims, conv2,
                        channels2, filter2_dims, filter2, filter2_bits, bias2, output_dims, oy, n, held, scratch, rows,
                        tile);
        mcu_add_s8_x4(add, n * row_values, tile, skip + oy * row_values, output + oy * row_values);
    }
}
