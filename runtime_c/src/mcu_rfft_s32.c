#include "mcu_nn_support.h"

/* kissfft's FIXED_POINT=32 arithmetic: int32 sums wrap (formed in int64 here, stored to their low 32
 * bits), products rounded to Q31 in int64 */
typedef int32_t scalar;
typedef int64_t acc;
typedef struct {
    scalar r;
    scalar i;
} cpx;

static inline scalar store(acc x)
{
    return (scalar)(uint32_t)(uint64_t)x;
}

static inline scalar sround(int64_t x)
{
    return store((x + ((int64_t)1 << 30)) >> 31);
}

static inline scalar smul(scalar a, scalar b)
{
    return sround((int64_t)a * b);
}

static inline cpx cmul(cpx a, cpx b)
{
    const cpx m = {sround((int64_t)a.r * b.r - (int64_t)a.i * b.i), sround((int64_t)a.r * b.i + (int64_t)a.i * b.r)};
    return m;
}

static inline cpx fixdiv(cpx c, int32_t p)
{
    const cpx d = {smul(c.r, 2147483647 / p), smul(c.i, 2147483647 / p)};
    return d;
}

/* HALF_OF of an int32 sum: the sum wraps first */
static inline acc half(acc x)
{
    return store(x) >> 1;
}

#include "mcu_nn_kissfft.h"

void mcu_rfft_s32(const mcu_rfft_s32_params *params, const int32_t *input, int32_t *output, int32_t *scratch)
{
    rfft(params->fft_length, params->input_length, params->rows, params->factors, params->twiddles,
         params->super_twiddles, input, output, scratch);
}
