/*
 * The DSP conv on INT4 weights four channels at a time (mcu_conv2d_s4_quads): a block's positions two at a
 * time against a quad's weights, one word of nibbles for two values of four channels.
 *
 * Why quads: a pair's INT4 word (mcu_conv_pairs_s4) holds four values of two channels, and each of its four
 * SMLAD operands costs an instruction or two to unpack (29 cycles a block of 24 MACs on the M4, int8's twin
 * words 25). A quad's word holds two values of four channels so that SMLAD reads the word itself: its low
 * halfword is byte0 + 256 * byte1 as one int16, byte0 unsigned, byte1 signed. With
 *   byte0 = 16 (c1 + 8) + (c0 + 8),   byte1 = 16 c3 + (c2 + 8)   (c3's nibble signed, the others offset by 8),
 * the word and three in-place masks of it give four operands whose sums at a position (x its inputs) are
 *   R = sum x (byte0 + 256 byte1)          the word itself
 *   A = sum x (byte0 + 256 (c2 + 8))       BIC #0xF000F000
 *   B = sum x byte0                        AND #0x00FF00FF
 *   Z = sum x (c0 + 8)                     AND #0x000F000F
 * so that, with X = sum x over the patch, c3 = (R - A) / 4096, c2 = (A - B) / 256 - 8X, c1 = (B - Z) / 16 - 8X
 * and c0 = Z - 8X, every difference exact modulo 2^32 while the true value fits int32 (kernels/layouts.py
 * s4_quads_fit checks each quad). Three masks and one load for eight SMLADs (two positions): 15 cycles per 16
 * MACs on the M4, where twin words take 16.7. In assembly: the same loop in C with ACLE's __smlad (GCC 12.2,
 * -O2, the M4) runs out of registers, 206 instructions per eight steps (48 loads and 32 stores of spilled
 * values) where this takes 112.
 *
 * filter (kernels/layouts.py s4_quads_filter): per quad of output channels, per four values of the patch's
 * K8, two words: values (v0, v2) then (v1, v3), each value's byte0 then byte1, as the widened patches pair
 * them (mcu_nn_conv_dsp.h). The output channels are a multiple of four.
 */
#ifndef MCU_NN_CONV_QUADS_DSP_H
#define MCU_NN_CONV_QUADS_DSP_H

#include "mcu_nn_conv_pairs_dsp.h"

/* One SMLAD step of two values: the weight word r8 against position P's inputs r9 (sums r0-r3) and Q's r10
 * (r4-r7), masked in place between. */
#define MCU_QUAD_STEP_                                                                                         \
    "smlad r0, r9, r8, r0\n\t" "smlad r4, r10, r8, r4\n\t" "bic r8, r8, #0xF000F000\n\t"                      \
    "smlad r1, r9, r8, r1\n\t" "smlad r5, r10, r8, r5\n\t" "and r8, r8, #0x00FF00FF\n\t"                      \
    "smlad r2, r9, r8, r2\n\t" "smlad r6, r10, r8, r6\n\t" "and r8, r8, #0x000F000F\n\t"                      \
    "smlad r3, r9, r8, r3\n\t" "smlad r7, r10, r8, r7\n\t"

/* Four values: (v1, v3) then (v0, v2), whose loads move the patches (r11, r12: a half-block's positions are
 * interleaved, 24 bytes a four values) and the weights (lr) on. Each step's three loads back to back, none on
 * a base the load before it wrote back: the M4 pipelines them (4 cycles); the weight word first, so that the
 * M33 does not wait for the last load's result at the first SMLAD. */
#define MCU_QUAD_BLOCK_BYTES 112
#define MCU_QUAD_FOUR_VALUES_                                                                                  \
    "ldr r8, [lr, #4]\n\t" "ldr r9, [r11, #4]\n\t" "ldr r10, [r12, #4]\n\t" MCU_QUAD_STEP_                     \
    "ldr r8, [lr], #8\n\t" "ldr r9, [r11], #24\n\t" "ldr r10, [r12], #24\n\t" MCU_QUAD_STEP_

/* Two positions' 16X (r4 P's, r5 Q's) from their widened patches at r0, r1 (K8 / 4 words a position, two fours of
 * values a pass: K8 is a multiple of 8), into the frame, and the end of P's patch (r9), every quad's loop's end;
 * r6 the ones SMLAD adds the halves with. */
#define MCU_QUAD_INPUT_SUMS_                                                                                   \
    "mov r4, #0\n\t" "mov r5, #0\n\t" "mov r6, #0x00010001\n\t" "mov r7, r0\n\t" "mov r8, r1\n\t"             \
    "add r9, r3, r3, lsl #1\n\t" "add r9, r0, r9, lsl #1\n\t"                                                  \
    "7:\n\t"                                                                                                   \
    "ldr r10, [r7, #4]\n\t" "ldr r11, [r7], #24\n\t" "ldr r12, [r8, #4]\n\t" "ldr lr, [r8], #24\n\t"           \
    "sadd16 r10, r10, r11\n\t" "sadd16 r12, r12, lr\n\t"                                                       \
    "ldr r11, [r7, #4]\n\t" "ldr lr, [r7], #24\n\t" "sadd16 r10, r10, r11\n\t" "sadd16 r10, r10, lr\n\t"       \
    "ldr r11, [r8, #4]\n\t" "ldr lr, [r8], #24\n\t" "sadd16 r12, r12, r11\n\t" "sadd16 r12, r12, lr\n\t"       \
    "smlad r4, r10, r6, r4\n\t" "smlad r5, r12, r6, r5\n\t"                                                    \
    "cmp r7, r9\n\t" "bne 7b\n\t"                                                                              \
    "lsl r4, r4, #4\n\t" "lsl r5, r5, #4\n\t" "strd r4, r5, [sp, #20]\n\t" "str r9, [sp, #12]\n\t"

/* A position's four sums R, A, B, Z (r, a, b, z) made its channels' accumulators c3, c2, c1, c0 in place, doubled
 * (what the fast requantization's high multiply takes: the header's differences shifted one place less), the
 * quad's biases r8-r11 (doubled by mcugen) and its 16X x16 added. */
#define MCU_QUAD_CHANNELS_(r, a, b, z, x16)                                                                    \
    "sub " r ", " r ", " a "\n\t" "sub " a ", " a ", " b "\n\t" "sub " b ", " b ", " z "\n\t"                 \
    "rsb " z ", " x16 ", " z ", lsl #1\n\t" "add " z ", " z ", r8\n\t"                                       \
    "rsb " b ", " x16 ", " b ", asr #3\n\t" "add " b ", " b ", r9\n\t"                                       \
    "rsb " a ", " x16 ", " a ", asr #7\n\t" "add " a ", " a ", r10\n\t"                                      \
    "add " r ", r11, " r ", asr #11\n\t"

/* Channel `at` (its byte offset from lr) requantized at both positions (p, q: mcu_requantize_fast of the
 * doubled accumulators, r8 multiplier, r9 round with the output offset, r10 right, r11 and r12 scratch). */
#define MCU_QUAD_REQUANTIZE_(at, p, q)                                                                         \
    "ldr r8, [lr, #" at "]\n\t" "ldrsb r10, [lr, #" at " + 4]\n\t" "ldrsh r9, [lr, #" at " + 6]\n\t"          \
    "lsl r9, r9, r10\n\t" "asr r9, r9, #1\n\t"                                                                  \
    "smmlar r11, " p ", r8, r9\n\t" "smmlar r12, " q ", r8, r9\n\t"                                           \
    "add r11, r11, " p ", asr #31\n\t" "add r12, r12, " q ", asr #31\n\t"                                     \
    "asr " p ", r11, r10\n\t" "asr " q ", r12, r10\n\t" "ssat " p ", #8, " p "\n\t" "ssat " q ", #8, " q "\n\t"

/* A position's four outputs (c0 in w, then c1, c2, c3) packed into w and clamped to the bounds r9, r10
 * (mcu_pack4's SSUB8 and SEL). */
#define MCU_QUAD_PACK_(w, c1, c2, c3)                                                                          \
    "bfi " w ", " c1 ", #8, #8\n\t" "bfi " w ", " c2 ", #16, #8\n\t" "bfi " w ", " c3 ", #24, #8\n\t"         \
    "ssub8 r11, " w ", r9\n\t" "sel " w ", " w ", r9\n\t" "ssub8 r11, r10, " w "\n\t" "sel " w ", " w ", r10\n\t"

/*
 * The outputs of `quads` quads of output channels at positions P (xa: its widened patch) and Q (xb), their
 * weights one after another from w (K8 / 2 words each), bias (doubled) and channels (every one fast) a quad's
 * four on, stored four bytes a quad from out_p and out_q, clamped to the activation's min4, max4
 * (mcu_all_bytes). The quad's loop is eight blocks of four values, entered part-way where K8 / 4 is not a
 * multiple of eight (Duff's device); its fourteen registers hold the sums, the words and the pointers, so
 * the loop's end and everything after is read from the frame.
 */
static __attribute__((naked, noinline, unused)) void mcu_conv_quads_s4(
    const uint32_t *xa __attribute__((unused)), const uint32_t *xb __attribute__((unused)),
    const uint32_t *w __attribute__((unused)), int32_t k8 __attribute__((unused)),
    int32_t quads __attribute__((unused)), const int32_t *bias __attribute__((unused)),
    const mcu_channel *channels __attribute__((unused)), int8_t *out_p __attribute__((unused)),
    int8_t *out_q __attribute__((unused)), uint32_t min4 __attribute__((unused)),
    uint32_t max4 __attribute__((unused)))
{
    /* The frame: xa, xb, the loop's entry, the end of P's patch, the weights pointer while the outputs are
     * made, 16X of P and Q; the stack arguments from quads (64) to max4 (88) above the nine saved registers */
    __asm__ volatile(
        "push {r4, r5, r6, r7, r8, r9, r10, r11, lr}\n\t"
        "sub sp, sp, #28\n\t"
        "strd r0, r1, [sp]\n\t"
        /* the blocks the first pass skips: (8 - K8 / 4 % 8) % 8, Thumb bit set */
        "lsr r5, r3, #2\n\t"
        "and r5, r5, #7\n\t"
        "rsb r5, r5, #8\n\t"
        "and r5, r5, #7\n\t"
        "mov r6, #" MCU_STR(MCU_QUAD_BLOCK_BYTES) "\n\t"
        "adr r7, 3f\n\t"
        "mla r5, r5, r6, r7\n\t"
        "orr r5, r5, #1\n\t"
        "str r5, [sp, #8]\n\t"
        MCU_QUAD_INPUT_SUMS_
        "mov lr, r2\n\t"
        "1:\n\t"
        "ldrd r11, r12, [sp]\n\t"
        "mov r0, #0\n\t" "mov r1, #0\n\t" "mov r2, #0\n\t" "mov r3, #0\n\t"
        "mov r4, #0\n\t" "mov r5, #0\n\t" "mov r6, #0\n\t" "mov r7, #0\n\t"
        "ldr r8, [sp, #8]\n\t"
        "bx r8\n\t"
        "3:\n\t"
        MCU_QUAD_FOUR_VALUES_
        "9:\n\t"
        ".if 9b - 3b - " MCU_STR(MCU_QUAD_BLOCK_BYTES) "\n\t"
        ".error \"a block of four values is not MCU_QUAD_BLOCK_BYTES: the loop's entry is computed so\"\n\t"
        ".endif\n\t"
        MCU_QUAD_FOUR_VALUES_ MCU_QUAD_FOUR_VALUES_ MCU_QUAD_FOUR_VALUES_
        MCU_QUAD_FOUR_VALUES_ MCU_QUAD_FOUR_VALUES_ MCU_QUAD_FOUR_VALUES_ MCU_QUAD_FOUR_VALUES_
        "ldr r8, [sp, #12]\n\t"
        "cmp r11, r8\n\t"
        "bne 3b\n\t"
        /* the quad's eight outputs: biases, then each channel's constants once for both positions */
        "str lr, [sp, #16]\n\t"
        "ldr lr, [sp, #68]\n\t"
        "ldmia lr!, {r8, r9, r10, r11}\n\t"
        "str lr, [sp, #68]\n\t"
        "ldrd r12, lr, [sp, #20]\n\t"
        MCU_QUAD_CHANNELS_("r0", "r1", "r2", "r3", "r12")
        MCU_QUAD_CHANNELS_("r4", "r5", "r6", "r7", "lr")
        "ldr lr, [sp, #72]\n\t"
        MCU_QUAD_REQUANTIZE_("0", "r3", "r7")
        MCU_QUAD_REQUANTIZE_("8", "r2", "r6")
        MCU_QUAD_REQUANTIZE_("16", "r1", "r5")
        MCU_QUAD_REQUANTIZE_("24", "r0", "r4")
        "add lr, lr, #32\n\t"
        "str lr, [sp, #72]\n\t"
        "ldrd r9, r10, [sp, #84]\n\t"
        MCU_QUAD_PACK_("r3", "r2", "r1", "r0")
        MCU_QUAD_PACK_("r7", "r6", "r5", "r4")
        "ldrd r8, r12, [sp, #76]\n\t"
        "str r3, [r8], #4\n\t"
        "str r7, [r12], #4\n\t"
        "strd r8, r12, [sp, #76]\n\t"
        "ldr lr, [sp, #16]\n\t"
        "ldr r8, [sp, #64]\n\t"
        "subs r8, r8, #1\n\t"
        "str r8, [sp, #64]\n\t"
        "bne 1b\n\t"
        "add sp, sp, #28\n\t"
        "pop {r4, r5, r6, r7, r8, r9, r10, r11, pc}");
}

/*
 * Every output channel of the block's `count` positions (their widened patches at dsts) to out (position p's
 * at out + p * out_c), two positions a call: an odd last one pairs with itself, its outputs stored twice.
 */
static inline __attribute__((always_inline)) void mcu_conv_block_quads(
    uint32_t *const *dsts, int32_t count, int32_t k8, int32_t out_c, const uint32_t *filter, const int32_t *bias,
    const mcu_channel *channels, mcu_activation act, int8_t *out)
{
    const uint32_t min4 = mcu_all_bytes(act.min), max4 = mcu_all_bytes(act.max);
    for (int32_t p = 0; p < count; p += 2) {
        const int two = p + 1 < count;
        mcu_conv_quads_s4(dsts[p], dsts[two ? p + 1 : p], filter, k8, out_c / 4, bias, channels, out + p * out_c,
                          out + (two ? p + 1 : p) * out_c, min4, max4);
    }
}

#endif
