/* mcu_nn: data movement: strided copies, PAD, CONCATENATION / SPLIT, GATHER, the resizes, SPACE_TO_BATCH_ND. Conventions: mcu_nn.h. */
#ifndef MCU_NN_MOVEMENT_H
#define MCU_NN_MOVEMENT_H

#include "mcu_nn_types.h"

/* out[out_offset + sum(i_k * out_stride_k)] = in[in_offset + sum(i_k * in_stride_k)], 0 <= i_k < shape_k,
 * in bytes. */
typedef struct {
    int32_t rank;
    int32_t shape[MCU_MAX_DIMS];
    int32_t in_stride[MCU_MAX_DIMS];
    int32_t out_stride[MCU_MAX_DIMS];
    int32_t in_offset;
    int32_t out_offset;
} mcu_copy_params;

typedef struct {
    mcu_copy_params copy;  /* places the input inside the output */
    int32_t output_size;   /* elements */
    int32_t pad_value;     /* in the elements' range */
    int32_t bits;          /* 8 or 16 */
} mcu_pad_params;

/* RESIZE_BILINEAR: per output row and column, the two neighbours in the input and the weight of the
 * second in 1/1024 (negative near the border with half-pixel centers, where both neighbours agree). */
typedef struct {
    const int32_t *y0, *y1, *fy; /* [output height] */
    const int32_t *x0, *x1, *fx; /* [output width] */
} mcu_resize_bilinear_params;

/* SPACE_TO_BATCH_ND (to_batch = 1) and BATCH_TO_SPACE_ND (0) between space [batch, space_h, space_w, depth]
 * and batched [block_h * block_w * batch, batched_h, batched_w, depth]:
 *   batched[(i * block_w + j) * batch + n, y, x, :] = space[n, y * block_h + i - top, x * block_w + j - left, :]
 * (top, left) are the paddings or the crops; space positions outside the tensor are filled with
 * `fill` (to_batch) or dropped. */
typedef struct {
    int32_t batch;
    int32_t space_h;
    int32_t space_w;
    int32_t batched_h;
    int32_t batched_w;
    int32_t depth; /* bytes per pixel */
    int32_t block_h;
    int32_t block_w;
    int32_t top;
    int32_t left;
    int32_t to_batch;
    int32_t fill; /* the byte every padded one takes (an int8 zero point; 0 for float32's 0.0f) */
} mcu_space_batch_params;

/* CONCATENATION: the output is `outer` repetitions of each input's next inner[i] bytes, inputs in order.
 * SPLIT: the inverse, each of the `count` outputs taking its inner[i] bytes in turn. */
typedef struct {
    int32_t outer;
    int32_t count; /* tensors joined or split off */
    const int32_t *inner;
} mcu_concat_params;

/* GATHER: for each of `outer` slabs of axis_size x inner bytes, the inner bytes at each index in turn. */
typedef struct {
    int32_t outer;
    int32_t axis_size;
    int32_t inner;          /* bytes: the values after the axis times their size */
    int32_t count;          /* number of indices */
    const int32_t *indices; /* [count], each in [0, axis_size) */
} mcu_gather_params;

typedef struct {
    const int32_t *rows; /* [output h]: source row of each output row */
    const int32_t *cols; /* [output w]: source column of each output column */
} mcu_resize_params;

/* RESIZE_BILINEAR of raw int8 values (NHWC), TFLM's integer arithmetic. */
void mcu_resize_bilinear_s8(const mcu_resize_bilinear_params *resize, const mcu_dims *input_dims,
                            const int8_t *input, const mcu_dims *output_dims, int8_t *output);

/* SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND (values copied, of any size: `depth` counts bytes). */
void mcu_space_batch(const mcu_space_batch_params *sb, const void *input, void *output);

/* Strided N-D copy of bytes: TRANSPOSE, STRIDED_SLICE, TILE and data-movement in general (a wider
 * element is one more axis of its bytes). */
void mcu_copy_strided(const mcu_copy_params *copy, const void *input, void *output);

/* PAD / PADV2, int8 or int16: fill with pad_value, then copy the input into place. */
void mcu_pad(const mcu_pad_params *pad, const void *input, void *output);

/* CONCATENATION (and PACK) of `count` tensors along one axis, values copied as bytes. */
void mcu_concatenation(const mcu_concat_params *concat, const void *const *inputs, void *output);

/* SPLIT, SPLIT_V, UNPACK: one tensor cut into `count` along one axis (values copied as bytes). */
void mcu_split(const mcu_concat_params *split, const void *input, void *const *outputs);

/* GATHER with constant indices: values copied as bytes, any type. */
void mcu_gather(const mcu_gather_params *gather, const void *input, void *output);

/* RESIZE_NEAREST_NEIGHBOR: [N,H,W,C] -> [N,OH,OW,C] with precomputed source rows and columns. Values
 * are only copied, so any element type: the dims' c counts the bytes of one pixel (C x element size). */
void mcu_resize_nearest(const mcu_resize_params *resize, const mcu_dims *input_dims, const void *input,
                        const mcu_dims *output_dims, void *output);

#endif /* MCU_NN_MOVEMENT_H */
