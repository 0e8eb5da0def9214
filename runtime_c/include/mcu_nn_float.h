#ifndef MCU_NN_FLOAT_H
#define MCU_NN_FLOAT_H

/*
 * float32 kernels, bit-exact with TFLM's float reference kernels: each sums and rounds in TFLM's
 * order (conv: filter row, filter column, input channel, then the bias; pooling: row then column),
 * one IEEE float32 operation at a time, never contracted into fused multiply-adds (mcu_nn_fp_exact.h:
 * TFLM's reference build has none).
 * Hard float on cores with an FPU, soft float (libgcc's IEEE routines) elsewhere: the same bits.
 *
 * Layouts as the integer kernels': activations [N,H,W,C]; conv filters [OC,KH,KW,IC/groups];
 * depthwise filters [1,KH,KW,OC]; fully-connected weights [OC,IC]; biases [OC] or NULL.
 *
 * Fused activations clamp as TFLM's ActivationFunctionWithMinMax: min(max(x, lo), hi) with
 * std::max/std::min's NaN behaviour (a NaN passes through); no activation is [-FLT_MAX, FLT_MAX],
 * so an infinite sum is clamped to the largest float, as TFLM does.
 */
#include <math.h> /* INFINITY and NAN, which generated float constants may hold */
#include <stddef.h> /* NULL */

#include "mcu_nn_fc.h"          /* mcu_batch_matmul_params */
#include "mcu_nn_elementwise.h" /* mcu_broadcast */
#include "mcu_nn_pool.h"        /* mcu_reduce_params */
#include "mcu_nn_recurrent.h"   /* mcu_svdf_shape */
#include "mcu_nn_types.h"

typedef struct {
    float min;
    float max;
} mcu_float_activation;

/* Dynamic-range ("hybrid") layers: int8 weights, float32 activations, as LiteRT's reference kernels
 * compute them (TFLM runs none). Each batch row of the input is quantized to int8 on the fly
 * (mcu_hybrid_quantize_row), the dot products are int32, and each output is bias + float(dot) x scale. */
typedef enum {
    MCU_HYBRID_NONE = 0,
    MCU_HYBRID_RELU = 1,
    MCU_HYBRID_RELU_N1_TO_1 = 2,
    MCU_HYBRID_RELU6 = 3
} mcu_hybrid_activation;

/* ApplyActivationToVector: std::max(lo, std::min(v, hi)), std::max(a, b) being a < b ? b : a. */
static inline float mcu_hybrid_activate(float v, int32_t activation)
{
    const float high = activation == MCU_HYBRID_RELU6 ? 6.0f : 1.0f;
    const float low = activation == MCU_HYBRID_RELU_N1_TO_1 ? -1.0f : 0.0f;
    if (activation == MCU_HYBRID_NONE) {
        return v;
    }
    if (activation != MCU_HYBRID_RELU) {
        v = high < v ? high : v;
    }
    return low < v ? v : low;
}

typedef struct {
    int32_t asymmetric;  /* the op's asymmetric_quantize_inputs: a zero point a row */
    int32_t activation;  /* mcu_hybrid_activation */
    float filter_scale;  /* the weights' scale, where one for the tensor (scales NULL) */
} mcu_hybrid_params;

/* One row of `depth` float32 values to int8 (LiteRT's SymmetricQuantizeFloats / AsymmetricQuantizeFloats):
 * writes the values, returns the row's scaling factor, and its zero point in *offset (0 symmetric). */
float mcu_hybrid_quantize_row(int32_t asymmetric, int32_t depth, const float *input, int8_t *quantized,
                              int32_t *offset);

/* A row of int8 weights dotted with a quantized input row, less the row's weight sum times the input's zero
 * point, wrapping as LiteRT's int32 sums do. */
static inline int32_t mcu_hybrid_dot(const int8_t *w, const int8_t *quantized, int32_t depth, int32_t row_sum,
                                     int32_t offset)
{
    uint32_t dot = 0;
    for (int32_t k = 0; k < depth; ++k) {
        dot += (uint32_t)(w[k] * quantized[k]);
    }
    return (int32_t)(dot - (uint32_t)row_sum * (uint32_t)offset);
}

/* FULLY_CONNECTED with int8 weights [units, depth]: input [batches, depth] float32; scales [units] (per
 * channel) or NULL (params->filter_scale); row_sums [units] (each unit's weight sum, asymmetric inputs)
 * or NULL; bias [units] or NULL; scratch: depth bytes; output [batches, units]. */
void mcu_fully_connected_hybrid_s8(const mcu_hybrid_params *params, int32_t batches, int32_t depth,
                                   int32_t units, const float *input, const int8_t *filter, const float *scales,
                                   const int32_t *row_sums, const float *bias, int8_t *scratch, float *output);

typedef struct {
    mcu_tile stride;
    mcu_tile padding;  /* leading pad (top, left) */
    mcu_float_activation activation;
    int32_t asymmetric; /* per-channel weights: each image quantized with a zero point */
    float filter_scale; /* the weights' scale, where one for the tensor (scales NULL) */
} mcu_hybrid_conv_params;

/* CONV_2D with int8 weights [Cout, KH, KW, Cin] (undilated, ungrouped): input [N, H, W, Cin] float32;
 * scales [Cout] or NULL; bias [Cout] or NULL; scratch: H * W * Cin bytes (one quantized image). */
void mcu_conv2d_hybrid_s8(const mcu_hybrid_conv_params *params, const mcu_dims *input_dims, const float *input,
                          const mcu_dims *filter_dims, const int8_t *filter, const float *scales, const float *bias,
                          const mcu_dims *output_dims, int8_t *scratch, float *output);

/* A float16 model's weights (float16 bits) widened to the float32 values they are, exactly (as
 * LiteRT's DEQUANTIZE widens them), into the layer's scratch before its float32 kernel runs. */
void mcu_unpack_f16(const uint16_t *half, int32_t count, float *output);

typedef struct {
    mcu_tile stride;
    mcu_tile padding;  /* leading pad (top, left) */
    mcu_tile dilation;
    int32_t depth_multiplier; /* DEPTHWISE_CONV_2D only */
    mcu_float_activation activation;
} mcu_float_conv_params;

/* What a hybrid conv's or depthwise's per-position function reads while mcu_window_walk runs it; the
 * batch image in `scratch` is quantized at its first position (mcu_hybrid_image). */
typedef struct {
    const mcu_dims *input_dims, *filter_dims;
    const float *input;
    const int8_t *filter;
    const float *scales, *bias; /* scales NULL: filter_scale is the tensor's */
    mcu_float_activation activation;
    int32_t asymmetric;
    float filter_scale;
    int32_t channels, batch, offset; /* output channels; the image quantized, its zero point */
    float factor;                    /* the image's scaling factor (times filter_scale where one scale) */
    int8_t *scratch;
    float *output;
} mcu_hybrid_walk;

static inline void mcu_hybrid_image(mcu_hybrid_walk *s, int32_t batch)
{
    if (batch != s->batch) {
        const int32_t image = s->input_dims->h * s->input_dims->w * s->input_dims->c;
        const float factor = mcu_hybrid_quantize_row(s->asymmetric, image, s->input + batch * image, s->scratch,
                                                     &s->offset);
        s->factor = s->scales != NULL ? factor : factor * s->filter_scale;
        s->batch = batch;
    }
}

/* DEPTHWISE_CONV_2D with int8 weights [1, KH, KW, Cout] (one scale a channel: scales [Cout]): each image
 * quantized asymmetrically; params as the float kernel's; scratch: H * W * Cin bytes. */
void mcu_depthwise_conv2d_hybrid_s8(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                                    const float *input, const mcu_dims *filter_dims, const int8_t *filter,
                                    const float *scales, const float *bias, const mcu_dims *output_dims,
                                    int8_t *scratch, float *output);

typedef struct {
    mcu_tile stride;
    mcu_tile padding;
    mcu_tile filter;
    mcu_float_activation activation;
} mcu_float_pool_params;

typedef enum {
    MCU_F32_ADD,
    MCU_F32_SUB,
    MCU_F32_MUL,
    MCU_F32_DIV,
    MCU_F32_MAXIMUM,
    MCU_F32_MINIMUM,
    MCU_F32_SQUARED_DIFFERENCE,
    MCU_F32_PRELU
} mcu_binary_f32_op;

typedef struct {
    mcu_binary_f32_op operation;
    mcu_float_activation activation; /* ADD, SUB, MUL, DIV: the fused activation; else unused */
} mcu_binary_f32_params;

typedef enum {
    MCU_F32_RELU,
    MCU_F32_RELU6,
    MCU_F32_ABS,
    MCU_F32_NEG,
    MCU_F32_SQUARE,
    MCU_F32_SQRT,
    MCU_F32_RSQRT,
    MCU_F32_EXP,
    MCU_F32_LOG,
    MCU_F32_LOGISTIC,
    MCU_F32_ELU,
    MCU_F32_TANH,
    MCU_F32_HARD_SWISH,
    MCU_F32_LEAKY_RELU
} mcu_unary_f32_op;

typedef struct {
    mcu_unary_f32_op operation;
    float alpha; /* LEAKY_RELU's slope */
} mcu_unary_f32_params;

/* e^x as Arm's optimized-routines expf computes it (a 32-entry table of 2^(i/32) and a cubic, in
 * double): within 0.502 ULP, the same bits on every core and in mcugen's golden model. */
float mcu_expf(float x);

/* log(x) as Arm's optimized-routines logf computes it (glibc's logf): the same bits. */
float mcu_logf(float x);

/* e^x - 1 and tanh(x) as fdlibm's expm1f and tanhf compute them (glibc's and newlib's): the same bits. */
float mcu_expm1f(float x);
float mcu_tanhf(float x);

/* CONV_2D, float32, grouped when the filter's depth divides the input's. */
void mcu_conv2d_f32(const mcu_float_conv_params *params, const mcu_dims *input_dims, const float *input,
                    const mcu_dims *filter_dims, const float *filter, const float *bias,
                    const mcu_dims *output_dims, float *output);

/* DEPTHWISE_CONV_2D, float32: output channel ic * depth_multiplier + m reads input channel ic. */
void mcu_depthwise_conv2d_f32(const mcu_float_conv_params *params, const mcu_dims *input_dims,
                              const float *input, const mcu_dims *filter_dims, const float *filter,
                              const float *bias, const mcu_dims *output_dims, float *output);

/* TRANSPOSE_CONV, float32: filter [OC,KH,KW,IC]; input pixel (iy, ix) tap (fy, fx) lands on output
 * (iy * stride + fy - padding, ix * stride + fx - padding); the bias is added after every product.
 * `dilation` and `depth_multiplier` are unused. */
void mcu_transpose_conv_f32(const mcu_float_conv_params *params, const mcu_dims *input_dims, const float *input,
                            const mcu_dims *filter_dims, const float *filter, const float *bias,
                            const mcu_dims *output_dims, float *output);

/* RESIZE_BILINEAR, float32 [N,H,W,C]: each output blends its four neighbours with TFLM's float weights
 * (computed at build time, as TFLM computes them at run time). */
typedef struct {
    const int32_t *y0, *y1; /* [output height]: the input rows blended */
    const float *dy;        /* [output height]: the weight of row y1 (TFLM's input_y - y0) */
    const int32_t *x0, *x1; /* [output width] */
    const float *dx;        /* [output width] */
} mcu_resize_bilinear_f32_params;

void mcu_resize_bilinear_f32(const mcu_resize_bilinear_f32_params *resize, const mcu_dims *input_dims,
                             const float *input, const mcu_dims *output_dims, float *output);

/* UNIDIRECTIONAL_SEQUENCE_LSTM, float32 (TFLM's lstm_eval with float weights and states): per step and
 * batch row, gate = activation(FC(x) + FC(h)), c = f * c + i * g (clipped), h = tanh(c) * o, the
 * products and the FCs clamped to +-FLT_MAX as TFLM's float MUL and FULLY_CONNECTED do. Weights are
 * [state_size, input_size] and [state_size, state_size]; input and output [batches, steps, ...], or
 * [steps, batches, ...] when time major; the states [batches, state_size], updated in place. */
typedef struct {
    const float *input_weights;
    const float *recurrent_weights;
    const float *bias; /* [state_size], added to the input FC */
} mcu_lstm_f32_gate;

typedef struct {
    int32_t batches;
    int32_t time_steps;
    int32_t input_size;
    int32_t state_size;
    int32_t time_major;
    mcu_lstm_f32_gate input_gate, forget_gate, cell_gate, output_gate;
    float cell_clip; /* 0: none */
} mcu_lstm_f32_params;

void mcu_lstm_f32(const mcu_lstm_f32_params *lstm, const float *input, float *hidden_state, float *cell_state,
                  float *output);

/* UNIDIRECTIONAL_SEQUENCE_LSTM with int8 weights, float32 activations and states (LiteRT's LstmStepHybrid, a
 * dynamic-range model): per step, unless all of it is zero, the input's and the hidden state's batch rows
 * quantized (mcu_hybrid_quantize_row); each gate its bias + float(dot) x (factor x scale) of the input, then
 * of the hidden state; Eigen's logistic and tanh (mcu_logistic_eigen_f32, mcu_tanh_eigen_f32); c = f * c,
 * c + g * i, clipped as mcu_lstm_f32's; h = o * tanh(c). Layouts as mcu_lstm_f32's; the row sums [state_size]
 * (asymmetric inputs; else NULL); scratch: 16 x batches + batches x (input_size + state_size) bytes, word
 * aligned. */
typedef struct {
    const int8_t *input_weights;
    const int8_t *recurrent_weights;
    const int32_t *input_row_sums, *recurrent_row_sums;
    const float *bias;
    float input_scale, recurrent_scale;
} mcu_lstm_hybrid_gate;

typedef struct {
    int32_t batches;
    int32_t time_steps;
    int32_t input_size;
    int32_t state_size;
    int32_t time_major;
    int32_t asymmetric;
    mcu_lstm_hybrid_gate input_gate, forget_gate, cell_gate, output_gate;
    float cell_clip; /* 0: none */
} mcu_lstm_hybrid_params;

void mcu_lstm_hybrid_s8(const mcu_lstm_hybrid_params *lstm, const float *input, float *hidden_state,
                        float *cell_state, int8_t *scratch, float *output);

/* Eigen's vectorized float logistic and tanh, as LiteRT's hybrid LSTM computes them (mcugen/ops/_eigen.py
 * states the steps): every step one float32 operation, in the order given. */
float mcu_logistic_eigen_f32(float x);
float mcu_tanh_eigen_f32(float x);

/* BATCH_MATMUL, float32: the operands' geometry as mcu_batch_matmul's (mcu_nn_conv.h), no quantization. */
void mcu_batch_matmul_f32(const mcu_batch_matmul_params *p, const float *lhs, const float *rhs, float *output);

/* BATCH_MATMUL with int8 weights R (a dynamic-range model): L float32 and R as mcu_batch_matmul_f32 walks
 * them; scales [cols] (per channel) or NULL (hybrid->filter_scale); column_sums [R's matrices, cols] (asymmetric
 * rows) or NULL; factor_offsets and sum_offsets [batches]: where each batch's row factors (a matrix of L)
 * and column sums are taken; scratch: depth floats then depth bytes; output float32 [..., rows, cols]. */
void mcu_batch_matmul_hybrid_s8(const mcu_batch_matmul_params *p, const mcu_hybrid_params *hybrid, const float *lhs,
                                const int8_t *rhs, const float *scales, const int32_t *column_sums,
                                const int32_t *factor_offsets, const int32_t *sum_offsets, int8_t *scratch,
                                float *output);

/* SVDF, float32 (TFLM's EvalFloatSvdfReference): input [batches, input_size], feature weights [filters,
 * input_size], time weights [filters, memory], bias [filters / rank] (TFLM's kernel needs one), the state [batches, filters *
 * memory] updated in place; the fused activation as TFLM's ActivationValFloat applies it. */
typedef enum {
    MCU_F32_ACT_NONE,
    MCU_F32_ACT_RELU,
    MCU_F32_ACT_RELU_N1_TO_1,
    MCU_F32_ACT_RELU6,
    MCU_F32_ACT_TANH,
    MCU_F32_ACT_SIGN_BIT
} mcu_f32_activation;

typedef struct {
    mcu_svdf_shape shape;
    mcu_f32_activation activation;
} mcu_svdf_f32_params;

void mcu_svdf_f32(const mcu_svdf_f32_params *p, const float *input, const float *weights_feature,
                  const float *weights_time, const float *bias, float *state, float *output);

typedef struct {
    mcu_svdf_shape shape;
    int32_t asymmetric;  /* the op's asymmetric_quantize_inputs */
    int32_t activation;  /* mcu_hybrid_activation */
    float feature_scale; /* the int8 feature weights' scale */
    float time_scale;    /* the int8 time weights' scale */
} mcu_svdf_hybrid_params;

/* SVDF with int8 weights (a dynamic-range model, LiteRT's EvalHybridSVDF): input [batches, input_size]
 * float32, feature weights [filters, input_size], row_sums [filters] (asymmetric inputs) or NULL, time
 * weights [filters, memory], bias [filters / rank], the state [batches, filters * memory] float32 (LiteRT's:
 * each filter's newest slot 0.0f between steps), scratch: input_size bytes. */
void mcu_svdf_hybrid_s8(const mcu_svdf_hybrid_params *p, const float *input, const int8_t *weights_feature,
                        const int32_t *row_sums, const int8_t *weights_time, const float *bias, float *state,
                        int8_t *scratch, float *output);

/* TFLite_Detection_PostProcess (SSD detectors' custom op, as TFLM's kernel): box encodings [1, boxes,
 * encoding_size >= 4] (y, x, h, w), scores [1, boxes, classes_with_background], anchors [boxes, 4]
 * -> boxes [rows, 4] (ymin, xmin, ymax, xmax), classes and scores [rows], the count [1]; rows past the
 * count are zeros. scratch: mcugen/ops/detection_postprocess.py scratch_bytes. */
typedef struct {
    int32_t boxes;
    int32_t encoding_size;
    int32_t classes_with_background;
    int32_t num_classes;
    int32_t max_detections;
    int32_t detections_per_class; /* regular NMS */
    int32_t regular;
    float score_threshold;
    float iou_threshold;
    struct {
        float y, x, h, w;
    } scales;
    int32_t output_sizes[4]; /* each output's values */
} mcu_detection_params;

void mcu_detection_postprocess_f32(const mcu_detection_params *p, const float *encodings, const float *scores,
                                   const float *anchors, float *boxes, float *classes, float *out_scores,
                                   float *count, void *scratch);

/* FULLY_CONNECTED, float32: [batches, depth] x [units, depth]^T + bias -> [batches, units]. */
void mcu_fully_connected_f32(const mcu_float_activation *activation, int32_t batches, int32_t depth,
                             int32_t units, const float *input, const float *filter, const float *bias,
                             float *output);

/* AVERAGE_POOL_2D, float32: the in-image taps summed, divided by their count. */
void mcu_avgpool_f32(const mcu_float_pool_params *params, const mcu_dims *input_dims, const float *input,
                     const mcu_dims *output_dims, float *output);

/* MAX_POOL_2D, float32: the largest in-image tap (from the lowest float up). */
void mcu_maxpool_f32(const mcu_float_pool_params *params, const mcu_dims *input_dims, const float *input,
                     const mcu_dims *output_dims, float *output);

/* Elementwise binary ops with numpy broadcasting (bc's strides count floats; its bits are 32). */
void mcu_binary_f32(const mcu_binary_f32_params *params, const mcu_broadcast *bc, const float *input1,
                    const float *input2, float *output);

/* Elementwise unary ops, as TFLM's float kernels spell them. */
void mcu_unary_f32(const mcu_unary_f32_params *params, int32_t size, const float *input, float *output);

/* SUM and MEAN (mean = 1: divided by the count) in float32 over the reduced axes of `params` (its
 * integer fields unused). */
void mcu_reduce_sum_f32(const mcu_reduce_params *params, int32_t mean, const float *input, float *output);

/* REDUCE_MAX (minimum = 0) and REDUCE_MIN (minimum = 1) in float32: from the lowest (largest) float, each
 * value taken where it is greater (less), in the input's row-major order. */
void mcu_reduce_max_f32(const mcu_reduce_params *params, int32_t minimum, const float *input, float *output);

/* SOFTMAX, float32, over the last axis of [rows, depth]: e^((x - max) * beta) / their sum. */
void mcu_softmax_f32(float beta, int32_t rows, int32_t depth, const float *input, float *output);

#endif /* MCU_NN_FLOAT_H */
