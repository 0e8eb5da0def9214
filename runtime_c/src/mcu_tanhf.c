#include "mcu_nn_fp_exact.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mcu_nn_float.h"

/*
 * tanh(x) as fdlibm's tanhf computes it, the one glibc and newlib ship (TFLM's float TANH calls
 * std::tanh): from e^(2|x|) - 1 (mcu_expm1f), the same steps, so the same bits.
 *
 * Method: Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved. Developed at SunPro, a
 * Sun Microsystems, Inc. business. Permission to use, copy, modify, and distribute this software is
 * freely granted, provided that this notice is preserved.
 */
float mcu_tanhf(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    const uint32_t ix = bits & 0x7fffffffu;
    const int negative = (bits & 0x80000000u) != 0;
    if (ix >= 0x7f800000u) {
        return negative ? 1.0f / x - 1.0f : 1.0f / x + 1.0f; /* +-1, or NaN */
    }
    float z;
    if (ix < 0x41b00000u) { /* |x| < 22 */
        if (ix == 0) {
            return x;
        }
        if (ix < 0x24000000u) { /* |x| < 2^-55 */
            return x * (1.0f + x);
        }
        if (ix >= 0x3f800000u) { /* |x| >= 1 */
            const float t = mcu_expm1f(2.0f * fabsf(x));
            z = 1.0f - 2.0f / (t + 2.0f);
        } else {
            const float t = mcu_expm1f(-2.0f * fabsf(x));
            z = -t / (t + 2.0f);
        }
    } else {
        z = 1.0f; /* 1 - 1e-30 */
    }
    return negative ? -z : z;
}
