#include <string.h>

#include "mcu_nn.h"

void mcu_resize_nearest(const mcu_resize_params *resize, const mcu_dims *input_dims, const void *input,
                        const mcu_dims *output_dims, void *output)
{
    const int32_t pixel = input_dims->c;
    int8_t *out = output;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = (const int8_t *)input + b * input_dims->h * input_dims->w * pixel;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int8_t *row = image + resize->rows[oy] * input_dims->w * pixel;
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                memcpy(out, row + resize->cols[ox] * pixel, (size_t)pixel);
                out += pixel;
            }
        }
    }
}
