#include "mcu_nn_dsp.h"

/*
 * Make `rows` hold output rows [need_lo, need_hi) of a one-image CONV_2D (mid_dims: its whole output)
 * when it held [held[0], held[1]): rows no longer needed leave from the front, rows not computed yet
 * (mcu_conv2d_rows_s8_x6) go after the kept ones, and held is updated. Callers ask for windows that
 * only move down, so no row is computed twice and rows a stride skips are never computed.
 */
void mcu_conv2d_hold_rows_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                                const mcu_dims *input_dims, const int8_t *input,
                                const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                                const int32_t *bias, const mcu_dims *mid_dims, int32_t need_lo, int32_t need_hi,
                                int32_t *held, int8_t *rows, int16_t *scratch)
{
    const int32_t row_bytes = mid_dims->w * mid_dims->c;
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
}
