#include "mcu_nn_fp_exact.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mcu_nn_float.h"

/* 1/c and log(c) for the 16 subintervals of [0x3f330000, 2 * 0x3f330000) that z falls in, ln 2 and
 * log1p's cubic: the method and constants of Arm's optimized-routines logf (MIT/Apache-2.0), which
 * glibc's logf also uses. */
static const double inv_c[16] = {
    0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010bp+0, 0x1.3c995b0b80385p+0,
    0x1.30d190c8864a5p+0, 0x1.25e227b0b8eap+0, 0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0,
    0x1.0953f419900a7p+0, 0x1p+0, 0x1.e608cfd9a47acp-1, 0x1.ca4b31f026aap-1,
    0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1, 0x1.767dcf5534862p-1,
};
static const double log_c[16] = {
    -0x1.57bf7808caadep-2, -0x1.2bef0a7c06ddbp-2, -0x1.01eae7f513a67p-2, -0x1.b31d8a68224e9p-3,
    -0x1.6574f0ac07758p-3, -0x1.1aa2bc79c81p-3, -0x1.a4e76ce8c0e5ep-4, -0x1.1973c5a611cccp-4,
    -0x1.252f438e10c1ep-5, 0x0p+0, 0x1.aa5aa5df25984p-5, 0x1.c5e53aa362eb4p-4,
    0x1.526e57720db08p-3, 0x1.bc2860d22477p-3, 0x1.1058bc8a07ee1p-2, 0x1.4043057b6ee09p-2,
};

/*
 * log(x) = log1p(z / c - 1) + log(c) + k ln 2 with x = 2^k z, z in [0x3f330000, 2 * 0x3f330000) and c
 * near z: every step one IEEE double operation, so the result is the same on every target.
 */
float mcu_logf(float x)
{
    const double ln2 = 0x1.62e42fefa39efp-1, a0 = -0x1.00ea348b88334p-2, a1 = 0x1.5575b0be00b6ap-2,
                 a2 = -0x1.ffffef20a4123p-2;
    uint32_t ix;
    memcpy(&ix, &x, sizeof ix);
    if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u) { /* subnormal, zero, negative, inf or NaN */
        if (ix * 2 == 0) {
            return -HUGE_VALF;
        }
        if (ix == 0x7f800000u) {
            return x;
        }
        if ((ix & 0x80000000u) || ix * 2 >= 0xff000000u) {
            return (x - x) / (x - x); /* NaN */
        }
        const float normal = x * 0x1p23f;
        memcpy(&ix, &normal, sizeof ix);
        ix -= 23u << 23;
    }
    const uint32_t tmp = ix - 0x3f330000u;
    const int32_t i = (int32_t)((tmp >> 19) % 16), k = (int32_t)tmp >> 23;
    const uint32_t iz = ix - (tmp & 0xff800000u);
    float zf;
    memcpy(&zf, &iz, sizeof zf);
    const double r = (double)zf * inv_c[i] - 1, y0 = log_c[i] + (double)k * ln2;
    const double r2 = r * r;
    double y = a1 * r + a2;
    y = a0 * r2 + y;
    y = y * r2 + (y0 + r);
    return (float)y;
}
