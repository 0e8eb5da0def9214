/*
 * The DSP conv's channel-pair loop (mcu_nn_conv_pairs_dsp.h) made a function for each weight form, the INT4
 * form's blocks here; the job that runs them and the call that picks one.
 */
#ifndef MCU_NN_CONV_PAIRS_FORMS_DSP_H
#define MCU_NN_CONV_PAIRS_FORMS_DSP_H

#include "mcu_nn_conv_pairs_dsp.h"

/* mcu_conv_pairs_s4's four values: the pair's INT4 word, one load and seven instructions (MCU_S4_PAIRS_) into
 * r8-r11 where the int8 form takes two loads and four SXTB16 (29 cycles a block on the M4, where the C loop's
 * MCU_SUMS_2X3_S4 takes 30 and a call and the stores' tests a pair). */
#if defined(__ARM_ARCH_7EM__)
#define MCU_PAIR_S4_BLOCK_BYTES 96
#define MCU_PAIR_FOUR_VALUES_S4_                                                                               \
    "ldr r11, [r7], #4\n\t"                                                                                    \
    "ldr r12, [r6, #8]\n\t"                                                                                    \
    "ldr lr, [r6, #12]\n\t" MCU_S4_PAIRS_("r11", "r8", "r9", "r10", "r11")                                     \
    MCU_PAIR_SUMS_("r1", "r4", "r12", "lr") "ldrd r12, lr, [r6], #16\n\t" MCU_PAIR_SUMS_("r0", "r3", "r12", "lr") \
    "ldrd r12, lr, [r6], #8\n\t" MCU_PAIR_SUMS_("r2", "r5", "r12", "lr")
#else
#define MCU_PAIR_S4_BLOCK_BYTES 104
#define MCU_PAIR_FOUR_VALUES_S4_                                                                               \
    "ldr r11, [r7], #4\n\t" "ldr r12, [r6], #24\n\t" MCU_S4_PAIRS_("r11", "r8", "r9", "r10", "r11")            \
    MCU_PAIR_SUMS_INTERLEAVED_
#endif

/* An INT4 pair's sums start from 0; they end as bias + sum / 16 (the pair's biases re-read past the pointer the
 * pair moved on). */
#define MCU_PAIR_S4_START_ "mov r0, #0\n\t" "mov r3, #0\n\t"
#define MCU_PAIR_S4_FINISH_                                                                                    \
    "ldr r12, [sp, #12]\n\t" "ldrd r8, r9, [r12, #-8]\n\t"                                                     \
    "add r0, r8, r0, asr #4\n\t" "add r1, r8, r1, asr #4\n\t" "add r2, r8, r2, asr #4\n\t"                    \
    "add r3, r9, r3, asr #4\n\t" "add r4, r9, r4, asr #4\n\t" "add r5, r9, r5, asr #4\n\t"

/* On weights widened to int16 at build time (MCU_SUMS_2X3_W16's loop), every channel doubled (fast = 2). */
static __attribute__((naked, noinline, unused)) void mcu_conv_pairs_w16(MCU_PAIRS_PARAMS_)
{
    /* a naked function holds basic assembly only: the arguments are where AAPCS puts them. The frame: the
     * job's fourteen fields (skip made the loop's entry), then the half-block's first bias, channel, output
     * and live */
    __asm__ volatile(MCU_CONV_PAIRS_ASM_(MCU_PAIR_FOUR_VALUES_, MCU_PAIR_BLOCK_BYTES, "", "", MCU_PAIR_REQUANTIZE_,
                                         MCU_PAIR_REQUANTIZE_));
}

/* On int8 weights (x6_filter's layout), widened in registers, every channel fast (fast = 1). */
static __attribute__((naked, noinline, unused)) void mcu_conv_pairs_s8(MCU_PAIRS_PARAMS_)
{
    __asm__ volatile(MCU_CONV_PAIRS_ASM_(MCU_PAIR_FOUR_VALUES_S8_, MCU_PAIR_S8_BLOCK_BYTES, "", "",
                                         MCU_PAIR_REQUANTIZE_S8_, MCU_PAIR_REQUANTIZE_S8_));
}

/* On twin words (mcu_nn_conv_dsp.h), c0's weights widened in registers, every channel fast (fast = 1). */
static __attribute__((naked, noinline, unused)) void mcu_conv_pairs_twin(MCU_PAIRS_PARAMS_)
{
    __asm__ volatile(MCU_CONV_PAIRS_ASM_(MCU_PAIR_FOUR_VALUES_TWIN_, MCU_PAIR_TWIN_BLOCK_BYTES, MCU_PAIR_TWIN_START_,
                                         MCU_PAIR_TWIN_FINISH_, MCU_PAIR_REQUANTIZE_S8_, MCU_PAIR_REQUANTIZE_));
}

/* On INT4 words (MCU_S4_PAIRS_'s layout: the C loops' s4_x6_filter), widened in registers to 16 times their
 * values: the sums start from 0 and are made bias + sum / 16 before the requantization, as mcu_s4_sum makes
 * them, every channel fast (fast = 1). */
static __attribute__((naked, noinline, unused)) void mcu_conv_pairs_s4(MCU_PAIRS_PARAMS_)
{
    __asm__ volatile(MCU_CONV_PAIRS_ASM_(MCU_PAIR_FOUR_VALUES_S4_, MCU_PAIR_S4_BLOCK_BYTES, MCU_PAIR_S4_START_,
                                         MCU_PAIR_S4_FINISH_, MCU_PAIR_REQUANTIZE_S8_, MCU_PAIR_REQUANTIZE_S8_));
}

/* The job of every channel pair (computed / 2 of them) of the half-blocks from cols (K8 values each), their
 * weights `filter` in the form `wide` (MCU_FORM_W16: int16, for mcu_conv_pairs_w16; MCU_FORM_TWIN: twin words,
 * for mcu_conv_pairs_twin; MCU_FORM_S4: INT4 words, for mcu_conv_pairs_s4; else int8), from src as
 * mcu_pairs_job says. */
static inline mcu_pairs_job mcu_conv_pairs_job(const uint32_t *cols, int32_t k8, const int32_t *bias,
                                               const mcu_channel *channels, int8_t *out, int32_t out_c,
                                               const void *filter, int32_t computed, const int16_t *live,
                                               const int8_t *src, int32_t in_c, int32_t half_blocks, int32_t pitch,
                                               int wide)
{
    const int8_t *const w = (const int8_t *)filter;
    const int32_t block = wide == MCU_FORM_W16    ? MCU_PAIR_BLOCK_BYTES
                          : wide == MCU_FORM_TWIN ? MCU_PAIR_TWIN_BLOCK_BYTES
                          : wide == MCU_FORM_S4   ? MCU_PAIR_S4_BLOCK_BYTES
                                                  : MCU_PAIR_S8_BLOCK_BYTES;
    /* a pair's weights: two channels' k8 values, as int16, int8 or INT4 */
    const int32_t pair_bytes = wide == MCU_FORM_W16 ? 4 * k8 : wide == MCU_FORM_S4 ? k8 : 2 * k8;
    const mcu_pairs_job job = {cols + (k8 / 4) * 2 * MCU_HALF_BLOCK, (8 - k8 / 4 % 8) % 8 * block + 1, cols, bias,
                               channels, out, out_c, w + computed / 2 * pair_bytes, live, w, src, in_c,
                               half_blocks, pitch};
    return job;
}

/* The pairs of `job` on the loop for the weights' form. */
static inline __attribute__((always_inline)) void mcu_conv_pairs(const mcu_pairs_job *job, int wide)
{
    if (wide == MCU_FORM_W16) {
        mcu_conv_pairs_w16(MCU_PAIRS_ARGS_(job));
    } else if (wide == MCU_FORM_TWIN) {
        mcu_conv_pairs_twin(MCU_PAIRS_ARGS_(job));
    } else if (wide == MCU_FORM_S4) {
        mcu_conv_pairs_s4(MCU_PAIRS_ARGS_(job));
    } else {
        mcu_conv_pairs_s8(MCU_PAIRS_ARGS_(job));
    }
}

#endif
