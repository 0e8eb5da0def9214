#include "mcu_nn_support.h"

/* kissfft's FIXED_POINT=16 arithmetic: sums in int, products rounded to Q15 */
typedef int16_t scalar;
typedef int32_t acc;
typedef struct {
    scalar r;
    scalar i;
} cpx;

static inline scalar store(acc x)
{
    return (scalar)(uint16_t)(uint32_t)x;
}

static inline scalar sround(int32_t x)
{
    return store((x + (1 << 14)) >> 15);
}

static inline scalar smul(scalar a, scalar b)
{
    return sround((int32_t)a * b);
}

static inline cpx cmul(cpx a, cpx b)
{
    const cpx m = {sround((int32_t)a.r * b.r - (int32_t)a.i * b.i), sround((int32_t)a.r * b.i + (int32_t)a.i * b.r)};
    return m;
}

static inline cpx fixdiv(cpx c, int32_t p)
{
    const cpx d = {smul(c.r, (scalar)(32767 / p)), smul(c.i, (scalar)(32767 / p))};
    return d;
}

static inline acc half(acc x)
{
    return x >> 1;
}

#include "mcu_nn_kissfft.h"

void mcu_rfft_s16(const mcu_rfft_s16_params *params, const int16_t *input, int16_t *output, int16_t *scratch)
{
    rfft(params->fft_length, params->input_length, params->rows, params->factors, params->twiddles,
         params->super_twiddles, input, output, scratch);
}
