#include "mcu_nn_dsp.h"

/*
 * ADD or SUB of two int8 tensors of one shape (no broadcasting) on DSP cores: mcu_add's results. Each
 * input is offset and shifted left by 20, so |x| < 2^28, and the sum of two rescaled inputs too: every
 * requantization of an int8 ADD is then exact with SMMULR wherever its shift is not a left shift
 * (TFLM's input rescales never are: multipliers <= 1/2; its output rescale nearly never); the rest (a
 * left shift, SQUARED_DIFFERENCE) goes to mcu_add. Where add->rescaled is given, the inputs' rescales
 * are looked up instead. output may be input1 or input2 (in place).
 */

/* mcu_requantize(x, multiplier, -right) for |x| < 2^30 and right >= 0, from x2 = 2x: the doubling high
 * multiply is SMMULR of 2x; the rounding division by 2^right (round = 2^(right-1), fix = 1; none for right
 * 0: round = fix = 0) as mcu_requantize_fast does it. */
static inline int32_t rescale2(int32_t x2, int32_t multiplier, int32_t round, int32_t right, uint32_t fix)
{
    int32_t high;
    __asm__("smmulr %0, %1, %2" : "=r"(high) : "r"(x2), "r"(multiplier));
    return (high + round - (int32_t)(((uint32_t)high >> 31) & fix)) >> right;
}

static inline int32_t rescale(int32_t x, int32_t multiplier, int32_t round, int32_t right, uint32_t fix)
{
    return rescale2(x * 2, multiplier, round, right, fix);
}

/* Two values of the lookup loop (mcu_add_s8_x4): their bytes, their tables' doubled rescales (t2 1024 bytes
 * past t1), the sum's high multiply, the rounding division with the output's offset in `round`, SSAT and the
 * activation's lower bound. */
#define MCU_ADD_TWO_                                  \
    "ldrb %[a], [%[u1]], #1\n\t"                     \
    "ldrb %[b], [%[u2]], #1\n\t"                     \
    "ldrb %[c], [%[u1]], #1\n\t"                     \
    "ldrb %[d], [%[u2]], #1\n\t"                     \
    "ldr %[a], [%[t1], %[a], lsl #2]\n\t"            \
    "ldr %[b], [%[t2], %[b], lsl #2]\n\t"            \
    "ldr %[c], [%[t1], %[c], lsl #2]\n\t"            \
    "ldr %[d], [%[t2], %[d], lsl #2]\n\t"            \
    "add %[a], %[a], %[b]\n\t"                       \
    "add %[c], %[c], %[d]\n\t"                       \
    "smmulr %[a], %[a], %[m]\n\t"                    \
    "smmulr %[c], %[c], %[m]\n\t"                    \
    "add %[b], %[a], %[round]\n\t"                   \
    "add %[d], %[c], %[round]\n\t"                   \
    "sub %[b], %[b], %[a], lsr #31\n\t"              \
    "sub %[d], %[d], %[c], lsr #31\n\t"              \
    "asr %[b], %[b], %[right]\n\t"                   \
    "asr %[d], %[d], %[right]\n\t"                   \
    "ssat %[b], #8, %[b]\n\t"                        \
    "ssat %[d], #8, %[d]\n\t"                        \
    "cmp %[b], %[low]\n\t"                           \
    "it lt\n\t"                                      \
    "movlt %[b], %[low]\n\t"                         \
    "cmp %[d], %[low]\n\t"                           \
    "it lt\n\t"                                      \
    "movlt %[d], %[low]\n\t"                         \
    "strb %[b], [%[out]], #1\n\t"                    \
    "strb %[d], [%[out]], #1\n\t"

void mcu_add_s8_x4(const mcu_add_params *add, int32_t size, const int8_t *input1, const int8_t *input2,
                   int8_t *output)
{
    if (add->operation == MCU_SQUARED_DIFFERENCE || add->left_shift != 20 || add->input1_shift > 0
        || add->input2_shift > 0 || add->output_shift > 0) {
        const mcu_broadcast same = {.rank = 1, .shape = {size}, .stride1 = {1}, .stride2 = {1}, .bits = 8};
        mcu_add(add, &same, input1, input2, output);
        return;
    }
    const int32_t mo = add->output_multiplier, ro = -add->output_shift, round_o = ro ? 1 << (ro - 1) : 0;
    const uint32_t fix_o = ro != 0;
    const int32_t out_offset = add->output_offset;
    const mcu_activation act = add->activation;
    const int32_t *const t1 = add->rescaled, *const t2 = t1 != NULL ? t1 + 256 : NULL;
    int32_t i = 0;
    /* in assembly, two values a pass where the output rescale rounds (a right shift) and its offset folds
     * into the rounding term (the sum then fits), the clamp above being SSAT's: per value two byte loads, two
     * table loads, the rescale, SSAT and the lower bound (a ReLU's), ~16 cycles on the M4 where a value a pass
     * in C took 20 (ResNet-8's ADDs) */
    if (add->rescaled != NULL && ro >= 1 && ro <= 21 && act.max >= 127 && size >= 2) {
        const uint8_t *u1 = (const uint8_t *)input1, *u2 = (const uint8_t *)input2;
        int8_t *out = output;
        const int8_t *const end = output + (size & ~1);
        const int32_t round = round_o + (int32_t)((uint32_t)out_offset << ro), low = act.min > -128 ? act.min : -128;
        int32_t a, b, c, d;
        __asm__ volatile(
            "1:\n\t"
            MCU_ADD_TWO_
            "ldr %[a], %[end]\n\t"
            "cmp %[out], %[a]\n\t"
            "bne 1b"
            : [u1] "+r"(u1), [u2] "+r"(u2), [out] "+r"(out), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [d] "=&r"(d)
            : [t1] "r"(t1), [t2] "r"(t2), [m] "r"(mo), [round] "r"(round), [right] "r"(ro), [low] "r"(low),
              [end] "m"(end)
            : "cc", "memory");
        i = size & ~1;
    }
    if (add->rescaled != NULL) {  /* the rest: each input's rescale looked up by its byte, then the clamp */
        for (; i < size; ++i) {
            const int32_t y2 = t1[(uint8_t)input1[i]] + t2[(uint8_t)input2[i]];
            output[i] = mcu_clamp_s8(rescale2(y2, mo, round_o, ro, fix_o) + out_offset, act);
        }
        return;
    }
    const int32_t o1 = add->input1_offset, o2 = add->input2_offset;
    const int32_t m1 = add->input1_multiplier, r1 = -add->input1_shift, round1 = r1 ? 1 << (r1 - 1) : 0;
    const int32_t m2 = add->input2_multiplier, r2 = -add->input2_shift, round2 = r2 ? 1 << (r2 - 1) : 0;
    const uint32_t fix1 = r1 != 0, fix2 = r2 != 0;
    const int32_t sign = add->operation == MCU_SUB ? -1 : 1;
#pragma GCC unroll 4
    for (; i < size; ++i) {
        const int32_t y1 = rescale((input1[i] + o1) * (1 << 20), m1, round1, r1, fix1);
        const int32_t y2 = rescale((input2[i] + o2) * (1 << 20), m2, round2, r2, fix2);
        output[i] = mcu_clamp_s8(rescale(y1 + sign * y2, mo, round_o, ro, fix_o) + out_offset, act);
    }
}
