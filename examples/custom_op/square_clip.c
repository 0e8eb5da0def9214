#include "square_clip.h"

void square_clip_s8(const square_clip_params *params, const void *const inputs[], void *const outputs[])
{
    const int8_t *x = (const int8_t *)inputs[0];
    int8_t *y = (int8_t *)outputs[0];
    for (int32_t i = 0; i < params->size; ++i) {
        const int32_t d = x[i] + params->input_offset;
        const int32_t v = ((d * d) >> params->shift) + params->output_offset;
        y[i] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
}
