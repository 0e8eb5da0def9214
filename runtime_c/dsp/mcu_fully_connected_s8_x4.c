#include "mcu_nn_dsp.h"

/*
 * FULLY_CONNECTED for cores with the DSP extension, on a filter mcugen lays out for it: the results
 * of src/mcu_fully_connected_s8.c. Units go four at a time. The input row is widened once to int16
 * with the input offset added (SXTB16 order: of four values, (v0, v2) then (v1, v3); lanes past
 * `depth` are 0). The filter holds, per group of four units and per four values, the four units'
 * words one after the other ([units/4][K4/4][4][4], zero-padded), so one pointer walks it: per
 * four values, one double load of input, two of filter, eight SXTB16 and eight SMLAD (16 MACs).
 * A filter offset (asymmetric weights) is taken out of the loop:
 * sum (x + xo)(w + wo) = sum (x + xo) w + wo * sum (x + xo).
 *
 * filter: see above, from mcugen; scratch: K4 int16 (K4 = depth rounded up to 4).
 */
/* Four values of input against the four units' words: acc[u] += SMLAD pairs. */
#define FC_FOUR_VALUES                                     \
    "ldrd %[even], %[odd], [%[x]], #8\n\t"                 \
    "ldrd %[w01], %[w23], [%[w]], #8\n\t"                  \
    "sxtb16 %[t], %[w01], ror #8\n\t"                      \
    "sxtb16 %[w01], %[w01]\n\t"                            \
    "smlad %[a0], %[even], %[w01], %[a0]\n\t"              \
    "smlad %[a0], %[odd], %[t], %[a0]\n\t"                 \
    "sxtb16 %[t], %[w23], ror #8\n\t"                      \
    "sxtb16 %[w23], %[w23]\n\t"                            \
    "smlad %[a1], %[even], %[w23], %[a1]\n\t"              \
    "smlad %[a1], %[odd], %[t], %[a1]\n\t"                 \
    "ldrd %[w01], %[w23], [%[w]], #8\n\t"                  \
    "sxtb16 %[t], %[w01], ror #8\n\t"                      \
    "sxtb16 %[w01], %[w01]\n\t"                            \
    "smlad %[a2], %[even], %[w01], %[a2]\n\t"              \
    "smlad %[a2], %[odd], %[t], %[a2]\n\t"                 \
    "sxtb16 %[t], %[w23], ror #8\n\t"                      \
    "sxtb16 %[w23], %[w23]\n\t"                            \
    "smlad %[a3], %[even], %[w23], %[a3]\n\t"              \
    "smlad %[a3], %[odd], %[t], %[a3]\n\t"

void mcu_fully_connected_s8_x4(const mcu_fc_params *fc, const mcu_per_channel_quant *quant,
                               const mcu_dims *input_dims, const int8_t *input,
                               const int8_t *filter, const int32_t *bias,
                               const mcu_dims *output_dims, int8_t *output, int16_t *scratch)
{
    const int32_t depth = input_dims->c, units = output_dims->c, k4 = (depth + 3) & ~3;
    const int16x2_t offset = mcu_both_halves(fc->input_offset);
    /* with a filter offset a factor is within [-255, 255], not [-128, 127]: twice the taps bound it */
    const int32_t limit = mcu_bias_limit(fc->filter_offset != 0 ? 2 * depth : depth);
    const int32_t output_offset = fc->output_offset;
    const mcu_activation act = fc->activation;
    uint32_t *cols = (uint32_t *)(void *)scratch;
    for (int32_t n = 0; n < input_dims->n; ++n, input += depth, output += units) {
        int32_t k = 0, offset_share = 0;
        for (; k + 4 <= depth; k += 4) {
            const uint32_t v = mcu_load4(input + k);
            cols[k / 2] = (uint32_t)__sadd16(mcu_even_bytes(v), offset);
            cols[k / 2 + 1] = (uint32_t)__sadd16(mcu_odd_bytes(v), offset);
        }
        if (k < depth) {
            int8_t tail[4];
            for (int32_t i = 0; i < 4; ++i) {
                tail[i] = k + i < depth ? input[k + i] : (int8_t)-fc->input_offset; /* widens to 0 */
            }
            const uint32_t v = mcu_load4(tail);
            cols[k / 2] = (uint32_t)__sadd16(mcu_even_bytes(v), offset);
            cols[k / 2 + 1] = (uint32_t)__sadd16(mcu_odd_bytes(v), offset);
        }
        if (fc->filter_offset != 0) {
            for (int32_t d = 0; d < depth; ++d) {
                offset_share += input[d] + fc->input_offset;
            }
            offset_share *= fc->filter_offset;
        }
        const int8_t *w = filter;
        for (int32_t o = 0; o < units; o += 4) {
            int32_t a[4];
            for (int32_t u = 0; u < 4; ++u) {
                a[u] = (bias && o + u < units ? bias[o + u] : 0) + offset_share;
            }
            const uint32_t *x = cols, *const end = cols + k4 / 2;
            uint32_t even, odd, w01, w23, t;
            /* In assembly for the pair loads (LDRD), which GCC splits under this register pressure;
             * two blocks of four values per turn (an odd one first), 40 instructions per 32 MACs. */
            __asm__ volatile(
                "tst %[n], #1\n\t"
                "beq 2f\n\t"
                FC_FOUR_VALUES
                "2:\n\t"
                "cmp %[x], %[end]\n\t"
                "beq 3f\n\t"
                "1:\n\t"
                FC_FOUR_VALUES
                FC_FOUR_VALUES
                "cmp %[x], %[end]\n\t"
                "bne 1b\n\t"
                "3:"
                : [a0] "+r"(a[0]), [a1] "+r"(a[1]), [a2] "+r"(a[2]), [a3] "+r"(a[3]), [x] "+r"(x), [w] "+r"(w),
                  [even] "=&r"(even), [odd] "=&r"(odd), [w01] "=&r"(w01), [w23] "=&r"(w23), [t] "=&r"(t)
                : [end] "r"(end), [n] "r"(k4 / 4)
                : "cc", "memory");
            for (int32_t u = 0; u < 4 && o + u < units; ++u) {
                mcu_channel ch;
                mcu_channel_init(&ch, quant, o + u, bias, limit);
                output[o + u] = mcu_channel_output(a[u], &ch, ch.fast, output_offset, act);
            }
        }
    }
}
