#include <string.h>

#include "mcu_nn_support.h"

/* kissfft v130's FIXED_POINT=16 arithmetic (TFLM's RFFT): products rounded to Q15, every store into
 * an int16 keeping the low 16 bits (stores go through uint16_t so that C defines the wrap). */
typedef struct {
    int16_t r;
    int16_t i;
} cpx;

static inline int16_t s16(int32_t x)
{
    return (int16_t)(uint16_t)(uint32_t)x;
}

static inline int16_t sround(int32_t x)
{
    return s16((x + (1 << 14)) >> 15);
}

static inline cpx cmul(cpx a, cpx b)
{
    const cpx m = {sround((int32_t)a.r * b.r - (int32_t)a.i * b.i), sround((int32_t)a.r * b.i + (int32_t)a.i * b.r)};
    return m;
}

static inline cpx fixdiv(cpx c, int32_t p)
{
    const int32_t k = 32767 / p;
    const cpx d = {sround(c.r * k), sround(c.i * k)};
    return d;
}

static inline cpx add(cpx a, cpx b)
{
    const cpx s = {s16(a.r + b.r), s16(a.i + b.i)};
    return s;
}

static inline cpx sub(cpx a, cpx b)
{
    const cpx s = {s16(a.r - b.r), s16(a.i - b.i)};
    return s;
}

static void bfly2(cpx *out, int32_t fstride, const cpx *tw, int32_t m)
{
    for (int32_t k = 0; k < m; ++k) {
        const cpx a = fixdiv(out[k], 2), t = cmul(fixdiv(out[k + m], 2), tw[k * fstride]);
        out[k + m] = sub(a, t);
        out[k] = add(a, t);
    }
}

static void bfly3(cpx *out, int32_t fstride, const cpx *tw, int32_t m)
{
    const int16_t epi3 = tw[fstride * m].i;
    for (int32_t k = 0; k < m; ++k) {
        const cpx f0 = fixdiv(out[k], 3);
        const cpx s1 = cmul(fixdiv(out[k + m], 3), tw[k * fstride]);
        const cpx s2 = cmul(fixdiv(out[k + 2 * m], 3), tw[2 * k * fstride]);
        const cpx s3 = add(s1, s2), d = sub(s1, s2);
        const cpx s0 = {sround(d.r * epi3), sround(d.i * epi3)};
        const cpx half = {s16(f0.r - (s3.r >> 1)), s16(f0.i - (s3.i >> 1))};
        out[k] = add(f0, s3);
        out[k + 2 * m] = (cpx){s16(half.r + s0.i), s16(half.i - s0.r)};
        out[k + m] = (cpx){s16(half.r - s0.i), s16(half.i + s0.r)};
    }
}

static void bfly4(cpx *out, int32_t fstride, const cpx *tw, int32_t m)
{
    for (int32_t k = 0; k < m; ++k) {
        cpx f0 = fixdiv(out[k], 4);
        const cpx s0 = cmul(fixdiv(out[k + m], 4), tw[k * fstride]);
        const cpx s1 = cmul(fixdiv(out[k + 2 * m], 4), tw[2 * k * fstride]);
        const cpx s2 = cmul(fixdiv(out[k + 3 * m], 4), tw[3 * k * fstride]);
        const cpx s5 = sub(f0, s1);
        f0 = add(f0, s1);
        const cpx s3 = add(s0, s2), s4 = sub(s0, s2);
        out[k + 2 * m] = sub(f0, s3);
        out[k] = add(f0, s3);
        out[k + m] = (cpx){s16(s5.r + s4.i), s16(s5.i - s4.r)};
        out[k + 3 * m] = (cpx){s16(s5.r - s4.i), s16(s5.i + s4.r)};
    }
}

static inline int16_t smul(int16_t a, int16_t b)
{
    return sround((int32_t)a * b);
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
        const cpx s7 = add(s1, s4), s10 = sub(s1, s4), s8 = add(s2, s3), s9 = sub(s2, s3);
        const cpx s5 = {s16(s0.r + smul(s7.r, ya.r) + smul(s8.r, yb.r)), s16(s0.i + smul(s7.i, ya.r) + smul(s8.i, yb.r))};
        const cpx s6 = {s16(smul(s10.i, ya.i) + smul(s9.i, yb.i)), s16(-smul(s10.r, ya.i) - smul(s9.r, yb.i))};
        const cpx s11 = {s16(s0.r + smul(s7.r, yb.r) + smul(s8.r, ya.r)), s16(s0.i + smul(s7.i, yb.r) + smul(s8.i, ya.r))};
        const cpx s12 = {s16(-smul(s10.i, yb.i) + smul(s9.i, ya.i)), s16(smul(s10.r, yb.i) - smul(s9.r, ya.i))};
        out[u] = (cpx){s16(f[0].r + s7.r + s8.r), s16(f[0].i + s7.i + s8.i)};
        out[u + m] = sub(s5, s6);
        out[u + 4 * m] = add(s5, s6);
        out[u + 2 * m] = add(s11, s12);
        out[u + 3 * m] = sub(s11, s12);
    }
}

/* kissfft's kf_work: p sub-transforms of the decimated input, then this stage's radix-p butterflies */
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

void mcu_rfft_s16(const mcu_rfft_params *params, const int16_t *input, int16_t *output, int16_t *scratch)
{
    const int32_t n = params->fft_length, half = n / 2;
    const cpx *tw = (const cpx *)(const void *)params->twiddles;
    const cpx *super = (const cpx *)(const void *)params->super_twiddles;
    cpx *row = (cpx *)(void *)scratch, *tmp = row + half;
    for (int32_t r = 0; r < params->rows; ++r) {
        memcpy(row, input + r * params->input_length, sizeof(int16_t) * (size_t)params->input_length);
        memset((int16_t *)(void *)row + params->input_length, 0, sizeof(int16_t) * (size_t)(n - params->input_length));
        work(tmp, row, 1, params->factors, tw);
        cpx *freq = (cpx *)(void *)(output + r * (n + 2));
        const cpx dc = fixdiv(tmp[0], 2);
        freq[0] = (cpx){s16(dc.r + dc.i), 0};
        freq[half] = (cpx){s16(dc.r - dc.i), 0};
        for (int32_t k = 1; k <= half / 2; ++k) {
            const cpx fpk = fixdiv(tmp[k], 2);
            const cpx fpnk = fixdiv((cpx){tmp[half - k].r, s16(-tmp[half - k].i)}, 2);
            const cpx f1k = add(fpk, fpnk), f2k = sub(fpk, fpnk);
            const cpx t = cmul(f2k, super[k - 1]);
            freq[k] = (cpx){(int16_t)((f1k.r + t.r) >> 1), (int16_t)((f1k.i + t.i) >> 1)};
            freq[half - k] = (cpx){(int16_t)((f1k.r - t.r) >> 1), (int16_t)((t.i - f1k.i) >> 1)};
        }
    }
}
