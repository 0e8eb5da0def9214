/* SquareClip, a custom op of the example model: y = clamp((x - zero_point)^2 >> shift + output zero point),
 * int8 in and out, any shape. mcugen runs it with `--ops square_clip.py`. */
#ifndef SQUARE_CLIP_H
#define SQUARE_CLIP_H

#include "mcu_nn.h" /* every kernel of a model takes the model's name, yours too */

typedef struct {
    int32_t size;          /* values in the tensor */
    int32_t input_offset;  /* -the input's zero point */
    int32_t output_offset; /* the output's zero point */
    int32_t shift;         /* from the op's options */
} square_clip_params;

void square_clip_s8(const square_clip_params *params, const void *const inputs[], void *const outputs[]);

#endif /* SQUARE_CLIP_H */
