#include "mcu_nn_support.h"

/* TFLM's kLogLut (signal/src/log.cc): log2(1 + f) - f in Q16 at f = k / 128 */
static const uint16_t LOG_LUT[] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944, 3087,
    3224, 3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934,
    5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622,
    5631, 5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370,
    5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341,
    4264, 4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659,
    2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224, 1094, 963,  830,  695,  559,  421,
    282,  142,  0,    0};

/* TFLM's Log32 for x > 1: ln x in Q16 times out_scale, rounded */
static uint32_t log32(uint32_t x, uint32_t out_scale)
{
    const uint32_t integer = 31u - (uint32_t)__builtin_clz(x);
    int32_t frac = (int32_t)(x - (1u << integer));
    frac = integer < 16 ? frac << (16 - integer) : frac >> (integer - 16);
    const uint32_t base = (uint32_t)frac >> 9;
    const int32_t c0 = LOG_LUT[base], c1 = LOG_LUT[base + 1];
    const int32_t rel = ((c1 - c0) * (frac - (int32_t)(512 * base))) >> 16;
    const uint32_t log2 = (integer << 16) + (uint32_t)(frac + c0 + rel);
    const uint32_t loge = (uint32_t)(((uint64_t)45426 * log2 + 32768) >> 16);
    return (out_scale * loge + 32768) >> 16;
}

void mcu_filter_bank_log_u32(const mcu_filter_bank_log_params *params, const uint32_t *input, int16_t *output)
{
    for (int32_t i = 0; i < params->channels; ++i) {
        const uint32_t scaled = input[i] << params->correction_bits;
        const uint32_t value = scaled > 1 ? log32(scaled, params->output_scale) : 0;
        output[i] = (int16_t)(value < 32767u ? value : 32767u);
    }
}
