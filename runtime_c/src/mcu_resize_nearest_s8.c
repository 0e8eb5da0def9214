#include <string.h>

#include "mcu_nn.h"

void mcu_resize_nearest_s8(const mcu_resize_params *resize, const mcu_dims *input_dims, const int8_t *input,
                           const mcu_dims *output_dims, int8_t *output)
{
    const int32_t ch = input_dims->c;
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * input_dims->h * input_dims->w * ch;
        for (int32_t oy = 0; oy < output_dims->h; ++oy) {
            const int8_t *row = image + resize->rows[oy] * input_dims->w * ch;
            for (int32_t ox = 0; ox < output_dims->w; ++ox) {
                memcpy(output, row + resize->cols[ox] * ch, (size_t)ch);
                output += ch;
            }
        }
    }
}
