#include "mcu_nn_dsp.h"
#include "mcu_nn_window.h"

/*
 * AVERAGE_POOL_2D of int8 on DSP cores: mcu_avgpool's results. Channels go four at a time: each tap's
 * word of four channels is unpacked (SXTB16, and its rotation) and added into two pairs of int16 sums
 * (SADD16), which a window of up to 255 taps cannot overflow (|sum| <= 255 * 128); then each channel's
 * mean rounds half away from zero with truncating division, as in the reference. Larger windows, and
 * the last C % 4 channels, go the reference's way.
 */

/* One channel's mean of `sum` over `count` taps, clamped and stored. */
static inline void put(mcu_pool_walk *s, int32_t sum, int32_t count)
{
    sum = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
    ((int8_t *)s->output)[s->at++] = (int8_t)mcu_clamp(sum, s->pool->activation);
}

static inline void position(void *state, const mcu_window *window)
{
    const mcu_window win = *window; /* a local copy: stores through int8 pointers could alias it */
    mcu_pool_walk *s = (mcu_pool_walk *)state;
    const int32_t in_w = s->input_dims->w, ch = s->input_dims->c, rows = win.ky1 - win.ky0, cols = win.kx1 - win.kx0;
    const int8_t *first = (const int8_t *)s->input
                          + ((win.batch * s->input_dims->h + win.y0 + win.ky0) * in_w + win.x0 + win.kx0) * ch;
    const int32_t count = rows * cols;
    int32_t c = 0;
    for (; c + 4 <= ch; c += 4) {
        int16x2_t even = 0, odd = 0;
        const int8_t *row = first + c;
        for (int32_t ky = 0; ky < rows; ++ky, row += in_w * ch) {
            for (int32_t kx = 0; kx < cols; ++kx) {
                const uint32_t v = mcu_load4(row + kx * ch);
                even = __sadd16(even, mcu_even_bytes(v));
                odd = __sadd16(odd, mcu_odd_bytes(v));
            }
        }
        put(s, (int16_t)even, count);
        put(s, (int16_t)odd, count);
        put(s, (int16_t)((uint32_t)even >> 16), count);
        put(s, (int16_t)((uint32_t)odd >> 16), count);
    }
    for (; c < ch; ++c) {
        int32_t sum = 0;
        const int8_t *row = first + c;
        for (int32_t ky = 0; ky < rows; ++ky, row += in_w * ch) {
            for (int32_t kx = 0; kx < cols; ++kx) {
                sum += row[kx * ch];
            }
        }
        put(s, sum, count);
    }
}

void mcu_avgpool_s8_x4(const mcu_pool_params *pool, const mcu_dims *input_dims, const int8_t *input,
                       const mcu_dims *output_dims, int8_t *output)
{
    if (pool->filter.h * pool->filter.w > 255) {
        mcu_avgpool(pool, input_dims, input, output_dims, output);
        return;
    }
    mcu_pool_walk state = {pool, input_dims, input, output, 0};
    const mcu_tile one = {1, 1};
    mcu_window_walk(input_dims, output_dims, pool->stride, pool->padding, one, pool->filter, position, &state);
}
