#include "mcu_nn_dw3_dsp.h"

void mcu_dw3_sums_x2(const int16_t *x, int32_t rs, const uint32_t w[6],
                  int32_t pairs, int32_t *acc)
{
    pairs = (pairs + 3) & ~3;  /* four per pass: the up to three more computed are read by nobody */
    const int16_t *x1 = (const int16_t *)(const void *)((const int8_t *)x + rs);
    const int16_t *x2 = (const int16_t *)(const void *)((const int8_t *)x1 + rs);
    const int32_t *const end = acc + 2 * pairs;
    uint32_t a, b, d0, d1;
    /* In assembly: the loop needs all 14 allocatable registers (the two sums, two input words, three
     * row pointers, the output pointer, six weight pairs), so its end is read from the stack, once
     * per four pairs. Measured on VWW on the M4 (mps2-an386, estimated cycles): its stride-1 depthwise
     * layers take 17.8-22.5% more with this loop in C (ACLE's __smuad, __smlad, __smlabt, __smlatb; layer 1
     * 493,748 -> 605,084), the model 9,462,544 -> 9,932,472 (+5.0%); the C is 208 B less flash. */
    __asm__ volatile(
        "1:\n\t"
        MCU_DW3_PAIR_ MCU_DW3_PAIR_ MCU_DW3_PAIR_
        MCU_DW3_PAIR_
        "ldr %[d0], %[end]\n\t"
        "cmp %[acc], %[d0]\n\t"
        "bne 1b"
        : [a] "=&r"(a), [b] "=&r"(b), [d0] "=&r"(d0), [d1] "=&r"(d1), [x0] "+r"(x), [x1] "+r"(x1), [x2] "+r"(x2),
          [acc] "+r"(acc)
        : [w0] "r"(w[0]), [w1] "r"(w[1]), [w2] "r"(w[2]), [w3] "r"(w[3]), [w4] "r"(w[4]), [w5] "r"(w[5]),
          [end] "m"(end)
        : "cc", "memory");
}
