#include "mcu_nn_support.h"

enum { SNR_BITS = 12, OUTPUT_BITS = 6 }; /* TFLM's kPcanSnrBits, kPcanOutputBits */

static int32_t msb32(uint32_t x)
{
    return x ? 32 - __builtin_clz(x) : 32;
}

/* TFLM's WideDynamicFunction: a quadratic per bit length of x, interpolated on its next 10 bits */
static int16_t gain(uint32_t x, const int16_t *lut)
{
    if (x <= 2) {
        return lut[x];
    }
    const int32_t interval = msb32(x);
    lut += 4 * interval - 6;
    const int32_t frac = (int32_t)((interval < 11 ? x << (11 - interval) : x >> (interval - 11)) & 0x3FF);
    uint32_t result = (uint32_t)(((int32_t)lut[2] * frac) >> 5); /* int32 steps wrap: unsigned here */
    result += (uint32_t)lut[1] << 5;
    result *= (uint32_t)frac;
    result = (uint32_t)((int32_t)(result + (1u << 14)) >> 15);
    result += (uint32_t)(int32_t)lut[0];
    return (int16_t)(uint16_t)result;
}

void mcu_pcan_u32(const mcu_pcan_params *params, const uint32_t *input, const uint32_t *noise_estimate,
                  const int16_t *gain_lut, uint32_t *output)
{
    for (int32_t i = 0; i < params->channels; ++i) {
        const uint32_t g = (uint32_t)(int32_t)gain(noise_estimate[i], gain_lut);
        const uint32_t snr = (uint32_t)(((uint64_t)input[i] * g) >> params->snr_shift);
        output[i] = snr < (2u << SNR_BITS) ? (snr * snr) >> (2 + 2 * SNR_BITS - OUTPUT_BITS)
                                          : (snr >> (SNR_BITS - OUTPUT_BITS)) - (1u << OUTPUT_BITS);
    }
}
