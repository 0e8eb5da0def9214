#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"
#include "mcu_nn_support.h"

/*
 * Symmetric: range = max(|min|, |max|); factor range / 127, each value round(x * (127 / range)) in
 * [-127, 127]; a zero row gives zeros and factor 1. Asymmetric: min and max widened to include 0, the
 * scale their float32 difference / 255 in double, the zero point nudged from the nearer end and rounded
 * half away from zero (in double), each value round(x * (1 / factor)) + zp in [-128, 127] (rounded before
 * the zero point is added, as LiteRT does: they differ at halves either side of zero). Comparisons in
 * std::min/std::max's argument order.
 *
 * round() is the oracle's x86 build's, measured: the first depth - depth % 8 values go through AVX2 in
 * blocks of 8, |p| + 0.5 in float32 then truncated (0.49999997 rounds to 1), the rest through std::round
 * (0); NaN and values outside int32 give INT32_MIN as x86 converts them.
 */
static int32_t round_blocked(float p)
{
    const float a = (p < 0.0f ? -p : p) + 0.5f;
    if (!(a < 2147483648.0f)) {
        return INT32_MIN;
    }
    const int32_t t = (int32_t)a;
    return p < 0.0f ? -t : t;
}

static int32_t round_as_litert(float p, int32_t i, int32_t blocked)
{
    return i < blocked ? round_blocked(p) : mcu_round_f32_x86(p);
}

float mcu_hybrid_quantize_row(int32_t asymmetric, int32_t depth, const float *input, int8_t *quantized,
                              int32_t *offset)
{
    const int32_t blocked = depth - depth % 8;
    float low = input[0], high = input[0];
    for (int32_t i = 1; i < depth; ++i) {
        low = input[i] < low ? input[i] : low;
        high = high <= input[i] ? input[i] : high;
    }
    *offset = 0;
    if (!asymmetric) {
        const float a = low < 0.0f ? -low : low, b = high < 0.0f ? -high : high;
        const float range = a < b ? b : a;
        if (range == 0.0f) {
            for (int32_t i = 0; i < depth; ++i) {
                quantized[i] = 0;
            }
            return 1.0f;
        }
        const float inverse = 127.0f / range;
        for (int32_t i = 0; i < depth; ++i) {
            const int32_t q = round_as_litert(input[i] * inverse, i, blocked);
            quantized[i] = (int8_t)(q < -127 ? -127 : (q > 127 ? 127 : q));
        }
        return range / 127.0f;
    }
    const float rmin = 0.0f < low ? 0.0f : low, rmax = 0.0f > high ? 0.0f : high;
    if (rmin == rmax) {
        for (int32_t i = 0; i < depth; ++i) {
            quantized[i] = 0;
        }
        return 1.0f;
    }
    const double scale = (double)(rmax - rmin) / 255.0;
    const double low_steps = (double)rmin / scale, high_steps = (double)rmax / scale; /* <= 0 and >= 0 */
    const double zero_point = 128.0 - low_steps < 127.0 + high_steps ? -128.0 - low_steps : 127.0 - high_steps;
    int32_t zp = zero_point <= -128.0 ? -128 : 127;
    if (zero_point > -128.0 && zero_point < 127.0) {
        zp = (int32_t)zero_point;
        const double fraction = zero_point - (double)zp;
        zp += (fraction >= 0.5) - (fraction <= -0.5);
    }
    const float factor = (float)scale, inverse = 1.0f / factor;
    for (int32_t i = 0; i < depth; ++i) {
        const int64_t q = (int64_t)round_as_litert(input[i] * inverse, i, blocked) + zp;
        quantized[i] = (int8_t)(q < -128 ? -128 : (q > 127 ? 127 : q));
    }
    *offset = zp;
    return factor;
}
