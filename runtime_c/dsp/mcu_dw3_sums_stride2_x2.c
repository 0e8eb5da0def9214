#include "mcu_nn_dw3_dsp.h"

/* Two outputs of a row of mcu_dw3_sums_stride2_x2 from window row `x` and its weight pairs w01 = (w0, w1),
 * w12 = (w1, w2): a third word (x4, x5) loaded into a once (x0, x1) is spent, each load that can
 * follow another load placed after it (the M4 pipelines them). */
#define MCU_DW3_S2_ROW_(x, w01, w12, first)                        \
    "ldr %[a], [%[" x "]], #8\n\t"                                   \
    first("%[s0]", "%[a]", "%[" w01 "]")                             \
    "smlabt %[s0], %[b], %[" w12 "], %[s0]\n\t"                      \
    first("%[s1]", "%[b]", "%[" w01 "]")                             \
    "ldr %[a], [%[" x "]]\n\t"
#define MCU_DW3_S2_SMUAD_(s, d, w) "smuad " s ", " d ", " w "\n\t"
#define MCU_DW3_S2_SMLAD_(s, d, w) "smlad " s ", " d ", " w ", " s "\n\t"

void mcu_dw3_sums_stride2_x2(const int16_t *x, int32_t rs, const uint32_t w[6], int32_t pairs, int32_t rows,
                             int32_t *acc)
{
    const int16_t *x1 = (const int16_t *)(const void *)((const int8_t *)x + rs);
    const int16_t *x2 = (const int16_t *)(const void *)((const int8_t *)x1 + rs);
    /* kept in memory: the loop needs all 14 allocatable registers (as mcu_dw3_sums_x2's). In assembly:
     * measured on VWW on the M4 (estimated cycles), its stride-2 layers 7 and 11 take 211,817 and 131,814
     * with this loop, 300,233 and 177,318 with it in C (ACLE's __smuad, __smlad, __smlabt: the model +1.4%);
     * the C is 20 B less flash. */
    const int32_t advance = 2 * rs - 8 * pairs, row_bytes = 8 * pairs;
    const int32_t *const end = acc + 2 * pairs * rows;
    const int32_t *row_end = acc + 2 * pairs;
    uint32_t s0, s1, a, b;
    __asm__ volatile(
        "1:\n\t"
        "ldr %[b], [%[x0], #4]\n\t"
        MCU_DW3_S2_ROW_("x0", "w0", "w1", MCU_DW3_S2_SMUAD_)
        "ldr %[b], [%[x1], #4]\n\t"
        "smlabt %[s1], %[a], %[w1], %[s1]\n\t"
        MCU_DW3_S2_ROW_("x1", "w2", "w3", MCU_DW3_S2_SMLAD_)
        "ldr %[b], [%[x2], #4]\n\t"
        "smlabt %[s1], %[a], %[w3], %[s1]\n\t"
        MCU_DW3_S2_ROW_("x2", "w4", "w5", MCU_DW3_S2_SMLAD_)
        "smlabt %[s1], %[a], %[w5], %[s1]\n\t"
        "strd %[s0], %[s1], [%[acc]], #8\n\t"
        "ldr %[a], %[row_end]\n\t"
        "cmp %[acc], %[a]\n\t"
        "bne 1b\n\t"
        /* the next output row: two window rows down, its sums after this one's */
        "ldr %[b], %[row_bytes]\n\t"
        "add %[a], %[a], %[b]\n\t"
        "str %[a], %[row_end]\n\t"
        "ldr %[b], %[advance]\n\t"
        "add %[x0], %[x0], %[b]\n\t"
        "add %[x1], %[x1], %[b]\n\t"
        "add %[x2], %[x2], %[b]\n\t"
        "ldr %[a], %[end]\n\t"
        "cmp %[acc], %[a]\n\t"
        "bne 1b"
        : [s0] "=&r"(s0), [s1] "=&r"(s1), [a] "=&r"(a), [b] "=&r"(b), [x0] "+r"(x), [x1] "+r"(x1), [x2] "+r"(x2),
          [acc] "+r"(acc), [row_end] "+m"(row_end)
        : [w0] "r"(w[0]), [w1] "r"(w[1]), [w2] "r"(w[2]), [w3] "r"(w[3]), [w4] "r"(w[4]), [w5] "r"(w[5]),
          [end] "m"(end), [advance] "m"(advance), [row_bytes] "m"(row_bytes)
        : "cc", "memory");
}
