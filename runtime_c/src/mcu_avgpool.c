#include "mcu_nn_support.h"

/*
 * Reference AVERAGE_POOL_2D (TFLM reference_integer_ops::AveragePool): only in-image taps count,
 * and the mean rounds half away from zero with truncating C division, as TFLM does. int8 or int16.
 */
void mcu_avgpool(const mcu_pool_params *pool, const mcu_dims *input_dims, const void *input,
                 const mcu_dims *output_dims, void *output)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, ch = input_dims->c;
    int32_t at = 0;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int32_t image = b * in_h * in_w * ch;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int32_t y0 = oy * pool->stride.h - pool->padding.h;
            int32_t ky0, ky1;
            mcu_window_taps(y0, pool->filter.h, in_h, &ky0, &ky1);
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                const int32_t x0 = ox * pool->stride.w - pool->padding.w;
                int32_t kx0, kx1;
                mcu_window_taps(x0, pool->filter.w, in_w, &kx0, &kx1);
                const int32_t count = (ky1 - ky0) * (kx1 - kx0);
                for (int32_t c = 0; c < ch; ++c) {
                    int32_t sum = 0;
                    for (int32_t ky = ky0; ky < ky1; ++ky) {
                        for (int32_t kx = kx0; kx < kx1; ++kx) {
                            sum += mcu_load(input, image + ((y0 + ky) * in_w + x0 + kx) * ch + c, pool->bits);
                        }
                    }
                    sum = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
                    mcu_store(output, at++, pool->bits, mcu_clamp(sum, pool->activation));
                }
            }
        }
    }
}
