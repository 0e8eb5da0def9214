#include "mcu_nn_fp_exact.h"

#include <stdint.h>
#include <string.h>

#include "mcu_nn_float.h"

/*
 * e^x - 1 as fdlibm's expm1f computes it, the one glibc and newlib ship (TFLM's float ELU calls
 * std::expm1, and its TANH std::tanh, which calls it): same steps, same constants, so the same bits.
 *
 * Method and constants: Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 * Developed at SunPro, a Sun Microsystems, Inc. business. Permission to use, copy, modify, and
 * distribute this software is freely granted, provided that this notice is preserved.
 */

static inline uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float float_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

float mcu_expm1f(float x)
{
    const float ln2_hi = 6.9313812256e-01f, ln2_lo = 9.0580006145e-06f, invln2 = 1.4426950216e+00f;
    const float q1 = -3.3333335072e-02f, q2 = 1.5873016091e-03f, q3 = -7.9365076090e-05f, q4 = 4.0082177293e-06f,
                q5 = -2.0109921195e-07f;
    const uint32_t hx = bits_of(x) & 0x7fffffffu;
    const int negative = (bits_of(x) & 0x80000000u) != 0;
    if (hx >= 0x4195b844u) { /* |x| >= 27 ln2 */
        if (hx >= 0x42b17218u) { /* |x| >= 88.7228 */
            if (hx > 0x7f800000u) {
                return x + x; /* NaN */
            }
            if (hx == 0x7f800000u) {
                return negative ? -1.0f : x;
            }
            if (!negative) {
                return float_of(0x7f800000u); /* overflows */
            }
        }
        if (negative) {
            return -1.0f;
        }
    }
    int32_t k = 0;
    float c = 0.0f;
    if (hx > 0x3eb17218u) { /* |x| > ln2 / 2: x = k ln2 + (hi - lo) */
        float hi, lo;
        if (hx < 0x3f851592u) { /* and |x| < 1.5 ln2 */
            k = negative ? -1 : 1;
            hi = negative ? x + ln2_hi : x - ln2_hi;
            lo = negative ? -ln2_lo : ln2_lo;
        } else {
            k = (int32_t)(invln2 * x + (negative ? -0.5f : 0.5f));
            const float t = (float)k;
            hi = x - t * ln2_hi;
            lo = t * ln2_lo;
        }
        x = hi - lo;
        c = (hi - x) - lo;
    } else if (hx < 0x33000000u) { /* |x| < 2^-25 */
        return x;
    }
    const float hfx = 0.5f * x, hxs = x * hfx;
    const float r1 = 1.0f + hxs * (q1 + hxs * (q2 + hxs * (q3 + hxs * (q4 + hxs * q5))));
    float t = 3.0f - r1 * hfx;
    float e = hxs * ((r1 - t) / (6.0f - x * t));
    if (k == 0) {
        return x - (x * e - hxs);
    }
    e = x * (e - c) - c;
    e -= hxs;
    if (k == -1) {
        return 0.5f * (x - e) - 0.5f;
    }
    if (k == 1) {
        return x < -0.25f ? -2.0f * (e - (x + 0.5f)) : 1.0f + 2.0f * (x - e);
    }
    const uint32_t exponent = (uint32_t)k << 23; /* added to y's exponent: y * 2^k */
    if (k <= -2 || k > 56) {
        return float_of(bits_of(1.0f - (e - x)) + exponent) - 1.0f;
    }
    if (k < 23) {
        t = float_of(0x3f800000u - (0x1000000u >> k)); /* 1 - 2^-k */
        return float_of(bits_of(t - (e - x)) + exponent);
    }
    t = float_of((uint32_t)(0x7f - k) << 23); /* 2^-k */
    return float_of(bits_of(x - (e + t) + 1.0f) + exponent);
}
