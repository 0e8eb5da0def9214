#include "mcu_nn_conv2d_dsp.h"

/*
 * A one-image CONV_2D and the FULLY_CONNECTED that reads its whole output as one row, without the
 * conv's output ever existing whole: the conv runs `strip_rows` output rows at a time into `tile`,
 * and each strip's values, which are the FC input's next values in order, are accumulated into
 * every unit at once. The FC's input offset is folded into bias_folded (as for
 * mcu_fully_connected_s8_x4) and its filter has no offset, so a strip only adds
 * sum tile[k] * filter[u][k0 + k], two values per SMLAD, four units per input word. Units are requantized
 * after the last strip.
 * scratch: mcu_conv2d_s8_x6's; tile: strip_rows * OW * C bytes; acc: one int32 per unit.
 */
/* mcu_dot_s8 for four units whose filter rows are `depth` apart, each input word unpacked once. */
static void accumulate4(const int8_t *x, int32_t n, const int8_t *w, int32_t depth, int32_t *acc)
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const int8_t *w1 = w + depth, *w2 = w1 + depth, *w3 = w2 + depth;
    int32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        const uint32_t v = mcu_load4(x + k);
        const int16x2_t even = mcu_even_bytes(v), odd = mcu_odd_bytes(v);
        uint32_t f = mcu_load4(w + k);
        a0 = __smlad(odd, mcu_odd_bytes(f), __smlad(even, mcu_even_bytes(f), a0));
        f = mcu_load4(w1 + k);
        a1 = __smlad(odd, mcu_odd_bytes(f), __smlad(even, mcu_even_bytes(f), a1));
        f = mcu_load4(w2 + k);
        a2 = __smlad(odd, mcu_odd_bytes(f), __smlad(even, mcu_even_bytes(f), a2));
        f = mcu_load4(w3 + k);
        a3 = __smlad(odd, mcu_odd_bytes(f), __smlad(even, mcu_even_bytes(f), a3));
    }
    acc[0] = a0 + mcu_dot_s8(0, x + k, w + k, n - k);
    acc[1] = a1 + mcu_dot_s8(0, x + k, w1 + k, n - k);
    acc[2] = a2 + mcu_dot_s8(0, x + k, w2 + k, n - k);
    acc[3] = a3 + mcu_dot_s8(0, x + k, w3 + k, n - k);
}

void mcu_conv2d_fc_s8_x6(const mcu_conv_params *conv, const mcu_channel *channels,
                         const mcu_dims *input_dims, const int8_t *input,
                         const mcu_dims *filter_dims, const void *filter, int32_t filter_bits,
                         const int32_t *bias,
                         const mcu_dims *output_dims, int32_t strip_rows,
                         const mcu_fc_params *fc, const mcu_channel *fc_channels, const int8_t *fc_filter,
                         const int32_t *fc_bias_folded, const mcu_dims *fc_output_dims, int8_t *output,
                         int16_t *scratch, int8_t *tile, int32_t *acc)
{
    const int32_t row_values = output_dims->w * output_dims->c, depth = output_dims->h * row_values;
    const int32_t units = fc_output_dims->c;
    for (int32_t u = 0; u < units; ++u) {
        acc[u] = fc_bias_folded[u];
    }
    for (int32_t first = 0; first < output_dims->h; first += strip_rows) {
        const int32_t rows = output_dims->h - first < strip_rows ? output_dims->h - first : strip_rows;
        const int32_t n = rows * row_values;
        mcu_conv2d_rows_s8_x6(conv, channels, input_dims, input, filter_dims, filter, filter_bits, bias, output_dims,
                              first, rows, tile, scratch);
        const int8_t *w = fc_filter + first * row_values;
        int32_t u = 0;
        for (; u + 4 <= units; u += 4, w += 4 * depth) {
            accumulate4(tile, n, w, depth, acc + u);
        }
        for (; u < units; ++u, w += depth) {
            acc[u] = mcu_dot_s8(acc[u], tile, w, n);
        }
    }
    for (int32_t u = 0; u < units; ++u) {
        output[u] = mcu_channel_output(acc[u], &fc_channels[u], fc_channels[u].fast, fc->output_offset,
                                       fc->activation);
    }
}
