#include "mcu_nn.h"

/*
 * Each output is the four raw neighbours weighted in 1/2^20, the half added away from zero and the
 * sum divided truncating (TFLM without single rounding). int32 suffices: the weights' magnitudes
 * sum to at most 2048^2 (a weight reaches -512 only where both neighbours are the same pixel), and
 * 128 * 2048^2 + 2^19 < 2^31.
 */
void mcu_resize_bilinear_s8(const mcu_resize_bilinear_params *resize, const mcu_dims *input_dims,
                            const int8_t *input, const mcu_dims *output_dims, int8_t *output)
{
    const int32_t ch = input_dims->c, row = input_dims->w * ch;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * input_dims->h * row;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int8_t *top = image + resize->y0[oy] * row, *bottom = image + resize->y1[oy] * row;
            const int32_t fy = resize->fy[oy];
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t left = resize->x0[ox] * ch, right = resize->x1[ox] * ch, fx = resize->fx[ox];
                for (int32_t c = 0; c < ch; ++c) {
                    const int32_t near = top[left + c] * (1024 - fy) + bottom[left + c] * fy;
                    const int32_t far = top[right + c] * (1024 - fy) + bottom[right + c] * fy;
                    const int32_t acc = near * (1024 - fx) + far * fx;
                    *output++ = (int8_t)((acc + (acc > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20));
                }
            }
        }
    }
}
