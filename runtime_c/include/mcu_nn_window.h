/*
 * Walking the windows of the 2-D window ops (conv, depthwise, pooling; reference kernels and the
 * variants that keep their walk): which taps of a window fall inside the image, a group of four
 * channels' window, and the walk over the output positions that calls a kernel's per-position function.
 */
#ifndef MCU_NN_WINDOW_H
#define MCU_NN_WINDOW_H

#include "mcu_nn_support.h"

/* The taps [*first, *last) of a window of `filter` taps `dilation` apart, the first at `origin`, that fall
 * inside [0, size) (an empty range when none does): pooling counts only these, and a convolution's other
 * taps read zero padding, which adds nothing. */
static inline void mcu_window_taps(int32_t origin, int32_t filter, int32_t dilation, int32_t size,
                                   int32_t *first, int32_t *last)
{
    const int32_t lo = origin < 0 ? (dilation - 1 - origin) / dilation : 0;
    int32_t hi = origin < size ? (size - origin + dilation - 1) / dilation : 0;
    hi = hi < filter ? hi : filter;
    *first = lo;
    *last = hi > lo ? hi : lo;
}

/* Channels [c, c + valid) (valid <= 4) of one [H, W, C] image (`group` points at channel c of its first
 * pixel), laid out as the window a depthwise kernel's outputs read: [rows][cols] words, each position's
 * four channels, the padding and any channel past `valid` filled with the input zero point
 * (-input_offset), so that a padded tap adds (x + input_offset) * w = 0 and every output runs all its
 * taps without bounds tests. window: word-aligned. */
static inline void mcu_window_group4(const mcu_dims *in, const int8_t *group, int32_t valid, int32_t rows,
                                     int32_t cols, mcu_tile padding, int32_t input_offset, int8_t *window)
{
    const uint32_t zero = 0x01010101u * (uint8_t)(int8_t)(-input_offset);
    const int32_t c = in->c, left = padding.w < cols ? padding.w : cols;
    int32_t right = padding.w + in->w;
    right = right < cols ? right : cols;
    uint32_t *dst = (uint32_t *)(void *)window;
    for (int32_t y = 0; y < rows; ++y) {
        const int32_t iy = y - padding.h;
        if (iy < 0 || iy >= in->h) {
            for (int32_t x = 0; x < cols; ++x) {
                *dst++ = zero;
            }
            continue;
        }
        const int8_t *src = group + (iy * in->w + left - padding.w) * c;
        int32_t x = 0;
        for (; x < left; ++x) {
            *dst++ = zero;
        }
        if (valid == 4) {
            /* four pixels a pass, their loads back to back (the M4 pipelines them): 3.5 cycles a word where
             * one a pass took 8 (VWW's fused stride-2 depthwise layer: 110 K cycles of copies) */
            for (; x + 4 <= right; x += 4, src += 4 * c, dst += 4) {
                uint32_t w0, w1, w2, w3;
                memcpy(&w0, src, sizeof w0);
                memcpy(&w1, src + c, sizeof w1);
                memcpy(&w2, src + 2 * c, sizeof w2);
                memcpy(&w3, src + 3 * c, sizeof w3);
                dst[0] = w0, dst[1] = w1, dst[2] = w2, dst[3] = w3;
            }
            for (; x < right; ++x, src += c) {
                uint32_t word;
                memcpy(&word, src, sizeof word);
                *dst++ = word;
            }
        } else {
            /* the last group reads only its channels: the input may end right after them */
            for (; x < right; ++x, src += c) {
                uint32_t word = zero;
                memcpy(&word, src, (size_t)valid);
                *dst++ = word;
            }
        }
        for (; x < cols; ++x) {
            *dst++ = zero;
        }
    }
}

/* One output position of a 2-D window op: its image, the input pixel under its window's first tap
 * (outside the image where the window starts in the padding) and its taps inside the image. */
typedef struct {
    int32_t batch;
    int32_t y0, x0;   /* input row and column of tap (0, 0) */
    int32_t ky0, ky1; /* the rows of taps [ky0, ky1) inside the image */
    int32_t kx0, kx1; /* the columns of taps [kx0, kx1) */
} mcu_window;

typedef void (*mcu_window_fn)(void *state, const mcu_window *window);

/* What a pooling kernel's per-position function needs while mcu_window_walk runs it: the layer, its input
 * and output (int8 or int16, pool->bits), and the next output element. */
typedef struct {
    const mcu_pool_params *pool;
    const mcu_dims *input_dims;
    const void *input;
    void *output;
    int32_t at;
} mcu_pool_walk;

/* The same for the float32 pools. */
typedef struct {
    const mcu_float_pool_params *params;
    const mcu_dims *input_dims;
    const float *input;
    float *output;
} mcu_float_pool_walk;

/* Walks the output positions of a window op (conv, depthwise, pooling) in output order, batch then row
 * then column, calling `position` with each one's window clipped to the image; `state` holds the op's
 * pointers, which `position` advances as it writes. Static inline, and `position` should be too: GCC -O2
 * then inlines it into the loops, as with mcu_broadcast_rows. */
static inline void mcu_window_walk(const mcu_dims *input_dims, const mcu_dims *output_dims, mcu_tile stride,
                                   mcu_tile padding, mcu_tile dilation, mcu_tile filter, mcu_window_fn position,
                                   void *state)
{
    mcu_window w;
    for (w.batch = 0; w.batch < output_dims->n; ++w.batch) {
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            w.y0 = oy * stride.h - padding.h;
            mcu_window_taps(w.y0, filter.h, dilation.h, input_dims->h, &w.ky0, &w.ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                w.x0 = ox * stride.w - padding.w;
                mcu_window_taps(w.x0, filter.w, dilation.w, input_dims->w, &w.kx0, &w.kx1);
                position(state, &w);
            }
        }
    }
}

#endif /* MCU_NN_WINDOW_H */
