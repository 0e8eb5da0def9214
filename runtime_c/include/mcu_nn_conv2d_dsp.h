/*
 * The DSP CONV_2D kernels' shared body (mcu_conv2d_s8_x6, _s8_w16, _s4_x6, the live and split forms: each
 * is mcu_conv2d_s8_dsp with its constant `wide` and `split`; mcu_nn_conv_dsp.h describes the blocking), a
 * template each kernel specialises: out of line, with `wide` and `split` variables, VWW's convs took 5.8%
 * more cycles on the M4 (measured), and one function holding every specialisation would put the flash of
 * all of them into every build.
 */
#ifndef MCU_NN_CONV2D_DSP_H
#define MCU_NN_CONV2D_DSP_H

#include "mcu_nn_conv_dsp.h"

/* What mcu_conv_pairs_w16 reads: one half-block's channel pairs (field offsets are its assembly's). */
typedef struct {
    const uint32_t *end;   /* the half-block's widened patches end */
    int32_t skip;          /* the bytes of the loop's first pass skipped (whole blocks), plus 1 */
    const uint32_t *cols;  /* ... and start */
    const int32_t *bias;   /* the first pair's */
    const mcu_channel *ch; /* the first pair's, every one fast */
    int8_t *out;           /* position 0's output row (with live) or its first pair's first byte (without) */
    int32_t out_c;         /* bytes between positions */
    const int16_t *w_end;  /* the last pair's weights end: at least one pair */
    const int16_t *live;   /* the pairs' output channels, or NULL: consecutive from out */
    const int16_t *w;      /* the first pair's widened weights */
    const int8_t *src;     /* NULL: cols holds the half-block's patches; else a pointwise conv's first pixel, */
    int32_t in_c;          /* ... its bytes (a multiple of 8: the patches' K), widened by the loop itself */
    int32_t half_blocks;   /* half-blocks in a row, from src (1 without it), their outputs out_c * 3 apart */
} mcu_pairs_job;

_Static_assert(sizeof(mcu_channel) == 20 && offsetof(mcu_channel, round) == 8 && offsetof(mcu_channel, right) == 12,
               "mcu_conv_pairs_w16 reads mcu_channel at these offsets");
_Static_assert(sizeof(mcu_pairs_job) == 52 && offsetof(mcu_pairs_job, w) == 36 &&
                   offsetof(mcu_pairs_job, half_blocks) == 48,
               "mcu_conv_pairs_w16 copies mcu_pairs_job to its frame as thirteen words");

/* Four values of mcu_conv_pairs_w16: weights r7 (into r8-r11), patches r6, inputs r12 and lr, the sums of c0
 * r0-r2 and of c1 r3-r5. On the M4 and M7 (Armv7E-M) single loads, not LDM then LDRD: the M4 pipelines a
 * load right after another single load (not one whose base the load before wrote back: hence the weights
 * and position 1's inputs alternate), so those six words take 7 cycles where LDM and LDRD take 8; position 1
 * goes first, so that positions 0 and 2 walk the patches by post-increment and every block is the same
 * MCU_PAIR_BLOCK_BYTES. Elsewhere (the M33, judged by instructions: mcugen has no timing for it) LDM and
 * LDRD, 16 instructions a block, not 21. */
#define MCU_PAIR_SUMS_(a0, a1, lo, hi)     \
    "smlad " a0 ", " lo ", r8, " a0 "\n\t"  \
    "smlad " a0 ", " hi ", r9, " a0 "\n\t"  \
    "smlad " a1 ", " lo ", r10, " a1 "\n\t" \
    "smlad " a1 ", " hi ", r11, " a1 "\n\t"
#if defined(__ARM_ARCH_7EM__)
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
#define MCU_PAIR_BLOCK_BYTES 64
#define MCU_PAIR_FOUR_VALUES_                                                                                  \
    "ldmia r7!, {r8, r9, r10, r11}\n\t"                                                                        \
    "ldrd r12, lr, [r6], #8\n\t" MCU_PAIR_SUMS_("r0", "r3", "r12", "lr") "ldrd r12, lr, [r6], #8\n\t"          \
    MCU_PAIR_SUMS_("r1", "r4", "r12", "lr") "ldrd r12, lr, [r6], #8\n\t" MCU_PAIR_SUMS_("r2", "r5", "r12", "lr")
#endif
#define MCU_STR_(x) #x
#define MCU_STR(x) MCU_STR_(x)

/* Sum `a` of mcu_conv_pairs_w16 requantized in place (mcu_requantize_fast: r8 multiplier, r9 round with
 * the output offset, r10 right; `a` is already the doubled accumulator its high multiply takes: the
 * channel's weights and bias are doubled, fast = 2) and saturated (the activation clamps nothing more). */
#define MCU_PAIR_REQUANTIZE_(a)                 \
    "smmlar r12, " a ", r8, r9\n\t"             \
    "add r12, r12, " a ", asr #31\n\t"          \
    "asr " a ", r12, r10\n\t"                   \
    "ssat " a ", #8, " a "\n\t"

/* Three pixels' eight values at r0, r1, r2 widened into a half-block's patches at r3 (r4-r11 scratch): the
 * loads back to back, each pixel's four stores back to back. */
#define MCU_PAIR_WIDEN_(a, b, at)                                                    \
    "sxtb16 r10, " a ", ror #8\n\t" "sxtb16 " a ", " a "\n\t"                          \
    "sxtb16 r11, " b ", ror #8\n\t" "sxtb16 " b ", " b "\n\t"                          \
    "str " a ", [r3, #" at "]\n\t" "str r10, [r3, #" at " + 4]\n\t"                   \
    "str " b ", [r3, #" at " + 24]\n\t" "str r11, [r3, #" at " + 28]\n\t"

/*
 * The channel pairs of full half-blocks (three positions) in one loop of assembly, for the widened conv
 * (MCU_SUMS_2X3_W16's loop) where every channel is fast and the activation clamps nothing SSAT does not:
 * GCC kept the pointers that walk the pairs and the channels' constants on the stack, reloading and
 * storing them around every pass, ~70 cycles, more than a K = 8..16 layer's loop itself. Here the sums
 * are r0-r2 (c0 at positions 0-2) and r3-r5 (c1), the patches r6 and weights r7 (from pair to pair, the
 * pairs' end told by theirs); the job is copied to the frame, which the loop's end and entry are read
 * from, and each pass stores only what moved (~72 cycles a pair besides its four-value blocks). The loop
 * is eight blocks of four values (32), entered part-way (Duff's device) where the values are not a whole
 * number of passes: a jump instead of tests for the remainder. With src, a pointwise conv's half-blocks
 * one after the other: each one's three pixels widened here (1.6 cycles a value), not by a call per
 * half-block from C (~140 cycles of its tests and the call on VWW's K = 8 layer).
 */
static __attribute__((naked, noinline, unused)) void mcu_conv_pairs_w16(
    const mcu_pairs_job *job __attribute__((unused)))
{
    /* job arrives in r0 (AAPCS); a naked function holds basic assembly only. The frame: the job's thirteen
     * words (skip made the loop's entry), then the half-block's first bias, channel, output and live */
    __asm__ volatile(
        "push {r4, r5, r6, r7, r8, r9, r10, r11, lr}\n\t"
        "sub sp, sp, #68\n\t"
        "ldmia r0!, {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10}\n\t"
        /* where the first pass enters the loop (Thumb bit set): past the blocks the count of four-value
         * blocks leaves over from whole passes of eight */
        "adr r11, 3f\n\t"
        "add r2, r2, r11\n\t"
        "stmia sp, {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10}\n\t"
        "ldmia r0, {r0, r1, r2}\n\t"
        "add r11, sp, #40\n\t"
        "stmia r11, {r0, r1, r2, r4, r5, r6, r9}\n\t"
        "cmp r0, #0\n\t"
        "beq 5f\n\t"
        /* r0-r2 the three pixels (src r0, in_c r1), the first's end r12 (the second's start); src moves on
         * three pixels */
        "0:\n\t"
        "ldr r3, [sp, #8]\n\t"
        "add r1, r0, r1\n\t"
        "mov r12, r1\n\t"
        "sub r4, r1, r0\n\t"
        "add r2, r1, r4\n\t"
        "add r4, r2, r4\n\t"
        "str r4, [sp, #40]\n\t"
        "4:\n\t"
        "ldr r5, [r0, #4]\n\t"
        "ldr r4, [r0], #8\n\t"
        "ldr r7, [r1, #4]\n\t"
        "ldr r6, [r1], #8\n\t"
        "ldr r9, [r2, #4]\n\t"
        "ldr r8, [r2], #8\n\t"
        MCU_PAIR_WIDEN_("r4", "r5", "0") MCU_PAIR_WIDEN_("r6", "r7", "8") MCU_PAIR_WIDEN_("r8", "r9", "16")
        "add r3, r3, #48\n\t"
        "cmp r0, r12\n\t"
        "bne 4b\n\t"
        "5:\n\t"
        "ldr r7, [sp, #36]\n\t"
        "1:\n\t"
        /* the sums start from the pair's biases; the weights (r7) go on from the last pair's */
        "ldr r12, [sp, #12]\n\t"
        "ldrd r0, r3, [r12], #8\n\t"
        "mov r1, r0\n\t"
        "mov r2, r0\n\t"
        "mov r4, r3\n\t"
        "mov r5, r3\n\t"
        "ldr r6, [sp, #8]\n\t"
        "str r12, [sp, #12]\n\t"
        "ldr r11, [sp, #4]\n\t"
        "bx r11\n\t"
        "3:\n\t"
        MCU_PAIR_FOUR_VALUES_
        "9:\n\t"
        ".if 9b - 3b - " MCU_STR(MCU_PAIR_BLOCK_BYTES) "\n\t"
        ".error \"a block of mcu_conv_pairs_w16 is not MCU_PAIR_BLOCK_BYTES: the loop's entry is computed so\"\n\t"
        ".endif\n\t"
        MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_
        MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_ MCU_PAIR_FOUR_VALUES_
        "ldr r12, [sp]\n\t"
        "cmp r6, r12\n\t"
        "bne 3b\n\t"
        /* the six sums requantized in place, c0's constants then c1's (the channel pointer moved on by the
         * first load, stored by the next: single loads and stores pipeline) */
        "ldr lr, [sp, #16]\n\t"
        "ldr r8, [lr], #40\n\t"
        "str lr, [sp, #16]\n\t"
        "ldrd r9, r10, [lr, #-32]\n\t"
        MCU_PAIR_REQUANTIZE_("r0") MCU_PAIR_REQUANTIZE_("r1") MCU_PAIR_REQUANTIZE_("r2")
        "ldr r8, [lr, #-20]\n\t"
        "ldrd r9, r10, [lr, #-12]\n\t"
        MCU_PAIR_REQUANTIZE_("r3") MCU_PAIR_REQUANTIZE_("r4") MCU_PAIR_REQUANTIZE_("r5")
        /* stored: the dense conv's pair as one halfword a position (r8 at position 0), the three stores
         * and the pointer's back to back, live channels' out of line, so that the dense conv takes no branch */
        "ldr r6, [sp, #32]\n\t"
        "ldr r8, [sp, #20]\n\t"
        "ldr r11, [sp, #24]\n\t"
        "cbnz r6, 7f\n\t"
        "bfi r0, r3, #8, #8\n\t"
        "bfi r1, r4, #8, #8\n\t"
        "bfi r2, r5, #8, #8\n\t"
        "add r12, r8, r11, lsl #1\n\t"
        "add r9, r8, #2\n\t"
        "strh r0, [r8]\n\t"
        "strh r1, [r8, r11]\n\t"
        "strh r2, [r12]\n\t"
        "str r9, [sp, #20]\n\t"
        "6:\n\t"
        "ldr r12, [sp, #28]\n\t"
        "cmp r7, r12\n\t"
        "bne 1b\n\t"
        /* the next half-block from the first pair's bias, channel and live again, its outputs three
         * positions on */
        "ldr r0, [sp, #48]\n\t"
        "subs r0, r0, #1\n\t"
        "beq 8f\n\t"
        "str r0, [sp, #48]\n\t"
        "add r11, sp, #52\n\t"
        "ldmia r11, {r1, r2, r3, r4}\n\t"
        "ldr r5, [sp, #24]\n\t"
        "add r3, r3, r5\n\t"
        "add r3, r3, r5, lsl #1\n\t"
        "str r1, [sp, #12]\n\t"
        "str r2, [sp, #16]\n\t"
        "str r3, [sp, #20]\n\t"
        "str r4, [sp, #32]\n\t"
        "str r3, [sp, #60]\n\t"
        "ldr r0, [sp, #40]\n\t"
        "ldr r1, [sp, #44]\n\t"
        "b 0b\n\t"
        "8:\n\t"
        "add sp, sp, #68\n\t"
        "pop {r4, r5, r6, r7, r8, r9, r10, r11, pc}\n\t"
        "7:\n\t"
        "ldrsh r9, [r6], #2\n\t"
        "ldrsh r10, [r6], #2\n\t"
        "str r6, [sp, #32]\n\t"
        "add r9, r8, r9\n\t"
        "add r10, r8, r10\n\t"
        "strb r0, [r9]\n\t"
        "strb r1, [r9, r11]\n\t"
        "add r9, r9, r11, lsl #1\n\t"
        "strb r2, [r9]\n\t"
        "strb r3, [r10]\n\t"
        "strb r4, [r10, r11]\n\t"
        "add r10, r10, r11, lsl #1\n\t"
        "strb r5, [r10]\n\t"
        "b 6b");
}

/*
 * All output channels of `count` <= MCU_HALF_BLOCK positions (a half-block), from their widened patches
 * at `cols`; the output of position p goes to out[p * out_c + c]. Positions past `count` compute on
 * stale scratch and are not stored.
 */
static inline __attribute__((always_inline)) void mcu_conv_half_channels(
    const mcu_conv_params *conv, const mcu_channel *channels, const uint32_t *cols, int32_t count, int32_t k8,
    int32_t out_c, int32_t computed, const int16_t *live, const void *filter, const int32_t *bias, int8_t *out,
    int wide, int fast_pairs)
{
    const uint32_t *const end = cols + (k8 / 4) * 2 * MCU_HALF_BLOCK;
    const int32_t odd = k8 / 8 & 1; /* an odd eight of values before the loop's sixteens */
    const int32_t offset = conv->output_offset;
    const mcu_activation act = conv->activation;
    const int full = act.min <= -128 && act.max >= 127;
    /* pointers walk the channels: indices and their products would live on the stack around the loop */
    const int8_t *w = (const int8_t *)filter;
    const int16_t *w16 = (const int16_t *)filter;
    const int32_t *b = bias;
    const mcu_channel *ch = channels;
    const int16_t *lv = live;
    int8_t *o = out;
    if (wide == 1 && fast_pairs && full && count == MCU_HALF_BLOCK && computed >= 2) {
        const int32_t skip = (8 - k8 / 4 % 8) % 8 * MCU_PAIR_BLOCK_BYTES + 1;
        const mcu_pairs_job job = {end, skip, cols, bias, channels, out, out_c, w16 + computed / 2 * 2 * k8, live, w16,
                                   NULL, 0, 1};
        mcu_conv_pairs_w16(&job);
        o += computed / 2 * 2;  /* the loop below has nothing left */
    }
    for (int8_t *const pairs_end = out + computed / 2 * 2; o < pairs_end; w += (wide == 2 ? k8 : 2 * k8),
                                                                          w16 += 2 * k8, b += 2, ch += 2, o += 2,
                                                                          lv += 2) {
        if (wide == 2) {
            int32_t p0c0 = 0, p1c0 = 0, p2c0 = 0, p0c1 = 0, p1c1 = 0, p2c1 = 0;
            MCU_SUMS_2X3_S4(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
            mcu_conv_store_channel(ch[0], offset, act, full, mcu_s4_sum(b[0], p0c0), mcu_s4_sum(b[0], p1c0),
                                   mcu_s4_sum(b[0], p2c0), count, out_c, live ? out + lv[0] : o);
            mcu_conv_store_channel(ch[1], offset, act, full, mcu_s4_sum(b[1], p0c1), mcu_s4_sum(b[1], p1c1),
                                   mcu_s4_sum(b[1], p2c1), count, out_c, live ? out + lv[1] : o + 1);
            continue;
        }
        int32_t p0c0 = b[0], p1c0 = b[0], p2c0 = b[0], p0c1 = b[1], p1c1 = b[1], p2c1 = b[1];
        if (wide && count == 1) {
            MCU_SUMS_2X1_W16(cols, end, w16, p0c0, p0c1);
        } else if (wide && count == 2) {
            MCU_SUMS_2X2_W16(cols, end, w16, p0c0, p0c1, p1c0, p1c1);
        } else if (wide) {
            MCU_SUMS_2X3_W16(cols, end, odd, w16, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
        } else {
            MCU_SUMS_2X3(cols, end, w, p0c0, p1c0, p2c0, p0c1, p1c1, p2c1);
        }
        const int h0 = wide && ch[0].fast == 2, h1 = wide && ch[1].fast == 2;  /* doubled sums halved */
        mcu_conv_store_channel(ch[0], offset, act, full, p0c0 >> h0, p1c0 >> h0, p2c0 >> h0, count, out_c,
                               live ? out + lv[0] : o);
        mcu_conv_store_channel(ch[1], offset, act, full, p0c1 >> h1, p1c1 >> h1, p2c1 >> h1, count, out_c,
                               live ? out + lv[1] : o + 1);
    }
    const int32_t c = computed / 2 * 2;
    if (c < computed) {  /* the last of an odd count: its weights alone, a word per four values */
        int32_t a0 = bias[c], a1 = bias[c], a2 = bias[c];
        if (wide == 2) {
            int32_t s0 = 0, s1 = 0, s2 = 0;
            mcu_sums_1x3(cols, end, (const int8_t *)filter + c / 2 * k8, 2, &s0, &s1, &s2);
            a0 = mcu_s4_sum(a0, s0), a1 = mcu_s4_sum(a1, s1), a2 = mcu_s4_sum(a2, s2);
        } else {
            mcu_sums_1x3(cols, end, (const int8_t *)filter + c * k8 * (wide ? 2 : 1), wide, &a0, &a1, &a2);
            const int h = wide && channels[c].fast == 2;  /* doubled sums halved */
            a0 >>= h, a1 >>= h, a2 >>= h;
        }
        mcu_conv_store_channel(channels[c], offset, act, full, a0, a1, a2, count, out_c, out + (live ? live[c] : c));
    }
}

static inline __attribute__((always_inline)) void mcu_conv2d_s8_dsp(
    const mcu_conv_params *conv, const mcu_channel *channels, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const void *filter, const int32_t *bias, const int16_t *live, const int8_t *pruned,
    const mcu_dims *output_dims, int8_t *output, int16_t *scratch, int wide, int split)
{
    /* copies: the widening's assembly may write any memory, so GCC would reload every field through its
     * pointer per position (VWW's first layer: ~40 cycles a position) */
    const mcu_conv_params cv = *conv;
    const mcu_dims in_dims = *input_dims, f_dims = *filter_dims, out_dims = *output_dims;
    conv = &cv, input_dims = &in_dims, filter_dims = &f_dims, output_dims = &out_dims;
    const int32_t taps = filter_dims->h * filter_dims->w * input_dims->c, k4 = (taps + 3) & ~3, k8 = (taps + 7) & ~7;
    const int32_t out_c = output_dims->c, positions = output_dims->n * output_dims->h * output_dims->w;
    const int direct = mcu_conv_direct(conv, filter_dims, input_dims->c);
    uint32_t *cols = (uint32_t *)(void *)scratch;
    int8_t *patch = (int8_t *)(cols + MCU_CONV_BLOCK * k8 / 2);

    const int8_t fill = (int8_t)-conv->input_offset;
    /* windows inside the image skip mcu_gather_patch: first layers with 1-3 channels spent most of their
     * time there */
    const int32_t in_c = input_dims->c, in_w = input_dims->w, in_h = input_dims->h;
    const int32_t row = filter_dims->w * in_c, pitch = conv->dilation.h * in_w * in_c;
    const int32_t last_row = (filter_dims->h - 1) * conv->dilation.h, last_col = filter_dims->w - 1;
    const int windows = !direct && conv->dilation.w == 1 && pitch >= 4 && row >= 2;
    /* a 1x1 stride-1 conv reads position p's pixel at p * in_c (a strip's rows start -padding.h rows down) */
    const int contiguous = direct && conv->stride.h == 1 && conv->stride.w == 1 &&
                           (input_dims->n == 1 || conv->padding.h == 0);
    const int8_t *const pixels = input - conv->padding.h * in_w * in_c;
    mcu_conv_pad_tails(taps, k8, fill, patch, cols);
    const int32_t computed = live != NULL ? filter_dims->n : out_c;
    int fast_pairs = 1;  /* every channel the pairs cover doubled: mcu_conv_pairs_w16 requantizes them all so */
    for (int32_t c = 0; c < computed / 2 * 2; ++c) {
        fast_pairs &= channels[c].fast == 2;
    }
    uint32_t *dsts[MCU_CONV_BLOCK];  /* each position's first pair: the division by MCU_HALF_BLOCK once */
    for (int32_t p = 0; p < MCU_CONV_BLOCK; ++p) {
        dsts[p] = mcu_conv_cols_of(cols, p, k8);
    }
    int32_t first = 0;
    const int full = conv->activation.min <= -128 && conv->activation.max >= 127;
    if (contiguous && wide == 1 && fast_pairs && full && computed >= 2 && computed % 2 == 0) {
        /* a pointwise conv whose channels all take the pairs' loop: a half-block's three pixels widened,
         * then its pairs, with none of the block loop's tests (VWW's K = 8..32 layers spent more there
         * than in their sums) */
        const int32_t skip = (8 - k8 / 4 % 8) % 8 * MCU_PAIR_BLOCK_BYTES + 1;
        const int16_t *const w16 = (const int16_t *)filter;
        const int32_t half_blocks = positions / MCU_HALF_BLOCK;
        mcu_pairs_job job = {cols + (k8 / 4) * 2 * MCU_HALF_BLOCK, skip, cols, bias, channels, output, out_c,
                             w16 + computed / 2 * 2 * k8, live, w16, pixels, in_c, half_blocks};
        if (live == NULL) {
            mcu_conv_pairs_w16(&job);
        }
        /* pruned channels' outputs are written between a half-block's widening and its sums (in place, they
         * may overwrite its pixels): a call a half-block */
        job.src = NULL, job.half_blocks = 1;
        for (int32_t h = 0; live != NULL && h < half_blocks; ++h) {
            const int8_t *const px = pixels + h * MCU_HALF_BLOCK * in_c;
            mcu_conv_widen_patch(px, k4, dsts[0]);
            mcu_conv_widen_patch(px + in_c, k4, dsts[1]);
            mcu_conv_widen_patch(px + 2 * in_c, k4, dsts[2]);
            job.out = output + h * MCU_HALF_BLOCK * out_c;
            for (int32_t p = 0; p < MCU_HALF_BLOCK; ++p) {
                memcpy(job.out + p * out_c, pruned, (size_t)out_c);
            }
            mcu_conv_pairs_w16(&job);
        }
        first = half_blocks * MCU_HALF_BLOCK;
    }
    mcu_position at = {0, 0, 0};
    for (; first < positions; first += MCU_CONV_BLOCK) {
        const int32_t count = positions - first < MCU_CONV_BLOCK ? positions - first : MCU_CONV_BLOCK;
        for (int32_t p = 0; p < count; ++p, mcu_position_next(&at, output_dims)) {
            uint32_t *dst = dsts[p];
            if (contiguous) {
                mcu_conv_widen_patch(pixels + (first + p) * in_c, k4, dst);
                continue;
            }
            const int32_t y0 = at.y * conv->stride.h - conv->padding.h, x0 = at.x * conv->stride.w - conv->padding.w;
            if (windows && y0 >= 0 && y0 + last_row < in_h && x0 >= 0 && x0 + last_col < in_w) {
                const int8_t *corner = input + ((at.b * in_h + y0) * in_w + x0) * in_c;
                if (split && filter_dims->h == 3 && row == 9) {  /* most image models' first layer */
                    mcu_widen_first3x3(corner, pitch, dst);
                } else if (split) {
                    mcu_widen_rows(corner, pitch, filter_dims->h, row, patch, dst);
                } else {
                    mcu_widen_window(corner, pitch, filter_dims->h, row, k4, patch, dst);
                }
                continue;
            }
            const int8_t *src = (const int8_t *)mcu_patch_of(conv, input_dims, input, filter_dims, at, k8, 1, fill,
                                                             direct, patch);
            if (split) {
                mcu_widen_rows(src, row, filter_dims->h, row, patch, dst);
            } else {
                mcu_conv_widen_patch(src, k4, dst);
            }
        }
        /* pruned channels' outputs, written once the block's patches are read (the conv may run in place) */
        for (int32_t p = 0; live != NULL && p < count; ++p) {
            memcpy(output + (first + p) * out_c, pruned, (size_t)out_c);
        }
        for (int32_t h = 0; h * MCU_HALF_BLOCK < count; ++h) {
            const int32_t n = count - h * MCU_HALF_BLOCK < MCU_HALF_BLOCK ? count - h * MCU_HALF_BLOCK : MCU_HALF_BLOCK;
            mcu_conv_half_channels(conv, channels, cols + h * (k8 / 4) * 2 * MCU_HALF_BLOCK, n, k8, out_c, computed,
                                   live, filter, bias, output + (first + h * MCU_HALF_BLOCK) * out_c, wide, fast_pairs);
        }
    }
}

#endif
