#include "mcu_nn_conv_dsp.h"

/*
 * 16x8 CONV_2D on DSP cores: the results of mcu_conv2d_s16 (int16 input, int8 filter, int64 bias, no
 * zero points), for layers whose sums of products fit int32 (mcugen takes only those: K * 32768 * 128
 * < 2^31, K = KH*KW*Cin), on mcu_conv2d_s8_x6's register-blocked loop (MCU_SUMS_2X3: two output
 * channels by three positions). The patch is int16 already: each position's K8 values (K padded
 * with zeros to a multiple of 8) are copied into the block as words (x0, x1), (x2, x3), and mcugen
 * orders each four weights (w0, w2, w1, w3) so that SXTB16 pairs them (w0, w1) and its rotation
 * (w2, w3). The int64 bias is added to each int32 sum before the requantization (mcu_requantize_wide).
 *
 * filter: as mcu_conv2d_s8_x6's (kernels/layouts.py x6_filter), each four weights reordered as above.
 * scratch: MCU_CONV_BLOCK * K8 int16, then K8 int16 (the gathered patch).
 */

#define HALF MCU_HALF_BLOCK

/* Channel c's sums of `count` <= HALF positions to out (out_c apart). */
static inline void store_channel(int64_t bias, int32_t accumulator_bits, int32_t multiplier, int32_t shift,
                                 mcu_activation act, const int32_t *sums, int32_t count, int32_t out_c, int16_t *out)
{
    for (int32_t p = 0; p < count; ++p) {
        out[p * out_c] = mcu_clamp_s16(mcu_requantize_wide(sums[p] + bias, accumulator_bits, multiplier, shift),
                                       act);
    }
}

/* All output channels of `count` <= HALF positions from their patches at `cols` (MCU_SUMS_2X3's layout). */
static void half_channels(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                          const uint32_t *cols, int32_t count, int32_t k8, int32_t out_c, const int8_t *filter,
                          const int64_t *bias, int16_t *out)
{
    const uint32_t *const end = cols + (k8 / 4) * 2 * HALF;
    const mcu_activation act = conv->activation;
    int32_t c = 0;
    for (; c + 2 <= out_c; c += 2) {
        int32_t s[2][HALF] = {{0}};
        MCU_SUMS_2X3(cols, end, filter + c * k8, s[0][0], s[0][1], s[0][2], s[1][0], s[1][1], s[1][2]);
        for (int32_t k = 0; k < 2; ++k) {
            store_channel(bias[c + k], accumulator_bits, quant->multiplier[c + k], quant->shift[c + k], act, s[k],
                          count, out_c, out + c + k);
        }
    }
    if (c < out_c) {  /* the last of an odd count: its weights alone, a word per four values */
        int32_t s[HALF] = {0};
        mcu_sums_1x3(cols, end, filter + c * k8, 0, &s[0], &s[1], &s[2]);
        store_channel(bias[c], accumulator_bits, quant->multiplier[c], quant->shift[c], act, s, count, out_c,
                      out + c);
    }
}

void mcu_conv2d_s16_x6(const mcu_conv_params *conv, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                       const mcu_dims *input_dims, const int16_t *input,
                       const mcu_dims *filter_dims, const int8_t *filter, const int64_t *bias,
                       const mcu_dims *output_dims, int16_t *output, int16_t *scratch)
{
    const int32_t taps = filter_dims->h * filter_dims->w * input_dims->c, k8 = (taps + 7) & ~7;
    const int32_t out_c = output_dims->c, positions = output_dims->n * output_dims->h * output_dims->w;
    const int direct = mcu_conv_direct(conv, filter_dims, input_dims->c);
    uint32_t *cols = (uint32_t *)(void *)scratch;
    int8_t *patch = (int8_t *)(cols + MCU_CONV_BLOCK * k8 / 2);

    mcu_position at = {0, 0, 0};
    for (int32_t first = 0; first < positions; first += MCU_CONV_BLOCK) {
        const int32_t count = positions - first < MCU_CONV_BLOCK ? positions - first : MCU_CONV_BLOCK;
        for (int32_t p = 0; p < count; ++p, mcu_position_next(&at, output_dims)) {
            const int16_t *src = (const int16_t *)mcu_patch_of(conv, input_dims, input, filter_dims, at, k8, 2, 0,
                                                               direct, patch);
            uint32_t *slot = cols + (p / HALF) * (k8 / 4) * 2 * HALF + (p % HALF) * 2;
            for (int32_t k = 0; k < k8; k += 4, slot += 2 * HALF) {
                memcpy(slot, src + k, 2 * sizeof *slot);
            }
        }
        for (int32_t h = 0; h * HALF < count; ++h) {
            const int32_t n = count - h * HALF < HALF ? count - h * HALF : HALF;
            half_channels(conv, quant, accumulator_bits, cols + h * (k8 / 4) * 2 * HALF, n, k8, out_c, filter, bias,
                          output + (first + h * HALF) * out_c);
        }
    }
}
