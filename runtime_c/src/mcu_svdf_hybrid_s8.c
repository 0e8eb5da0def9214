#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"

/* A float32 sum of n terms added one at a time as LiteRT's x86 build sums them (its NEON code through
 * NEON_2_SSE): the first n - n % 4 in four lanes from 0.0f, the lanes added in order, then the rest. */
typedef struct {
    float lane[4];
    float total;
    int32_t added, whole;
} lanes;

static lanes lanes_of(int32_t n)
{
    const lanes sum = {{0.0f, 0.0f, 0.0f, 0.0f}, 0.0f, 0, n - n % 4};
    return sum;
}

/* `total` is the sum so far once the lanes are added (0.0f, as four zero lanes add, before any term). */
static void lanes_add(lanes *sum, float v)
{
    if (sum->added < sum->whole) {
        sum->lane[sum->added % 4] += v;
        if (sum->added + 1 == sum->whole) {
            sum->total = ((sum->lane[0] + sum->lane[1]) + sum->lane[2]) + sum->lane[3];
        }
    } else {
        sum->total += v;
    }
    ++sum->added;
}

/*
 * LiteRT's EvalHybridSVDF: each filter's newest slot set to 0.0f; unless the input is all zeros, each
 * batch row quantized (mcu_hybrid_quantize_row), the slot 0.0f + (float)(dot - row sum * zero point) *
 * factor * feature scale; the state dotted with the int8 time weights times their scale (each weight
 * dequantized as LiteRT does, w * scale, before its product); a unit's filters' sums summed, added to its
 * bias, activated; then each filter's memory one place to the left, 0.0f in its newest slot.
 */
void mcu_svdf_hybrid_s8(const mcu_svdf_hybrid_params *p, const float *input, const int8_t *weights_feature,
                        const int32_t *row_sums, const int8_t *weights_time, const float *bias, float *state,
                        int8_t *scratch, float *output)
{
    const int32_t filters = p->shape.filters, memory = p->shape.memory, size = p->shape.input_size;
    const int32_t units = filters / p->shape.rank;
    int32_t zero = 1;
    for (int32_t i = 0; i < p->shape.batches * size; ++i) {
        zero &= input[i] == 0.0f;
    }
    for (int32_t b = 0; b < p->shape.batches; ++b, input += size) {
        float *rows = state + b * filters * memory;
        int32_t offset = 0;
        float factor = 0.0f;
        if (!zero) {
            factor = mcu_hybrid_quantize_row(p->asymmetric, size, input, scratch, &offset) * p->feature_scale;
        }
        for (int32_t f = 0; f < filters; ++f) {
            float slot = 0.0f;
            if (!zero) {
                const int32_t dot = mcu_hybrid_dot(weights_feature + f * size, scratch, size,
                                                   row_sums != NULL ? row_sums[f] : 0, offset);
                slot = slot + (float)dot * factor;
            }
            rows[f * memory + memory - 1] = slot;
        }
        for (int32_t u = 0; u < units; ++u) {
            lanes unit = lanes_of(p->shape.rank);
            for (int32_t r = 0; r < p->shape.rank; ++r) {
                const int32_t f = u * p->shape.rank + r;
                lanes time = lanes_of(memory);
                for (int32_t j = 0; j < memory; ++j) {
                    lanes_add(&time, (float)weights_time[f * memory + j] * p->time_scale * rows[f * memory + j]);
                }
                lanes_add(&unit, time.total);
            }
            *output++ = mcu_hybrid_activate(bias[u] + unit.total, p->activation);
        }
        for (int32_t f = 0; f < filters; ++f) {
            float *row = rows + f * memory;
            for (int32_t j = 0; j + 1 < memory; ++j) {
                row[j] = row[j + 1];
            }
            row[memory - 1] = 0.0f;
        }
    }
}
