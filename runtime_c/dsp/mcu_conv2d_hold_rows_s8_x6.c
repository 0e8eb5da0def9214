#include "mcu_nn_conv2d_dsp.h"

/*
 * Make `rows` hold the output rows of a one-image CONV_2D (mid_dims: its whole output) that an output
 * row of the next layer reads, `span` rows from `top` (negative in the next layer's top padding), when
 * it held [held[0], held[1]): rows no longer needed leave from the front, rows not computed yet
 * (mcu_conv2d_rows_s8_x6) go after the kept ones, and held is updated. `in` becomes the held rows'
 * dims; the result is the next layer's top padding moved so that they are its whole input. Callers go
 * down the rows, so no row is computed twice and rows a stride skips are never computed.
 */
int32_t mcu_conv2d_hold_rows_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                                   const mcu_dims *input_dims, const int8_t *input,
                                   const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                   const int32_t *bias, const mcu_dims *mid_dims, int32_t top, int32_t span,
                                   int32_t *held, int8_t *rows, int16_t *scratch, mcu_dims *in)
{
    const int32_t row_bytes = mid_dims->w * mid_dims->c;
    const int32_t need_lo = top > 0 ? top : 0, need_hi = top + span < mid_dims->h ? top + span : mid_dims->h;
    if (need_lo >= held[1]) {
        held[0] = held[1] = need_lo;
    } else if (need_lo > held[0]) {
        memmove(rows, rows + (need_lo - held[0]) * row_bytes, (size_t)((held[1] - need_lo) * row_bytes));
        held[0] = need_lo;
    }
    if (need_hi > held[1]) {
        mcu_conv2d_rows_s8_x6(conv, channels, input_dims, input, filter_dims, filter, filter_bits, bias, mid_dims,
                              held[1], need_hi - held[1], rows + (held[1] - held[0]) * row_bytes, scratch);
        held[1] = need_hi;
    }
    in->n = 1;
    in->h = held[1] - held[0];
    in->w = mid_dims->w;
    in->c = mid_dims->c;
    return held[0] - top;
}
