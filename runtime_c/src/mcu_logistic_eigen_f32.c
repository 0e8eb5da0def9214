#include "mcu_nn_fp_exact.h"

#include <string.h>

#include "mcu_nn_float.h"

/* 0 below -104 (Eigen selects it); else e = exp(x / 2)^2 with x = min(v, 16.6355324): x / 2 = m ln2 + r
 * (m = floor(x / 2 * log2(e) + 1/2), r taken off in Cephes' two parts), exp(r) by the degree-5 polynomial
 * (even and odd terms apart), times 2^m (m in [-75, 12] past the clamp: a normal power of two, an exact
 * scaling; a NaN's m is none, and its NaN goes through); e / (1 + e). */
float mcu_logistic_eigen_f32(float v)
{
    if (v < -104.0f) {
        return 0.0f;
    }
    const float x = (v > 16.6355324f ? 16.6355324f : v) * 0.5f; /* a NaN stays NaN, as LiteRT's does */
    const float m = floorf(x * 1.44269504088896341f + 0.5f);
    float r = m * -0.693359375f + x;
    r = m * 2.12194440e-4f + r;
    const float r2 = r * r;
    const float even = r2 * 4.1898667812347412109375e-2f + 0.49999141693115234375f;
    const float odd = r2 * 8.33471305668354034423828125e-3f + 0.16666877269744873046875f;
    float p = r * odd + even;
    p = r2 * p + (r + 1.0f);
    const uint32_t bits = m == m ? (uint32_t)((int32_t)m + 127) << 23 : 0x3F800000u;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    float e = p * scale;
    e = e * e;
    return e / (1.0f + e);
}
