#include "mcu_nn_fp_exact.h"

#include "mcu_nn_float.h"

/* x clamped to +-7.90738964 (past it the rational is exactly +-1), then (x^3 p(x^2) + x) / q(x^2): Eigen's
 * [9,8] rational, each polynomial by Horner's steps. */
float mcu_tanh_eigen_f32(float v)
{
    const float clamp = 7.90738964080810547f;
    const float low = v > clamp ? clamp : v; /* a NaN stays NaN, as LiteRT's does */
    const float x = low < -clamp ? -clamp : low;
    const float x2 = x * x, x3 = x2 * x;
    float p = 1.394553628e-8f;
    p = p * x2 + 2.102733560e-5f;
    p = p * x2 + 3.520756727e-3f;
    p = p * x2 + 1.340216100e-1f;
    float q = 8.015776984e-7f;
    q = q * x2 + 3.326951409e-4f;
    q = q * x2 + 2.597254514e-2f;
    q = q * x2 + 4.673548340e-1f;
    q = q * x2 + 1.0f;
    return (x3 * p + x) / q;
}
