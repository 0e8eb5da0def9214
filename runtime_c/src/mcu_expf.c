#include "mcu_nn_fp_exact.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mcu_nn_float.h"

/* 2^(i/32) as doubles' bits, less i << 47 (added back with k's integer part), and the cubic's
 * coefficients already divided by powers of 32: the method and constants of Arm's optimized-routines
 * expf (MIT/Apache-2.0), which glibc's expf also uses. */
static const uint64_t two_to_i_32nds[32] = {
    0x3ff0000000000000u, 0x3fefd9b0d3158574u, 0x3fefb5586cf9890fu, 0x3fef9301d0125b51u,
    0x3fef72b83c7d517bu, 0x3fef54873168b9aau, 0x3fef387a6e756238u, 0x3fef1e9df51fdee1u,
    0x3fef06fe0a31b715u, 0x3feef1a7373aa9cbu, 0x3feedea64c123422u, 0x3feece086061892du,
    0x3feebfdad5362a27u, 0x3feeb42b569d4f82u, 0x3feeab07dd485429u, 0x3feea47eb03a5585u,
    0x3feea09e667f3bcdu, 0x3fee9f75e8ec5f74u, 0x3feea11473eb0187u, 0x3feea589994cce13u,
    0x3feeace5422aa0dbu, 0x3feeb737b0cdc5e5u, 0x3feec49182a3f090u, 0x3feed503b23e255du,
    0x3feee89f995ad3adu, 0x3feeff76f2fb5e47u, 0x3fef199bdd85529cu, 0x3fef3720dcef9069u,
    0x3fef5818dcfba487u, 0x3fef7c97337b9b5fu, 0x3fefa4afa2a490dau, 0x3fefd0765b6e4540u,
};

/*
 * e^x = 2^(k/32) * 2^(r/32) with x * 32/ln2 = k + r, |r| <= 1/2: k rounded to nearest by adding
 * 1.5 * 2^52 (its low bits are then k), 2^(r/32) by a cubic. Every step is one IEEE double operation,
 * so the result is the same on every target (soft double where the FPU is single precision).
 */
float mcu_expf(float x)
{
    const double shift = 0x1.8p52, inv_ln2_32 = 0x1.71547652b82fep+0 * 32;
    const double c0 = 0x1.c6af84b912394p-5 / 32 / 32 / 32, c1 = 0x1.ebfce50fac4f3p-3 / 32 / 32,
                 c2 = 0x1.62e42ff0c52d6p-1 / 32;
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    if ((bits >> 20 & 0x7ffu) >= 0x42bu) { /* |x| >= 88, or not finite */
        if (bits == 0xff800000u) {
            return 0.0f;
        }
        if ((bits >> 20 & 0x7ffu) >= 0x7f8u) {
            return x + x; /* +inf, NaN */
        }
        if (x > 0x1.62e42ep6f) {
            return HUGE_VALF; /* overflows */
        }
        if (x < -0x1.9fe368p6f) {
            return 0.0f;
        }
    }
    const double z = inv_ln2_32 * (double)x;
    double kd = z + shift;
    uint64_t k;
    memcpy(&k, &kd, sizeof k);
    kd -= shift;
    const double r = z - kd;
    uint64_t t = two_to_i_32nds[k % 32] + (k << 47);
    double s;
    memcpy(&s, &t, sizeof s);
    const double r2 = r * r;
    double y = c2 * r + 1;
    y = (c0 * r + c1) * r2 + y;
    return (float)(y * s);
}
