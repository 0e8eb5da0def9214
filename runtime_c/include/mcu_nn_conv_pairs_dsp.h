/*
 * The DSP conv's channel pairs of whole half-blocks in one loop of assembly (MCU_CONV_PAIRS_ASM_), its blocks
 * of four values on each weight form; mcu_nn_conv_pairs_forms_dsp.h makes a function of each
 * (mcu_nn_conv2d_dsp.h calls them; mcu_nn_conv_dsp.h describes the blocking and the patches' layout).
 */
#ifndef MCU_NN_CONV_PAIRS_DSP_H
#define MCU_NN_CONV_PAIRS_DSP_H

#include "mcu_nn_conv_dsp.h"

/* What mcu_conv_pairs_w16 and its sibling forms take, as their arguments in this order (MCU_PAIRS_ARGS_):
 * their half-blocks' channel pairs. */
typedef struct {
    const uint32_t *end;   /* the half-block's widened patches end */
    int32_t skip;          /* the bytes of the loop's first pass skipped (whole blocks), plus 1 */
    const uint32_t *cols;  /* ... and start */
    const int32_t *bias;   /* the first pair's */
    const mcu_channel *ch; /* the first pair's, every one fast */
    int8_t *out;           /* position 0's output row (with live) or its first pair's first byte (without) */
    int32_t out_c;         /* bytes between positions */
    const void *w_end;     /* the last pair's weights end: at least one pair */
    const int16_t *live;   /* the pairs' output channels, or NULL: consecutive from out */
    const void *w;         /* the first pair's weights */
    const int8_t *src;     /* NULL: cols holds the half-block's patches; else its first position's input, */
    int32_t in_c;          /* ... that many bytes before the next position's, widened by the loop itself: */
    int32_t half_blocks;   /* half-blocks in a row, from src (1 without it), their outputs out_c * 3 apart */
    int32_t pitch;         /* 0: a pointwise conv's pixels of in_c bytes (a multiple of 8: the patches' K);
                            * else the rows of a 3x3 window over 3 channels (mcu_widen_first3x3's) */
} mcu_pairs_job;

/* A job's fields as the pair functions' arguments (AAPCS: the first four in r0-r3, the rest on the stack). */
#define MCU_PAIRS_ARGS_(j)                                                                                    \
    (j)->end, (j)->skip, (j)->cols, (j)->bias, (j)->ch, (j)->out, (j)->out_c, (j)->w_end, (j)->live, (j)->w,     \
        (j)->src, (j)->in_c, (j)->half_blocks, (j)->pitch
#define MCU_PAIRS_PARAMS_                                                                                     \
    const uint32_t *end __attribute__((unused)), int32_t skip __attribute__((unused)),                        \
        const uint32_t *cols __attribute__((unused)), const int32_t *bias __attribute__((unused)),            \
        const mcu_channel *ch __attribute__((unused)), int8_t *out __attribute__((unused)),                   \
        int32_t out_c __attribute__((unused)), const void *w_end __attribute__((unused)),                     \
        const int16_t *live __attribute__((unused)), const void *w __attribute__((unused)),                   \
        const int8_t *src __attribute__((unused)), int32_t in_c __attribute__((unused)),                      \
        int32_t half_blocks __attribute__((unused)), int32_t pitch __attribute__((unused))

/* The channel table (constants mcugen emits) is a layout the assembly walks as such, a row of
 * MCU_CHANNEL_BYTES a channel (MCU_PAIR_CHANNEL_ names the fields it reads); the C record that emits it is
 * held to it. */
#define MCU_CHANNEL_BYTES 8
#define MCU_CHANNEL_RIGHT 4
#define MCU_CHANNEL_ODD 6
_Static_assert(sizeof(mcu_channel) == MCU_CHANNEL_BYTES && offsetof(mcu_channel, right) == MCU_CHANNEL_RIGHT &&
                   offsetof(mcu_channel, odd) == MCU_CHANNEL_ODD,
               "the channel table's rows are mcu_channel's");

/* Four values of mcu_conv_pairs_w16: weights r7 (into r8-r11), patches r6, inputs r12 and lr, the sums of c0
 * r0-r2 and of c1 r3-r5. On the M4 and M7 (Armv7E-M) single loads, not LDM then LDRD: the M4 pipelines a
 * load right after another single load (not one whose base the load before wrote back: hence the weights
 * and position 1's inputs alternate), so those six words take 7 cycles where LDM and LDRD take 8; position 1
 * goes first, so that positions 0 and 2 walk the patches by post-increment and every block is the same
 * MCU_PAIR_BLOCK_BYTES. Elsewhere (the M33, the M55) LDM for the weights and MCU_PAIR_SUMS_INTERLEAVED_. */
#define MCU_PAIR_SUMS_(a0, a1, lo, hi)     \
    "smlad " a0 ", " lo ", r8, " a0 "\n\t"  \
    "smlad " a0 ", " hi ", r9, " a0 "\n\t"  \
    "smlad " a1 ", " lo ", r10, " a1 "\n\t" \
    "smlad " a1 ", " hi ", r11, " a1 "\n\t"
#if defined(__ARM_ARCH_7EM__) && defined(MCU_CORE_CORTEX_M7)
/* On the M7 (mcu_conv_pairs_twin's block says why): 13 cycles a block by its model. */
#define MCU_PAIR_BLOCK_BYTES 96
#define MCU_PAIR_FOUR_VALUES_                                                                                  \
    "ldr r8, [r7]\n\t" "ldr r10, [r7, #8]\n\t" "ldr r12, [r6]\n\t" "ldr lr, [r6, #4]\n\t"                   \
    "smlad r0, r12, r8, r0\n\t" "ldr r9, [r7, #4]\n\t" "smlad r3, r12, r10, r3\n\t" "ldr r11, [r7, #12]\n\t" \
    "smlad r0, lr, r9, r0\n\t" "smlad r3, lr, r11, r3\n\t" "ldr r12, [r6, #8]\n\t" "ldr lr, [r6, #12]\n\t"   \
    "smlad r1, r12, r8, r1\n\t" "smlad r4, r12, r10, r4\n\t" "add r7, r7, #16\n\t" "smlad r1, lr, r9, r1\n\t" \
    "ldr r12, [r6, #16]\n\t" "smlad r4, lr, r11, r4\n\t" "ldr lr, [r6, #20]\n\t" "smlad r2, r12, r8, r2\n\t"  \
    "add r6, r6, #24\n\t" "smlad r5, r12, r10, r5\n\t" "smlad r2, lr, r9, r2\n\t" "smlad r5, lr, r11, r5\n\t"
#elif defined(__ARM_ARCH_7EM__)
#define MCU_PAIR_BLOCK_BYTES 80
#define MCU_PAIR_FOUR_VALUES_                                                                                  \
    "ldr r8, [r7], #16\n\t"                                                                                    \
    "ldr r12, [r6, #8]\n\t"                                                                                    \
    "ldr r9, [r7, #-12]\n\t"                                                                                   \
    "ldr lr, [r6, #12]\n\t"                                                                                    \
    "ldr r10, [r7, #-8]\n\t"                                                                                   \
    "ldr r11, [r7, #-4]\n\t" MCU_PAIR_SUMS_("r1", "r4", "r12", "lr") "ldrd r12, lr, [r6], #16\n\t"              \
    MCU_PAIR_SUMS_("r0", "r3", "r12", "lr") "ldrd r12, lr, [r6], #8\n\t" MCU_PAIR_SUMS_("r2", "r5", "r12", "lr")
#else
/* The three positions' sums with position 0's first word in r12 and the patches (r6) already 24 bytes on,
 * each input loaded two instructions before its first use: the M33 waits a cycle for a loaded value the
 * very next instruction reads, and pipelines single loads where LDRD takes 2 (22 cycles a block where the
 * LDRDs' took 26 on the M33; the M55 the same 21 either way). */
#define MCU_PAIR_SUMS_INTERLEAVED_                                                                             \
    "ldr lr, [r6, #-20]\n\t" "smlad r0, r12, r8, r0\n\t" "smlad r3, r12, r10, r3\n\t"                         \
    "ldr r12, [r6, #-16]\n\t" "smlad r0, lr, r9, r0\n\t" "smlad r3, lr, r11, r3\n\t"                          \
    "ldr lr, [r6, #-12]\n\t" "smlad r1, r12, r8, r1\n\t" "smlad r4, r12, r10, r4\n\t"                         \
    "ldr r12, [r6, #-8]\n\t" "smlad r1, lr, r9, r1\n\t" "smlad r4, lr, r11, r4\n\t"                           \
    "ldr lr, [r6, #-4]\n\t" "smlad r2, r12, r8, r2\n\t" "smlad r5, r12, r10, r5\n\t"                          \
    "smlad r2, lr, r9, r2\n\t" "smlad r5, lr, r11, r5\n\t"
#define MCU_PAIR_BLOCK_BYTES 76
#define MCU_PAIR_FOUR_VALUES_                                                                                  \
    "ldmia r7!, {r8, r9, r10, r11}\n\t"                                                                        \
    "ldr r12, [r6], #24\n\t" MCU_PAIR_SUMS_INTERLEAVED_
#endif
/* mcu_conv_pairs_s8's four values: a word of four int8 weights per channel (kernels/layouts.py x6_filter),
 * widened into r8-r11 by SXTB16 (two instructions a word where mcu_conv_pairs_w16 loads two words). */
#define MCU_PAIR_WIDEN_WEIGHTS_ \
    "sxtb16 r9, r8, ror #8\n\t" "sxtb16 r8, r8\n\t" "sxtb16 r11, r10, ror #8\n\t" "sxtb16 r10, r10\n\t"
#if defined(__ARM_ARCH_7EM__)
#define MCU_PAIR_S8_BLOCK_BYTES 88
#define MCU_PAIR_FOUR_VALUES_S8_                                                                               \
    "ldr r8, [r7], #8\n\t"                                                                                     \
    "ldr r12, [r6, #8]\n\t"                                                                                    \
    "ldr r10, [r7, #-4]\n\t"                                                                                   \
    "ldr lr, [r6, #12]\n\t" MCU_PAIR_WIDEN_WEIGHTS_ MCU_PAIR_SUMS_("r1", "r4", "r12", "lr")                     \
    "ldrd r12, lr, [r6], #16\n\t" MCU_PAIR_SUMS_("r0", "r3", "r12", "lr") "ldrd r12, lr, [r6], #8\n\t"        \
    MCU_PAIR_SUMS_("r2", "r5", "r12", "lr")
#else
#define MCU_PAIR_S8_BLOCK_BYTES 96
#define MCU_PAIR_FOUR_VALUES_S8_                                                                               \
    "ldr r8, [r7], #8\n\t" "ldr r10, [r7, #-4]\n\t" "ldr r12, [r6], #24\n\t" MCU_PAIR_WIDEN_WEIGHTS_         \
    MCU_PAIR_SUMS_INTERLEAVED_
#endif
/* mcu_conv_pairs_twin's four values: a pair's two twin words (mcu_nn_conv_dsp.h) into r10, r11, their c0 weights
 * taken out by SXTB16 into r8, r9: the sums of c0 (r0-r2) are its own, c1's (r3-r5) mixed, 256 times its own
 * plus c0's. Two SXTB16 a block where mcu_conv_pairs_s8 takes four, at the same flash. */
#define MCU_PAIR_TWIN_WEIGHTS_ \
    "sxtb16 r8, r10\n\t"       \
    "sxtb16 r9, r11\n\t"
#if defined(__ARM_ARCH_7EM__) && defined(MCU_CORE_CORTEX_M7)
/* The M7 issues two instructions a cycle but one SMLAD, and no LDRD beside anything: single loads only, each
 * paired with an SMLAD that does not read it, both SXTB16 first in a pair with one, a position's inputs loaded
 * as the SMLADs before free r12 and lr. 13 cycles a block by its model where the M4's order took about 17
 * (the pointers moved by ADDs the SMLADs pair with). The build names the core (-DMCU_CORE_CORTEX_M7): GCC's
 * macros do not tell an M7 from an M4. */
#define MCU_PAIR_TWIN_BLOCK_BYTES 96
#define MCU_PAIR_FOUR_VALUES_TWIN_                                                                             \
    "ldr r10, [r7]\n\t" "ldr r11, [r7, #4]\n\t" "ldr r12, [r6]\n\t" "ldr lr, [r6, #4]\n\t"                  \
    "smlad r3, r12, r10, r3\n\t" "sxtb16 r8, r10\n\t" "smlad r3, lr, r11, r3\n\t" "sxtb16 r9, r11\n\t"       \
    "smlad r0, r12, r8, r0\n\t" "smlad r0, lr, r9, r0\n\t" "ldr r12, [r6, #8]\n\t" "ldr lr, [r6, #12]\n\t"   \
    "smlad r4, r12, r10, r4\n\t" "smlad r1, r12, r8, r1\n\t" "add r7, r7, #8\n\t" "smlad r4, lr, r11, r4\n\t" \
    "ldr r12, [r6, #16]\n\t" "smlad r1, lr, r9, r1\n\t" "ldr lr, [r6, #20]\n\t" "smlad r5, r12, r10, r5\n\t" \
    "add r6, r6, #24\n\t" "smlad r2, r12, r8, r2\n\t" "smlad r5, lr, r11, r5\n\t" "smlad r2, lr, r9, r2\n\t"
#elif defined(__ARM_ARCH_7EM__)
#define MCU_PAIR_TWIN_BLOCK_BYTES 80
#define MCU_PAIR_FOUR_VALUES_TWIN_                                                                             \
    "ldr r10, [r7], #8\n\t"                                                                                    \
    "ldr r12, [r6, #8]\n\t"                                                                                    \
    "ldr r11, [r7, #-4]\n\t"                                                                                   \
    "ldr lr, [r6, #12]\n\t" MCU_PAIR_TWIN_WEIGHTS_ MCU_PAIR_SUMS_("r1", "r4", "r12", "lr")                      \
    "ldrd r12, lr, [r6], #16\n\t" MCU_PAIR_SUMS_("r0", "r3", "r12", "lr") "ldrd r12, lr, [r6], #8\n\t"        \
    MCU_PAIR_SUMS_("r2", "r5", "r12", "lr")
#else
#define MCU_PAIR_TWIN_BLOCK_BYTES 88
#define MCU_PAIR_FOUR_VALUES_TWIN_                                                                             \
    "ldr r10, [r7], #8\n\t" "ldr r11, [r7, #-4]\n\t" "ldr r12, [r6], #24\n\t" MCU_PAIR_TWIN_WEIGHTS_          \
    MCU_PAIR_SUMS_INTERLEAVED_
#endif
#define MCU_STR_(x) #x
#define MCU_STR(x) MCU_STR_(x)

/* The channel at byte `at` from lr: r10 its right shift, r9 its rounding term (mcu_channel_round: two
 * instructions a channel, where a 20-byte row kept it ready at 12 more bytes a channel). */
#define MCU_PAIR_CHANNEL_(at)                                                                                  \
    "ldrsb r10, [lr, #" at " + " MCU_STR(MCU_CHANNEL_RIGHT) "]\n\t"                                              \
    "ldrsh r9, [lr, #" at " + " MCU_STR(MCU_CHANNEL_ODD) "]\n\t" "lsl r9, r9, r10\n\t" "asr r9, r9, #1\n\t"

/* A channel's three sums a, b, c of mcu_conv_pairs_w16 requantized in place (mcu_requantize_fast: r8
 * multiplier, r9 round with the output offset, r10 right; each is already the doubled accumulator its high
 * multiply takes: the channel's weights and bias are doubled, fast = 2) and saturated (the activation clamps
 * nothing more); step by step across the three (r12, r11, r6 their temporaries), so that no result is read
 * by the instruction after the one that made it (the M33 and M7 wait a cycle there; the M4 takes the same). */
#define MCU_PAIR_REQUANTIZE_(a, b, c)                                                                          \
    "smmlar r12, " a ", r8, r9\n\t" "smmlar r11, " b ", r8, r9\n\t" "smmlar r6, " c ", r8, r9\n\t"             \
    "add r12, r12, " a ", asr #31\n\t" "add r11, r11, " b ", asr #31\n\t" "add r6, r6, " c ", asr #31\n\t"     \
    "asr " a ", r12, r10\n\t" "asr " b ", r11, r10\n\t" "asr " c ", r6, r10\n\t"                               \
    "ssat " a ", #8, " a "\n\t" "ssat " b ", #8, " b "\n\t" "ssat " c ", #8, " c "\n\t"

/* The same for mcu_conv_pairs_s8, whose sums are the accumulator (fast = 1: below 2^30, so doubled it fits). */
#define MCU_PAIR_REQUANTIZE_S8_(a, b, c) \
    "add " a ", " a ", " a "\n\t" "add " b ", " b ", " b "\n\t" "add " c ", " c ", " c "\n\t" \
    MCU_PAIR_REQUANTIZE_(a, b, c)

/* A twin pair's c1 sums (r3-r5) start from 256 times its bias over c0's: r3 holds its bias, r0 c0's. */
#define MCU_PAIR_TWIN_START_ "add r3, r0, r3, lsl #8\n\t"

/* A twin pair's c1 sums made its own, doubled (mcu_twin_odd's difference over 128), before c0's are requantized:
 * the mixed sums less c0's are exactly 256 times c1's. */
#define MCU_PAIR_TWIN_FINISH_                                                        \
    "sub r3, r3, r0\n\t" "sub r4, r4, r1\n\t" "sub r5, r5, r2\n\t"                         \
    "asr r3, r3, #7\n\t" "asr r4, r4, #7\n\t" "asr r5, r5, #7\n\t"

/* The widening's steps in mcu_conv_pairs_w16's registers: a word of four int8 widened in place into (x0, x2)
 * and `y` into (x1, x3); a pair stored at byte `at` of the half-block's patches (r3). */
#define MCU_PAIR_WORD_(x, y) "sxtb16 " y ", " x ", ror #8\n\t" "sxtb16 " x ", " x "\n\t"
#define MCU_PAIR_STORE_(x, y, at) "str " x ", [r3, #" at "]\n\t" "str " y ", [r3, #" at " + 4]\n\t"

/* Three pixels' eight values at r0, r1, r2 widened into a half-block's patches at r3 (r4-r11 scratch): the
 * loads back to back, each pixel's four stores back to back. */
#define MCU_PAIR_WIDEN_(a, b, at)                                              \
    MCU_PAIR_WORD_(a, "r10") MCU_PAIR_WORD_(b, "r11") MCU_PAIR_STORE_(a, "r10", at) \
    MCU_PAIR_STORE_(b, "r11", at " + 24")

/* A 3x3 window over 3 channels (corner r0, rows r2 apart) widened as mcu_widen_first3x3 widens it, into the
 * half-block's position at byte `at` (r4-r12 and lr scratch); r0 moves on to the next position's (r1 on). */
#define MCU_PAIR_FIRST3X3_(at)                                                                                 \
    "add r11, r0, r2\n\t"                                                                                     \
    "add r12, r11, r2\n\t"                                                                                    \
    "ldr r4, [r0]\n\t"                                                                                        \
    "ldr r5, [r0, #4]\n\t"                                                                                    \
    "ldr r6, [r11]\n\t"                                                                                       \
    "ldr r7, [r11, #4]\n\t"                                                                                   \
    "ldr r8, [r12]\n\t"                                                                                       \
    "ldr r9, [r12, #4]\n\t"                                                                                   \
    "ldrb r10, [r0, #8]\n\t"                                                                                  \
    "ldrb lr, [r11, #8]\n\t"                                                                                  \
    "ldrb r11, [r12, #8]\n\t"                                                                                 \
    "orr r10, r10, lr, lsl #8\n\t"                                                                            \
    "orr r10, r10, r11, lsl #16\n\t"                                                                          \
    MCU_PAIR_WORD_("r4", "lr") MCU_PAIR_WORD_("r5", "r11") MCU_PAIR_WORD_("r6", "r12")                         \
    MCU_PAIR_STORE_("r4", "lr", at) MCU_PAIR_STORE_("r5", "r11", at " + 24") MCU_PAIR_STORE_("r6", "r12", at " + 48") \
    MCU_PAIR_WORD_("r7", "lr") MCU_PAIR_WORD_("r8", "r11") MCU_PAIR_WORD_("r9", "r12")                         \
    MCU_PAIR_STORE_("r7", "lr", at " + 72") MCU_PAIR_STORE_("r8", "r11", at " + 96")                           \
    MCU_PAIR_STORE_("r9", "r12", at " + 120") MCU_PAIR_WORD_("r10", "lr") MCU_PAIR_STORE_("r10", "lr", at " + 144") \
    "add r0, r0, r1\n\t"

/*
 * The channel pairs of full half-blocks (three positions) in one loop of assembly, for the DSP conv where
 * every channel is fast and the activation clamps nothing SSAT does not:
 * GCC kept the pointers that walk the pairs and the channels' constants on the stack, reloading and
 * storing them around every pass, ~70 cycles, more than a K = 8..16 layer's loop itself. Here the sums
 * are r0-r2 (c0 at positions 0-2) and r3-r5 (c1), the patches r6 and weights r7 (from pair to pair, the
 * pairs' end told by theirs); the job's fields, the function's arguments, are copied to the frame in their
 * order (r0-r3, then the stacked ones past the saved registers and the frame), which the loop's end and entry
 * are read from, and each pass stores only what moved (~72 cycles a pair besides its four-value blocks). The loop
 * is eight blocks of four values (32), entered part-way (Duff's device) where the values are not a whole
 * number of passes: a jump instead of tests for the remainder. With src, half-blocks one after the
 * other, each one's inputs widened here: a pointwise conv's three pixels (1.6 cycles a value), or (pitch)
 * three 3x3 windows over 3 channels of a first layer's output row, not by a call per half-block from C
 * (~140 cycles of its tests and the call on VWW's K = 8 layer, ~200 on its first layer). `four`: a block of
 * four values (its bytes `block_bytes`), `start`: the sums' start past the biases, `finish`: the sums' end
 * before c0's (`requantize0`: a sum's requantization) and c1's (`requantize1`) are requantized, the weights'
 * form's.
 */
#define MCU_CONV_PAIRS_ASM_(four, block_bytes, start, finish, requantize0, requantize1) \
    "push {r4, r5, r6, r7, r8, r9, r10, r11, lr}\n\t"                                                              \
    "sub sp, sp, #72\n\t"                                                                                          \
    "mov r4, r3\n\t"                                                                                               \
    "mov r3, r2\n\t"                                                                                               \
    /* where the first pass enters the loop (Thumb bit set): past the blocks the count of four-value               \
     * blocks leaves over from whole passes of eight */                                                            \
    "adr r11, 3f\n\t"                                                                                              \
    "add r2, r1, r11\n\t"                                                                                          \
    "mov r1, r0\n\t"                                                                                               \
    "add r0, sp, #(72 + 36)\n\t"                                                                                   \
    "ldmia r0!, {r5, r6, r7, r8, r9, r10}\n\t"                                                                     \
    "stmia sp, {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10}\n\t"                                                      \
    /* without src, one half-block: the rest of the job is not read */                                             \
    "ldr r11, [r0]\n\t"                                                                                            \
    "str r11, [sp, #40]\n\t"                                                                                       \
    "cmp r11, #0\n\t"                                                                                              \
    "beq 5f\n\t"                                                                                                   \
    "ldmia r0, {r0, r1, r2, r3}\n\t"                                                                               \
    "add r11, sp, #40\n\t"                                                                                         \
    "stmia r11, {r0, r1, r2, r3, r4, r5, r6, r9}\n\t"                                                              \
    /* r0-r2 the three pixels (src r0, in_c r1), the first's end r12 (the second's start); src moves on            \
     * three pixels. With a pitch, three windows out of line (10:). */                                             \
    "0:\n\t"                                                                                                       \
    "ldr r3, [sp, #8]\n\t"                                                                                         \
    "ldr r2, [sp, #52]\n\t"                                                                                        \
    "cmp r2, #0\n\t"                                                                                               \
    "bne 10f\n\t"                                                                                                  \
    "add r1, r0, r1\n\t"                                                                                           \
    "mov r12, r1\n\t"                                                                                              \
    "sub r4, r1, r0\n\t"                                                                                           \
    "add r2, r1, r4\n\t"                                                                                           \
    "add r4, r2, r4\n\t"                                                                                           \
    "str r4, [sp, #40]\n\t"                                                                                        \
    "4:\n\t"                                                                                                       \
    "ldr r5, [r0, #4]\n\t"                                                                                         \
    "ldr r4, [r0], #8\n\t"                                                                                         \
    "ldr r7, [r1, #4]\n\t"                                                                                         \
    "ldr r6, [r1], #8\n\t"                                                                                         \
    "ldr r9, [r2, #4]\n\t"                                                                                         \
    "ldr r8, [r2], #8\n\t"                                                                                         \
    MCU_PAIR_WIDEN_("r4", "r5", "0") MCU_PAIR_WIDEN_("r6", "r7", "8") MCU_PAIR_WIDEN_("r8", "r9", "16")            \
    "add r3, r3, #48\n\t"                                                                                          \
    "cmp r0, r12\n\t"                                                                                              \
    "bne 4b\n\t"                                                                                                   \
    "5:\n\t"                                                                                                       \
    "ldr r7, [sp, #36]\n\t"                                                                                        \
    "1:\n\t"                                                                                                       \
    /* the sums start from the pair's biases; the weights (r7) go on from the last pair's */                       \
    "ldr r12, [sp, #12]\n\t"                                                                                       \
    "ldrd r0, r3, [r12], #8\n\t"                                                                                   \
    start                                                                                                          \
    "mov r1, r0\n\t"                                                                                               \
    "mov r2, r0\n\t"                                                                                               \
    "mov r4, r3\n\t"                                                                                               \
    "mov r5, r3\n\t"                                                                                               \
    "ldr r6, [sp, #8]\n\t"                                                                                         \
    "str r12, [sp, #12]\n\t"                                                                                       \
    "ldr r11, [sp, #4]\n\t"                                                                                        \
    "bx r11\n\t"                                                                                                   \
    "3:\n\t"                                                                                                       \
    four                                                                                                           \
    "9:\n\t"                                                                                                       \
    ".if 9b - 3b - " MCU_STR(block_bytes) "\n\t"                                                                   \
    ".error \"a block of four values is not block_bytes: the loop's entry is computed so\"\n\t"                    \
    ".endif\n\t"                                                                                                   \
    four four four                                                                                                 \
    four four four four                                                                                            \
    "ldr r12, [sp]\n\t"                                                                                            \
    "cmp r6, r12\n\t"                                                                                              \
    "bne 3b\n\t"                                                                                                   \
    finish                                                                                                         \
    /* the six sums requantized in place, c0's constants then c1's (the channel pointer moved on by the            \
     * first load, stored by the next: single loads and stores pipeline) */                                        \
    "ldr lr, [sp, #16]\n\t"                                                                                        \
    "ldr r8, [lr], #(2 * " MCU_STR(MCU_CHANNEL_BYTES) ")\n\t"                                                      \
    "str lr, [sp, #16]\n\t"                                                                                        \
    MCU_PAIR_CHANNEL_("-2 * " MCU_STR(MCU_CHANNEL_BYTES))                                                         \
    requantize0("r0", "r1", "r2")                                                                                  \
    "ldr r8, [lr, #-" MCU_STR(MCU_CHANNEL_BYTES) "]\n\t"                                                           \
    MCU_PAIR_CHANNEL_("-" MCU_STR(MCU_CHANNEL_BYTES))                                                             \
    requantize1("r3", "r4", "r5")                                                                                  \
    /* stored: the dense conv's pair as one halfword a position (r8 at position 0), the three stores               \
     * and the pointer's back to back, live channels' out of line, so that the dense conv takes no branch */       \
    "ldr r6, [sp, #32]\n\t"                                                                                        \
    "ldr r8, [sp, #20]\n\t"                                                                                        \
    "ldr r11, [sp, #24]\n\t"                                                                                       \
    "cbnz r6, 7f\n\t"                                                                                              \
    "bfi r0, r3, #8, #8\n\t"                                                                                       \
    "bfi r1, r4, #8, #8\n\t"                                                                                       \
    "bfi r2, r5, #8, #8\n\t"                                                                                       \
    "add r12, r8, r11, lsl #1\n\t"                                                                                 \
    "add r9, r8, #2\n\t"                                                                                           \
    "strh r0, [r8]\n\t"                                                                                            \
    "strh r1, [r8, r11]\n\t"                                                                                       \
    "strh r2, [r12]\n\t"                                                                                           \
    "str r9, [sp, #20]\n\t"                                                                                        \
    "6:\n\t"                                                                                                       \
    "ldr r12, [sp, #28]\n\t"                                                                                       \
    "cmp r7, r12\n\t"                                                                                              \
    "bne 1b\n\t"                                                                                                   \
    /* the next half-block from the first pair's bias, channel and live again, its outputs three                   \
     * positions on */                                                                                             \
    "ldr r0, [sp, #40]\n\t"                                                                                        \
    "cbz r0, 8f\n\t"                                                                                               \
    "ldr r0, [sp, #48]\n\t"                                                                                        \
    "subs r0, r0, #1\n\t"                                                                                          \
    "beq 8f\n\t"                                                                                                   \
    "str r0, [sp, #48]\n\t"                                                                                        \
    "add r11, sp, #56\n\t"                                                                                         \
    "ldmia r11, {r1, r2, r3, r4}\n\t"                                                                              \
    "ldr r5, [sp, #24]\n\t"                                                                                        \
    "add r3, r3, r5\n\t"                                                                                           \
    "add r3, r3, r5, lsl #1\n\t"                                                                                   \
    "str r1, [sp, #12]\n\t"                                                                                        \
    "str r2, [sp, #16]\n\t"                                                                                        \
    "str r3, [sp, #20]\n\t"                                                                                        \
    "str r4, [sp, #32]\n\t"                                                                                        \
    "str r3, [sp, #64]\n\t"                                                                                        \
    "ldr r0, [sp, #40]\n\t"                                                                                        \
    "ldr r1, [sp, #44]\n\t"                                                                                        \
    "b 0b\n\t"                                                                                                     \
    "8:\n\t"                                                                                                       \
    "add sp, sp, #72\n\t"                                                                                          \
    "pop {r4, r5, r6, r7, r8, r9, r10, r11, pc}\n\t"                                                               \
    "7:\n\t"                                                                                                       \
    "ldrsh r9, [r6], #2\n\t"                                                                                       \
    "ldrsh r10, [r6], #2\n\t"                                                                                      \
    "str r6, [sp, #32]\n\t"                                                                                        \
    "add r9, r8, r9\n\t"                                                                                           \
    "add r10, r8, r10\n\t"                                                                                         \
    "strb r0, [r9]\n\t"                                                                                            \
    "strb r1, [r9, r11]\n\t"                                                                                       \
    "add r9, r9, r11, lsl #1\n\t"                                                                                  \
    "strb r2, [r9]\n\t"                                                                                            \
    "strb r3, [r10]\n\t"                                                                                           \
    "strb r4, [r10, r11]\n\t"                                                                                      \
    "add r10, r10, r11, lsl #1\n\t"                                                                                \
    "strb r5, [r10]\n\t"                                                                                           \
    "b 6b\n\t"                                                                                                     \
    "10:\n\t"                                                                                                      \
    "add r4, r1, r1, lsl #1\n\t"                                                                                   \
    "add r4, r0, r4\n\t"                                                                                           \
    "str r4, [sp, #40]\n\t"                                                                                        \
    MCU_PAIR_FIRST3X3_("0") MCU_PAIR_FIRST3X3_("8") MCU_PAIR_FIRST3X3_("16")                                       \
    "b 5b"                                                                                                         \

#endif
