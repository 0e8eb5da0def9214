#include "mcu_nn_dsp.h"

/*
 * ADD or SUB of two int8 tensors of one shape (no broadcasting) on DSP cores: mcu_add's results. Each
 * input is offset and shifted left by 20, so |x| < 2^28, and the sum of two rescaled inputs too: every
 * requantization of an int8 ADD is then exact with SMMULR wherever its shift is not a left shift
 * (TFLM's input rescales never are: multipliers <= 1/2; its output rescale nearly never); the rest (a
 * left shift, SQUARED_DIFFERENCE) goes to mcu_add. Where add->rescaled is given, the inputs' rescales
 * are looked up instead. output may be input1 or input2 (in place).
 */

/* mcu_requantize(x, multiplier, -right) for |x| < 2^30 and right >= 0: the doubling high multiply is
 * SMMULR of 2x; the rounding division by 2^right (round = 2^(right-1), fix = 1; none for right 0:
 * round = fix = 0) as mcu_requantize_fast does it. */
static inline int32_t rescale(int32_t x, int32_t multiplier, int32_t round, int32_t right, uint32_t fix)
{
    int32_t high;
    __asm__("smmulr %0, %1, %2" : "=r"(high) : "r"(x * 2), "r"(multiplier));
    return (high + round - (int32_t)(((uint32_t)high >> 31) & fix)) >> right;
}

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
    if (add->rescaled != NULL && !(act.min <= -128 && act.max >= 127)) {
        /* each input's rescale looked up by its byte (mcugen computes both tables), then the activation's
         * clamp (in C: the assembly below has no registers left for its bounds) */
        const int32_t *const t1 = add->rescaled, *const t2 = add->rescaled + 256;
        for (int32_t i = 0; i < size; ++i) {
            const int32_t y = t1[(uint8_t)input1[i]] + t2[(uint8_t)input2[i]];
            output[i] = mcu_clamp_s8(rescale(y, mo, round_o, ro, fix_o) + out_offset, act);
        }
        return;
    }
    if (add->rescaled != NULL) {
        /* the same with nothing to clamp but int8's range, in assembly: per value two byte loads, two
         * table loads, the output's rescale and SSAT, ~20 cycles on the M4 where three rescales with
         * their fifteen constants spilled took 52 */
        const uint8_t *u1 = (const uint8_t *)input1, *u2 = (const uint8_t *)input2;
        int8_t *out = output;
        int8_t *const end = output + size;
        int32_t a, b;
        __asm__ volatile(
            "cmp %[out], %[end]\n\t"
            "beq 2f\n\t"
            "1:\n\t"
            "ldrb %[a], [%[u1]], #1\n\t"
            "ldrb %[b], [%[u2]], #1\n\t"
            "ldr %[a], [%[t1], %[a], lsl #2]\n\t"
            "ldr %[b], [%[t2], %[b], lsl #2]\n\t"
            "add %[a], %[a], %[b]\n\t"
            "lsl %[a], %[a], #1\n\t"
            "smmulr %[a], %[a], %[m]\n\t"
            "add %[b], %[a], %[round]\n\t"
            "and %[a], %[fix], %[a], lsr #31\n\t"
            "sub %[b], %[b], %[a]\n\t"
            "asr %[b], %[b], %[right]\n\t"
            "add %[b], %[b], %[offset]\n\t"
            "ssat %[b], #8, %[b]\n\t"
            "strb %[b], [%[out]], #1\n\t"
            "cmp %[out], %[end]\n\t"
            "bne 1b\n\t"
            "2:"
            : [u1] "+r"(u1), [u2] "+r"(u2), [out] "+r"(out), [a] "=&r"(a), [b] "=&r"(b)
            : [t1] "r"(add->rescaled), [t2] "r"(add->rescaled + 256), [m] "r"(mo), [round] "r"(round_o),
              [fix] "r"(fix_o), [right] "r"(ro), [offset] "r"(out_offset), [end] "r"(end)
            : "cc", "memory");
        return;
    }
    const int32_t o1 = add->input1_offset, o2 = add->input2_offset;
    const int32_t m1 = add->input1_multiplier, r1 = -add->input1_shift, round1 = r1 ? 1 << (r1 - 1) : 0;
    const int32_t m2 = add->input2_multiplier, r2 = -add->input2_shift, round2 = r2 ? 1 << (r2 - 1) : 0;
    const uint32_t fix1 = r1 != 0, fix2 = r2 != 0;
    const int32_t sign = add->operation == MCU_SUB ? -1 : 1;
#pragma GCC unroll 4
    for (int32_t i = 0; i < size; ++i) {
        const int32_t y1 = rescale((input1[i] + o1) * (1 << 20), m1, round1, r1, fix1);
        const int32_t y2 = rescale((input2[i] + o2) * (1 << 20), m2, round2, r2, fix2);
        output[i] = mcu_clamp_s8(rescale(y1 + sign * y2, mo, round_o, ro, fix_o) + out_offset, act);
    }
}
