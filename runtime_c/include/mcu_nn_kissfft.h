/* kissfft v130's mixed-radix FFT and real split, as TFLM's RFFT runs them, written once over a scalar
 * type: included (only) by mcu_rfft_s16.c, mcu_rfft_s32.c and mcu_rfft_f32.c, which first define
 *   scalar            the element type; acc the type a sum is formed in before it is stored
 *   store(acc)        a sum stored into a scalar (fixed point: its low bits, as C's store wraps)
 *   smul(a, b)        a product rounded back to scalar (fixed point: sround, to Q15 or Q31)
 *   cmul(a, b)        a complex product (C_MUL); fixdiv(c, p) C_FIXDIV (a no-op in float)
 *   half(acc)         HALF_OF of a sum
 * then define their kernel as a call of rfft(). The arithmetic and its order are kissfft's, step for
 * step; the C here is mcugen's. */
#ifndef MCU_NN_KISSFFT_H
#define MCU_NN_KISSFFT_H

#include <string.h>

#include "mcu_nn_support.h"

static inline cpx cadd(cpx a, cpx b)
{
    const cpx s = {store((acc)a.r + b.r), store((acc)a.i + b.i)};
    return s;
}

static inline cpx csub(cpx a, cpx b)
{
    const cpx s = {store((acc)a.r - b.r), store((acc)a.i - b.i)};
    return s;
}

static void bfly2(cpx *out, int32_t fstride, const cpx *tw, int32_t m)
{
    for (int32_t k = 0; k < m; ++k) {
        const cpx a = fixdiv(out[k], 2), t = cmul(fixdiv(out[k + m], 2), tw[k * fstride]);
        out[k + m] = csub(a, t);
        out[k] = cadd(a, t);
    }
}

static void bfly3(cpx *out, int32_t fstride, const cpx *tw, int32_t m)
{
    const scalar epi3 = tw[fstride * m].i;
    for (int32_t k = 0; k < m; ++k) {
        const cpx f0 = fixdiv(out[k], 3);
        const cpx s1 = cmul(fixdiv(out[k + m], 3), tw[k * fstride]);
        const cpx s2 = cmul(fixdiv(out[k + 2 * m], 3), tw[2 * k * fstride]);
        const cpx s3 = cadd(s1, s2), d = csub(s1, s2);
        const cpx s0 = {smul(d.r, epi3), smul(d.i, epi3)};
        const cpx h = {store((acc)f0.r - half(s3.r)), store((acc)f0.i - half(s3.i))};
        out[k] = cadd(f0, s3);
        out[k + 2 * m] = (cpx){store((acc)h.r + s0.i), store((acc)h.i - s0.r)};
        out[k + m] = (cpx){store((acc)h.r - s0.i), store((acc)h.i + s0.r)};
    }
}

static void bfly4(cpx *out, int32_t fstride, const cpx *tw, int32_t m)
{
    for (int32_t k = 0; k < m; ++k) {
        cpx f0 = fixdiv(out[k], 4);
        const cpx s0 = cmul(fixdiv(out[k + m], 4), tw[k * fstride]);
        const cpx s1 = cmul(fixdiv(out[k + 2 * m], 4), tw[2 * k * fstride]);
        const cpx s2 = cmul(fixdiv(out[k + 3 * m], 4), tw[3 * k * fstride]);
        const cpx s5 = csub(f0, s1);
        f0 = cadd(f0, s1);
        const cpx s3 = cadd(s0, s2), s4 = csub(s0, s2);
        out[k + 2 * m] = csub(f0, s3);
        out[k] = cadd(f0, s3);
        out[k + m] = (cpx){store((acc)s5.r + s4.i), store((acc)s5.i - s4.r)};
        out[k + 3 * m] = (cpx){store((acc)s5.r - s4.i), store((acc)s5.i + s4.r)};
    }
}

static void bfly5(cpx *out, int32_t fstride, const cpx *tw, int32_t m)
{
    const cpx ya = tw[fstride * m], yb = tw[fstride * 2 * m];
    for (int32_t u = 0; u < m; ++u) {
        cpx f[5];
        for (int32_t q = 0; q < 5; ++q) {
            f[q] = fixdiv(out[u + q * m], 5);
        }
        const cpx s0 = f[0];
        const cpx s1 = cmul(f[1], tw[u * fstride]), s2 = cmul(f[2], tw[2 * u * fstride]);
        const cpx s3 = cmul(f[3], tw[3 * u * fstride]), s4 = cmul(f[4], tw[4 * u * fstride]);
        const cpx s7 = cadd(s1, s4), s10 = csub(s1, s4), s8 = cadd(s2, s3), s9 = csub(s2, s3);
        const cpx s5 = {store((acc)s0.r + smul(s7.r, ya.r) + smul(s8.r, yb.r)),
                        store((acc)s0.i + smul(s7.i, ya.r) + smul(s8.i, yb.r))};
        const cpx s6 = {store((acc)smul(s10.i, ya.i) + smul(s9.i, yb.i)),
                        store((acc)0 - smul(s10.r, ya.i) - smul(s9.r, yb.i))};
        const cpx s11 = {store((acc)s0.r + smul(s7.r, yb.r) + smul(s8.r, ya.r)),
                         store((acc)s0.i + smul(s7.i, yb.r) + smul(s8.i, ya.r))};
        const cpx s12 = {store((acc)0 - smul(s10.i, yb.i) + smul(s9.i, ya.i)),
                         store((acc)smul(s10.r, yb.i) - smul(s9.r, ya.i))};
        out[u] = (cpx){store(f[0].r + ((acc)s7.r + s8.r)), store(f[0].i + ((acc)s7.i + s8.i))};
        out[u + m] = csub(s5, s6);
        out[u + 4 * m] = cadd(s5, s6);
        out[u + 2 * m] = cadd(s11, s12);
        out[u + 3 * m] = csub(s11, s12);
    }
}

/* kf_work: p sub-transforms of the decimated input, then this stage's radix-p butterflies */
static void work(cpx *out, const cpx *in, int32_t fstride, const int32_t *factors, const cpx *tw)
{
    const int32_t p = factors[0], m = factors[1];
    for (int32_t q = 0; q < p; ++q) {
        if (m == 1) {
            out[q] = in[q * fstride];
        } else {
            work(out + q * m, in + q * fstride, fstride * p, factors + 2, tw);
        }
    }
    switch (p) {
    case 2: bfly2(out, fstride, tw, m); break;
    case 3: bfly3(out, fstride, tw, m); break;
    case 4: bfly4(out, fstride, tw, m); break;
    default: bfly5(out, fstride, tw, m); break;
    }
}

/* kiss_fftr on each row, zero-padded to n (tw, super: the complex and split twiddles) */
static void rfft(int32_t n, int32_t input_length, int32_t rows, const int32_t *factors, const scalar *twiddles,
                 const scalar *super_twiddles, const scalar *input, scalar *output, scalar *scratch)
{
    const int32_t halfn = n / 2;
    const cpx *tw = (const cpx *)(const void *)twiddles, *super = (const cpx *)(const void *)super_twiddles;
    cpx *row = (cpx *)(void *)scratch, *tmp = row + halfn;
    for (int32_t r = 0; r < rows; ++r) {
        memcpy(row, input + r * input_length, sizeof(scalar) * (size_t)input_length);
        memset((scalar *)(void *)row + input_length, 0, sizeof(scalar) * (size_t)(n - input_length));
        work(tmp, row, 1, factors, tw);
        cpx *freq = (cpx *)(void *)(output + r * (n + 2));
        const cpx dc = fixdiv(tmp[0], 2);
        freq[0] = (cpx){store((acc)dc.r + dc.i), 0};
        freq[halfn] = (cpx){store((acc)dc.r - dc.i), 0};
        for (int32_t k = 1; k <= halfn / 2; ++k) {
            const cpx fpk = fixdiv(tmp[k], 2);
            const cpx fpnk = fixdiv((cpx){tmp[halfn - k].r, store((acc)0 - tmp[halfn - k].i)}, 2);
            const cpx f1k = cadd(fpk, fpnk), f2k = csub(fpk, fpnk);
            const cpx t = cmul(f2k, super[k - 1]);
            freq[k] = (cpx){(scalar)half((acc)f1k.r + t.r), (scalar)half((acc)f1k.i + t.i)};
            freq[halfn - k] = (cpx){(scalar)half((acc)f1k.r - t.r), (scalar)half((acc)t.i - f1k.i)};
        }
    }
}

#endif /* MCU_NN_KISSFFT_H */
