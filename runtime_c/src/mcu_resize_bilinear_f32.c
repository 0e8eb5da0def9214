#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/*
 * TFLM's reference ResizeBilinear in float32: x00 (1 - dy)(1 - dx) + x10 dy (1 - dx) + x01 (1 - dy) dx
 * + x11 dy dx, each product and sum rounded left to right, then + 0.0f (TFLM's rounding offset for
 * floats, which turns a -0.0 into +0.0).
 */
void mcu_resize_bilinear_f32(const mcu_resize_bilinear_f32_params *resize, const mcu_dims *input_dims,
                             const float *input, const mcu_dims *output_dims, float *output)
{
    const int32_t ch = input_dims->c, row = input_dims->w * ch;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const float *image = input + b * input_dims->h * row;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const float *top = image + resize->y0[oy] * row, *bottom = image + resize->y1[oy] * row;
            const float dy = resize->dy[oy], uy = 1.0f - dy;
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t left = resize->x0[ox] * ch, right = resize->x1[ox] * ch;
                const float dx = resize->dx[ox], ux = 1.0f - dx;
                for (int32_t c = 0; c < ch; ++c) {
                    *output++ = top[left + c] * uy * ux + bottom[left + c] * dy * ux + top[right + c] * uy * dx
                                + bottom[right + c] * dy * dx + 0.0f;
                }
            }
        }
    }
}
