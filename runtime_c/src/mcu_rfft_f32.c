#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

/* kissfft's float arithmetic: every operation rounded to float, in its order; no C_FIXDIV */
typedef float scalar;
typedef float acc;
typedef struct {
    scalar r;
    scalar i;
} cpx;

static inline scalar store(acc x)
{
    return x;
}

static inline scalar smul(scalar a, scalar b)
{
    return a * b;
}

static inline cpx cmul(cpx a, cpx b)
{
    const cpx m = {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
    return m;
}

static inline cpx fixdiv(cpx c, int32_t p)
{
    (void)p;
    return c;
}

static inline acc half(acc x)
{
    return x * 0.5f;
}

#include "mcu_nn_kissfft.h"

void mcu_rfft_f32(const mcu_rfft_f32_params *params, const float *input, float *output, float *scratch)
{
    rfft(params->fft_length, params->input_length, params->rows, params->factors, params->twiddles,
         params->super_twiddles, input, output, scratch);
}
