/*
 * Helium (MVE) helpers of runtime_c/mve/'s kernels: the requantization of mcu_nn_support.h on four lanes.
 */
#ifndef MCU_NN_MVE_H
#define MCU_NN_MVE_H

#include <arm_mve.h>

#include "mcu_nn_support.h"

/* mcu_requantize on four lanes, each with its own multiplier and shift given as a left shift (max(shift, 0))
 * and a right one (min(shift, 0)), giving the same numbers:
 * - the left shift by max(shift, 0) wraps, as TFLM's multiplication by 2^shift does;
 * - VQRDMULH is gemmlowp's SaturatingRoundingDoublingHighMul exactly: floor((2xm + 2^31) / 2^32) =
 *   floor((xm + 2^30) / 2^31) (mcu_srdhm's form), saturating the one overflow (INT32_MIN squared) alike;
 * - VRSHL by -n rounds ties up, gemmlowp's RoundingDivideByPOT away from zero: taking one from a
 *   negative value first (when n > 0) rounds its ties down. The subtraction saturates, which changes
 *   nothing at INT32_MIN (its quotient is the same either way), and VRSHL rounds without overflow. */
static inline int32x4_t mcu_requantize_x4_split(int32x4_t x, int32x4_t multiplier, int32x4_t left, int32x4_t right)
{
    const int32x4_t high = vqrdmulhq_s32(vshlq_s32(x, left), multiplier);
    const int32x4_t fixup = vshrq_n_s32(vandq_s32(high, right), 31); /* -1: negative and n > 0 */
    return vrshlq_s32(vqaddq_s32(high, fixup), right);
}

/* mcu_requantize_x4_split with the shift split there: left max(shift, 0), right min(shift, 0) = -n. */
static inline int32x4_t mcu_requantize_x4(int32x4_t x, int32x4_t multiplier, int32x4_t shift)
{
    const int32x4_t zero = vdupq_n_s32(0);
    return mcu_requantize_x4_split(x, multiplier, vmaxq_s32(shift, zero), vminq_s32(shift, zero));
}

/* The right shift (shift < 0) of mcu_requantize_n after its VQRDMULH: the tie fix-up, VRSHL by the shift. */
static inline int32x4_t mcu_requantize_right(int32x4_t high, int32_t shift)
{
    return vrshlq_n_s32(vqaddq_s32(high, vshrq_n_s32(high, 31)), shift);
}

/* mcu_requantize on four lanes sharing one (multiplier, shift), the per-tensor case: scalar operands
 * (VQRDMULH and VRSHL by a register), the steps and the tie fix-up of mcu_requantize_x4. */
static inline int32x4_t mcu_requantize_n(int32x4_t x, int32_t multiplier, int32_t shift)
{
    if (shift > 0) {
        x = vshlq_r_s32(x, shift);
    }
    const int32x4_t high = vqrdmulhq_n_s32(x, multiplier);
    return shift < 0 ? mcu_requantize_right(high, shift) : high;
}

/* clamp(requantize(acc) + output_offset) of four channels, stored as four int8. */
static inline void mcu_store_x4_s8(int8_t *output, int32x4_t acc, const int32_t *multiplier, const int32_t *shift,
                                   int32_t output_offset, mcu_activation act)
{
    int32x4_t y = vaddq_n_s32(mcu_requantize_x4(acc, vldrwq_s32(multiplier), vldrwq_s32(shift)), output_offset);
    y = vminq_s32(vmaxq_s32(y, vdupq_n_s32(act.min)), vdupq_n_s32(act.max));
    vstrbq_s32(output, y);
}

/* Four scalars as the lanes of a vector. */
static inline int32x4_t mcu_lanes4(int32_t a0, int32_t a1, int32_t a2, int32_t a3)
{
    int32x4_t v = vdupq_n_s32(a0);
    v = vsetq_lane_s32(a1, v, 1);
    v = vsetq_lane_s32(a2, v, 2);
    return vsetq_lane_s32(a3, v, 3);
}

/* The sums of four filter rows (row k at w + k * depth) with x over `depth` int8 values, each started at
 * its bias: sixteen products per VMLADAVA, the four rows sharing each load of x, the tail predicated. */
static inline int32x4_t mcu_dot4_rows_s8(const int8_t *x, int32_t depth, const int8_t *w, const int32_t *bias)
{
    const int32_t whole = depth & ~15;
    const int8_t *w0 = w, *w1 = w0 + depth, *w2 = w1 + depth, *w3 = w2 + depth;
    int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
    for (int32_t d = 0; d < whole; d += 16) {
        const int8x16_t v = vldrbq_s8(x + d);
        a0 = vmladavaq_s8(a0, v, vldrbq_s8(w0 + d));
        a1 = vmladavaq_s8(a1, v, vldrbq_s8(w1 + d));
        a2 = vmladavaq_s8(a2, v, vldrbq_s8(w2 + d));
        a3 = vmladavaq_s8(a3, v, vldrbq_s8(w3 + d));
    }
    if (whole < depth) {
        const mve_pred16_t tail = vctp8q((uint32_t)(depth - whole));
        const int8x16_t v = vldrbq_z_s8(x + whole, tail);
        a0 = vmladavaq_p_s8(a0, v, vldrbq_z_s8(w0 + whole, tail), tail);
        a1 = vmladavaq_p_s8(a1, v, vldrbq_z_s8(w1 + whole, tail), tail);
        a2 = vmladavaq_p_s8(a2, v, vldrbq_z_s8(w2 + whole, tail), tail);
        a3 = vmladavaq_p_s8(a3, v, vldrbq_z_s8(w3 + whole, tail), tail);
    }
    return mcu_lanes4(a0, a1, a2, a3);
}

/* The sums of four int8 filter rows (row k at w + k * depth) with `depth` int16 values of x, each started
 * at its bias: eight products per VMLADAVA, the weights widened as they load, the tail predicated. The
 * sums are int32: callers take only layers whose sums fit. */
static inline int32x4_t mcu_dot4_rows_s16(const int16_t *x, int32_t depth, const int8_t *w, const int32_t *start)
{
    const int8_t *w0 = w, *w1 = w0 + depth, *w2 = w1 + depth, *w3 = w2 + depth;
    int32_t a0 = start[0], a1 = start[1], a2 = start[2], a3 = start[3];
    const int32_t whole = depth & ~7;
    for (int32_t d = 0; d < whole; d += 8) {
        const int16x8_t v = vldrhq_s16(x + d);
        a0 = vmladavaq_s16(a0, v, vldrbq_s16(w0 + d));
        a1 = vmladavaq_s16(a1, v, vldrbq_s16(w1 + d));
        a2 = vmladavaq_s16(a2, v, vldrbq_s16(w2 + d));
        a3 = vmladavaq_s16(a3, v, vldrbq_s16(w3 + d));
    }
    if (whole < depth) {
        const mve_pred16_t p = vctp16q((uint32_t)(depth - whole));
        const int16x8_t v = vldrhq_z_s16(x + whole, p);
        a0 = vmladavaq_p_s16(a0, v, vldrbq_z_s16(w0 + whole, p), p);
        a1 = vmladavaq_p_s16(a1, v, vldrbq_z_s16(w1 + whole, p), p);
        a2 = vmladavaq_p_s16(a2, v, vldrbq_z_s16(w2 + whole, p), p);
        a3 = vmladavaq_p_s16(a3, v, vldrbq_z_s16(w3 + whole, p), p);
    }
    return mcu_lanes4(a0, a1, a2, a3);
}

/* One row x of `depth` int16 values through `units` int8 filter rows (unit o at filter + o * depth), four
 * units at a time on mcu_dot4_rows_s16 (the rest one by one); each int32 sum plus its int64 bias requantized
 * as the 16x8 reference kernels do (mcu_requantize_wide), offset, clamped: units int16 outputs. */
static inline void mcu_unit_s16(int32_t sum, const int64_t *bias, const mcu_per_channel_quant *quant,
                                int32_t accumulator_bits, int32_t output_offset, mcu_activation act, int32_t o,
                                int16_t *output)
{
    const int32_t y = mcu_requantize_wide(sum + bias[o], accumulator_bits, quant->multiplier[o], quant->shift[o]);
    output[o] = mcu_clamp_s16((int32_t)((uint32_t)y + (uint32_t)output_offset), act);
}

static inline void mcu_row_units_s16(const int16_t *x, int32_t depth, const int8_t *filter, const int64_t *bias,
                                     int32_t units, const mcu_per_channel_quant *quant, int32_t accumulator_bits,
                                     int32_t output_offset, mcu_activation act, int16_t *output)
{
    static const int32_t zeros[4] = {0, 0, 0, 0};
    int32_t o = 0;
    for (; o + 4 <= units; o += 4) {
        int32_t sums[4];
        vstrwq_s32(sums, mcu_dot4_rows_s16(x, depth, filter + o * depth, zeros));
        for (int32_t k = 0; k < 4; ++k) {
            mcu_unit_s16(sums[k], bias, quant, accumulator_bits, output_offset, act, o + k, output);
        }
    }
    for (; o < units; ++o) {
        const int8_t *w = filter + o * depth;
        int32_t sum = 0;
        for (int32_t d = 0; d < depth; d += 8) {
            const mve_pred16_t p = vctp16q((uint32_t)(depth - d));
            sum = vmladavaq_p_s16(sum, vldrhq_z_s16(x + d, p), vldrbq_z_s16(w + d, p), p);
        }
        mcu_unit_s16(sum, bias, quant, accumulator_bits, output_offset, act, o, output);
    }
}

/* x . w over `depth` int8 values, from acc: sixteen products per VMLADAVA, the tail predicated. */
static inline int32_t mcu_dot_row_s8(const int8_t *x, int32_t depth, const int8_t *w, int32_t acc)
{
    const int32_t whole = depth & ~15;
    for (int32_t d = 0; d < whole; d += 16) {
        acc = vmladavaq_s8(acc, vldrbq_s8(x + d), vldrbq_s8(w + d));
    }
    if (whole < depth) {
        const mve_pred16_t tail = vctp8q((uint32_t)(depth - whole));
        acc = vmladavaq_p_s8(acc, vldrbq_z_s8(x + whole, tail), vldrbq_z_s8(w + whole, tail), tail);
    }
    return acc;
}

/*
 * INT4 filter rows on Helium (ops/_conv.py s4_blocks): a row's values in blocks of 32, byte j of a block's
 * 16 holding value j in its low nibble and value j + 16 in its high one, the row zero-padded to whole
 * blocks (mcu_row_bytes_s4). One load and three shifts (VSHL then VSHR by 4 sign-extends the low nibble,
 * VSHR by 4 the high one) make 32 weights for two VMLADAVA against 32 values of x, loaded zero past
 * depth.
 */
static inline int32_t mcu_row_bytes_s4(int32_t depth)
{
    return (depth + 31) / 32 * 16;
}

/* The 32 values of x from x + d on (zero past depth): lo, hi. */
static inline void mcu_x32(const int8_t *x, int32_t depth, int32_t d, int8x16_t *lo, int8x16_t *hi)
{
    const uint32_t left = (uint32_t)(depth - d);
    *lo = vldrbq_z_s8(x + d, vctp8q(left));
    *hi = vldrbq_z_s8(x + d + 16, vctp8q(left > 16 ? left - 16 : 0));
}

static inline int32_t mcu_dot32_s4(int32_t acc, int8x16_t lo, int8x16_t hi, const int8_t *block)
{
    const int8x16_t w = vldrbq_s8(block);
    return vmladavaq_s8(vmladavaq_s8(acc, lo, vshrq_n_s8(vshlq_n_s8(w, 4), 4)), hi, vshrq_n_s8(w, 4));
}

static inline int32_t mcu_dot_row_s4(const int8_t *x, int32_t depth, const int8_t *w, int32_t acc)
{
    for (int32_t d = 0; d < depth; d += 32, w += 16) {
        int8x16_t lo, hi;
        mcu_x32(x, depth, d, &lo, &hi);
        acc = mcu_dot32_s4(acc, lo, hi, w);
    }
    return acc;
}

/* mcu_dot4_rows_s8 on INT4 rows (row k at w + k * mcu_row_bytes_s4(depth)). */
static inline int32x4_t mcu_dot4_rows_s4(const int8_t *x, int32_t depth, const int8_t *w, const int32_t *bias)
{
    const int32_t row = mcu_row_bytes_s4(depth);
    const int8_t *w0 = w, *w1 = w0 + row, *w2 = w1 + row, *w3 = w2 + row;
    int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
    for (int32_t d = 0, k = 0; d < depth; d += 32, k += 16) {
        int8x16_t lo, hi;
        mcu_x32(x, depth, d, &lo, &hi);
        a0 = mcu_dot32_s4(a0, lo, hi, w0 + k);
        a1 = mcu_dot32_s4(a1, lo, hi, w1 + k);
        a2 = mcu_dot32_s4(a2, lo, hi, w2 + k);
        a3 = mcu_dot32_s4(a3, lo, hi, w3 + k);
    }
    return mcu_lanes4(a0, a1, a2, a3);
}

/*
 * The Helium FULLY_CONNECTED layout of int8 weights [units, depth] (ops/_conv.py units4_blocks): blocks of
 * four units, each block in chunks of 16 values, a chunk holding its 16 values of each of the four units
 * in turn, zero-padded to whole blocks and chunks. One pointer walks a block forward, so that sums of two
 * rows by four units (eight accumulators, every even register VMLADAVA can add into) leave registers for
 * the pointers; the zeros past depth and past the units add nothing.
 */
static inline int32_t mcu_block_bytes_u4(int32_t depth)
{
    return (depth + 15) / 16 * 64;
}

/* One chunk of one block against the rows' sixteen values in %q[x0] (and %q[x1]): per unit a load of its
 * sixteen weights and one VMLADAVA per row. */
#define MCU_U4_UNIT1_(S0)                                     \
    "vldrb.u8 %q[w], [%[wp]], #16\n\t"                        \
    "vmladava.s8 %[" S0 "], %q[x0], %q[w]\n\t"
#define MCU_U4_UNIT2_(S0, S1) MCU_U4_UNIT1_(S0) "vmladava.s8 %[" S1 "], %q[x1], %q[w]\n\t"
#define MCU_U4_CHUNK1_ MCU_U4_UNIT1_("s0") MCU_U4_UNIT1_("s1") MCU_U4_UNIT1_("s2") MCU_U4_UNIT1_("s3")
#define MCU_U4_CHUNK2_                                                                                    \
    MCU_U4_UNIT2_("s0", "t0") MCU_U4_UNIT2_("s1", "t1") MCU_U4_UNIT2_("s2", "t2") MCU_U4_UNIT2_("s3", "t3")

/* What a block's assembly reads and moves on besides its registers: the next units' folded biases,
 * multipliers and shifts, the rows' outputs, the output offset and clamp, and the values depth leaves
 * past its whole chunks. The offsets are the assembly's. */
typedef struct {
    const int32_t *bias, *multiplier, *shift; /* 0, 4, 8 */
    int8_t *out0, *out1;                      /* 12, 16 */
    int32_t offset, min, max, rem;            /* 20, 24, 28, 32 */
    uint32_t vpr;                             /* 36: the predicate GCC may hold, kept over the last chunk */
} mcu_u4_rows;

/* The block loop: `n` whole chunks (LOADS: the rows' sixteen values, moving on), two a pass after an odd
 * one (LSRS halves n, its carry the odd chunk, its zero flag no pair: the chunk between leaves both as
 * they are, loads and VMLADAVA setting no flags), then where depth leaves
 * values (rem, read into n's register: two rows by four units take every register but two) a last chunk
 * whose row loads are predicated (VCTP: the lanes past depth read nothing and hold zero; the predicate
 * register, which GCC cannot be told is clobbered, saved and restored around it), the sums starting as
 * ZERO sets them. In assembly: VMLADAVA adds only into even registers, and GCC, given eight sums in C,
 * spills some inside the loop. */
#define MCU_U4_WHOLE_(ZERO, LOADS, CHUNK)        \
    ZERO                                         \
    "lsrs %[n], %[n], #1\n\t"                    \
    "bcc 4f\n\t"                                 \
    LOADS CHUNK                                  \
    "4:\n\t"                                     \
    "beq 2f\n"                                   \
    "1:\n\t" LOADS CHUNK LOADS CHUNK             \
    "subs %[n], %[n], #1\n\t"                    \
    "bne 1b\n"                                   \
    "2:\n\t"
#define MCU_U4_TAIL_(PLOADS, CHUNK)              \
    "ldr %[n], [%[c], #32]\n\t"                  \
    "cmp %[n], #0\n\t"                           \
    "beq 3f\n\t"                                 \
    "vmrs %[n], p0\n\t"                          \
    "str %[n], [%[c], #36]\n\t"                  \
    "ldr %[n], [%[c], #32]\n\t"                  \
    "vctp.8 %[n]\n\t" PLOADS CHUNK               \
    "ldr %[n], [%[c], #36]\n\t"                  \
    "vmsr p0, %[n]\n"                             \
    "3:\n\t"
#define MCU_U4_LOOP_(ZERO, LOADS, PLOADS, CHUNK) MCU_U4_WHOLE_(ZERO, LOADS, CHUNK) MCU_U4_TAIL_(PLOADS, CHUNK)
#define MCU_U4_ZERO1_ "movs %[s0], #0\n\tmovs %[s1], #0\n\tmovs %[s2], #0\n\tmovs %[s3], #0\n\t"
/* The sums started at the block's folded biases (both rows' the same: T, the second row's loads or
 * nothing), the bias pointer at [c] moved on by four units. */
#define MCU_U4_BIAS_(T)                                       \
    "ldr %[s0], [%[c], #0]\n\t"                               \
    "adds %[s1], %[s0], #16\n\t"                              \
    "str %[s1], [%[c], #0]\n\t" T                             \
    "ldrd %[s2], %[s3], [%[s0], #8]\n\t"                      \
    "ldrd %[s0], %[s1], [%[s0], #0]\n\t"
#define MCU_U4_BIAS2_ MCU_U4_BIAS_("ldrd %[t0], %[t1], [%[s0], #0]\n\tldrd %[t2], %[t3], [%[s0], #8]\n\t")
/* Four sums as the lanes of V, one move each: the two-register VMOV's lane order is read differently by
 * GNU as and QEMU (which puts its first register in the lower lane), so it is left alone. */
#define MCU_U4_LANES_(V, A0, A1, A2, A3)                                   \
    "vmov.32 %q[" V "][0], %[" A0 "]\n\t"                                  \
    "vmov.32 %q[" V "][1], %[" A1 "]\n\t"                                  \
    "vmov.32 %q[" V "][2], %[" A2 "]\n\t"                                  \
    "vmov.32 %q[" V "][3], %[" A3 "]\n\t"

/* The block's constants: vector V from the pointer at [c, #AT], which moves on by four units. */
#define MCU_U4_NEXT4_(V, AT)                                  \
    "ldr %[s0], [%[c], #" AT "]\n\t"                          \
    "vldrw.u32 %q[" V "], [%[s0]], #16\n\t"                   \
    "str %[s0], [%[c], #" AT "]\n\t"
/* mcu_requantize_x4_split of Y by the multiplier in %q[m], left shift in %q[x0], right in %q[r]. */
#define MCU_U4_REQUANT_(Y)                                    \
    "vshl.s32 %q[" Y "], %q[" Y "], %q[x0]\n\t"               \
    "vqrdmulh.s32 %q[" Y "], %q[" Y "], %q[m]\n\t"            \
    "vand %q[w], %q[" Y "], %q[r]\n\t"                        \
    "vshr.s32 %q[w], %q[w], #31\n\t"                          \
    "vqadd.s32 %q[" Y "], %q[" Y "], %q[w]\n\t"               \
    "vrshl.s32 %q[" Y "], %q[" Y "], %q[r]\n\t"
/* Y offset (by %[s1]), clamped to [%q[x0], %q[m]] and stored at the output pointer at [c, #AT], which
 * moves on. */
#define MCU_U4_STORE_(Y, AT)                                  \
    "vadd.i32 %q[" Y "], %q[" Y "], %[s1]\n\t"                \
    "vmax.s32 %q[" Y "], %q[" Y "], %q[x0]\n\t"               \
    "vmin.s32 %q[" Y "], %q[" Y "], %q[m]\n\t"                \
    "ldr %[p0], [%[c], #" AT "]\n\t"                          \
    "vstrb.32 %q[" Y "], [%[p0]], #4\n\t"                     \
    "str %[p0], [%[c], #" AT "]\n\t"

/* A whole block, of one row or two: the sums (BIAS, LOADS, CHUNK, TAIL), the lanes, the multipliers and
 * shifts (the shift split into its left part, in x0, and its right one), REQUANT, the offset and clamp's
 * bounds, STORE. */
#define MCU_U4_BLOCK_(BIAS, LOADS, CHUNK, TAIL, LANES, REQUANT, STORE)                                    \
    MCU_U4_WHOLE_(BIAS, LOADS, CHUNK) TAIL LANES                                                           \
    MCU_U4_NEXT4_("m", "4") MCU_U4_NEXT4_("r", "8")                                                        \
    "vmov.i32 %q[w], #0\n\t"                                                                               \
    "vmax.s32 %q[x0], %q[r], %q[w]\n\t"                                                                    \
    "vmin.s32 %q[r], %q[r], %q[w]\n\t"                                                                     \
    REQUANT                                                                                                \
    "ldr %[s1], [%[c], #20]\n\t"                                                                           \
    "ldr %[s2], [%[c], #24]\n\t"                                                                           \
    "ldr %[s3], [%[c], #28]\n\t"                                                                           \
    "vdup.32 %q[x0], %[s2]\n\t"                                                                            \
    "vdup.32 %q[m], %[s3]\n\t"                                                                             \
    STORE
#define MCU_U4_BLOCK2_(TAIL)                                                                               \
    MCU_U4_BLOCK_(MCU_U4_BIAS2_, "vldrb.u8 %q[x0], [%[p0]], #16\n\tvldrb.u8 %q[x1], [%[p1]], #16\n\t",     \
                  MCU_U4_CHUNK2_, TAIL,                                                                    \
                  MCU_U4_LANES_("y0", "s0", "s1", "s2", "s3") MCU_U4_LANES_("y1", "t0", "t1", "t2", "t3"), \
                  MCU_U4_REQUANT_("y0") MCU_U4_REQUANT_("y1"), MCU_U4_STORE_("y0", "12") MCU_U4_STORE_("y1", "16"))
#define MCU_U4_BLOCK2_OPERANDS_                                                                            \
    : [s0] "=&Te"(s0), [s1] "=&Te"(s1), [s2] "=&Te"(s2), [s3] "=&Te"(s3), [t0] "=&Te"(t0), [t1] "=&Te"(t1), \
      [t2] "=&Te"(t2), [t3] "=&Te"(t3), [x0] "=&w"(v0), [x1] "=&w"(v1), [w] "=&w"(w), [y0] "=&w"(y0),      \
      [y1] "=&w"(y1), [m] "=&w"(m), [r] "=&w"(r), [p0] "+l"(x0), [p1] "+r"(x1), [wp] "+r"(wp), [n] "+r"(n) \
    : [c] "r"(c)                                                                                           \
    : "cc", "memory"
#define MCU_U4_BLOCK1_(TAIL)                                                                               \
    MCU_U4_BLOCK_(MCU_U4_BIAS_(""), "vldrb.u8 %q[x0], [%[p0]], #16\n\t", MCU_U4_CHUNK1_, TAIL,             \
                  MCU_U4_LANES_("y0", "s0", "s1", "s2", "s3"), MCU_U4_REQUANT_("y0"), MCU_U4_STORE_("y0", "12"))
#define MCU_U4_BLOCK1_OPERANDS_                                                                            \
    : [s0] "=&Te"(s0), [s1] "=&Te"(s1), [s2] "=&Te"(s2), [s3] "=&Te"(s3), [x0] "=&w"(v0), [w] "=&w"(w),   \
      [y0] "=&w"(y0), [m] "=&w"(m), [r] "=&w"(r), [p0] "+l"(x0), [wp] "+r"(wp), [n] "+r"(n)                \
    : [c] "r"(c)                                                                                           \
    : "cc", "memory"

/* One whole block (four units) of rows x0 and x1 to the end: the sums, plus the folded biases,
 * requantized, offset, clamped and stored; *block moves on to the next block. `tail`: depth leaves values
 * past its whole chunks (a constant where inlined: a depth of whole chunks skips the test). */
static inline __attribute__((always_inline)) void mcu_block2_u4(const int8_t *x0, const int8_t *x1, int32_t depth,
                                                                int tail, const int8_t **block, mcu_u4_rows *c)
{
    int32_t n = depth >> 4, s0, s1, s2, s3, t0, t1, t2, t3;
    int8x16_t v0, v1, w;
    int32x4_t y0, y1, m, r;
    const int8_t *wp = *block;
    if (tail) {
        __asm__ volatile(MCU_U4_BLOCK2_(MCU_U4_TAIL_(
                             "vpstt\n\tvldrbt.u8 %q[x0], [%[p0]]\n\tvldrbt.u8 %q[x1], [%[p1]]\n\t", MCU_U4_CHUNK2_))
                         MCU_U4_BLOCK2_OPERANDS_);
    } else {
        __asm__ volatile(MCU_U4_BLOCK2_("") MCU_U4_BLOCK2_OPERANDS_);
    }
    *block = wp;
}

/* mcu_block2_u4 of one row, x0 (a last odd row's blocks). */
static inline __attribute__((always_inline)) void mcu_block1_u4(const int8_t *x0, int32_t depth, int tail,
                                                                const int8_t **block, mcu_u4_rows *c)
{
    int32_t n = depth >> 4, s0, s1, s2, s3;
    int8x16_t v0, w;
    int32x4_t y0, m, r;
    const int8_t *wp = *block;
    if (tail) {
        __asm__ volatile(MCU_U4_BLOCK1_(MCU_U4_TAIL_("vpst\n\tvldrbt.u8 %q[x0], [%[p0]]\n\t", MCU_U4_CHUNK1_))
                         MCU_U4_BLOCK1_OPERANDS_);
    } else {
        __asm__ volatile(MCU_U4_BLOCK1_("") MCU_U4_BLOCK1_OPERANDS_);
    }
    *block = wp;
}

/* The sums of one block (four units) with the depth int8 values of x, as the lanes of the result. */
static inline __attribute__((always_inline)) int32x4_t mcu_sums1_u4(const int8_t *x, int32_t depth,
                                                                    const int8_t *block, mcu_u4_rows *c)
{
    int32_t n = depth >> 4, s0, s1, s2, s3;
    int8x16_t v0, w;
    int32x4_t r;
    __asm__(MCU_U4_LOOP_(MCU_U4_ZERO1_, "vldrb.u8 %q[x0], [%[p0]], #16\n\t",
                         "vpst\n\tvldrbt.u8 %q[x0], [%[p0]]\n\t", MCU_U4_CHUNK1_)
            MCU_U4_LANES_("y0", "s0", "s1", "s2", "s3")
            : [s0] "=&Te"(s0), [s1] "=&Te"(s1), [s2] "=&Te"(s2), [s3] "=&Te"(s3), [x0] "=&w"(v0), [w] "=&w"(w),
              [y0] "=&w"(r), [p0] "+r"(x), [wp] "+r"(block), [n] "+r"(n)
            : [c] "r"(c)
            : "cc", "memory");
    return r;
}

/* clamp(requantize(sums) + output_offset) of a block's four units (the folded biases already in the sums,
 * the shift split as mcu_requantize_x4_split takes it), the lanes `p` stored. */
static inline __attribute__((always_inline)) void mcu_store_units4_s8(int8_t *output, int32x4_t sums,
                                                                     int32x4_t multiplier, int32x4_t left,
                                                                     int32x4_t right, int32_t output_offset,
                                                                     int32x4_t min, int32x4_t max, mve_pred16_t p)
{
    const int32x4_t y = vaddq_n_s32(mcu_requantize_x4_split(sums, multiplier, left, right), output_offset);
    vstrbq_p_s32(output, vminq_s32(vmaxq_s32(y, min), max), p);
}

/* `rows` rows of `depth` int8 values from x (one after another) through `units` filter rows in the units4
 * layout, two rows at a time block by block (a last odd row alone); bias_folded[o] holds bias +
 * input_offset * sum of the unit's weights, so raw values are multiplied. Writes units int8 outputs a row,
 * one row after another from out: those of the reference kernels. Out of line: the two rows' loop needs all
 * but two registers, which GCC cannot free inside a larger loop. */
static __attribute__((noinline, unused)) void mcu_rows_units_s8(const int8_t *x, int32_t rows, int32_t depth,
                                                                const int8_t *filter, const int32_t *bias_folded,
                                                                int32_t units, const mcu_per_channel_quant *quant,
                                                                int32_t output_offset, mcu_activation act,
                                                                int8_t *out)
{
    mcu_u4_rows c = {bias_folded, quant->multiplier, quant->shift, out, out, output_offset, act.min, act.max,
                     depth & 15, 0};
    const int32x4_t min = vdupq_n_s32(act.min), max = vdupq_n_s32(act.max), zero = vdupq_n_s32(0);
    for (int32_t r = 0; r < rows; r += 2, x += 2 * depth, out += 2 * units) {
        const int pair = r + 1 < rows;
        const int8_t *w = filter;
        int32_t o = 0;
        c.bias = bias_folded;
        c.multiplier = quant->multiplier;
        c.shift = quant->shift;
        c.out0 = out;
        c.out1 = out + units;
        if (pair && (depth & 15)) {
            for (; o + 4 <= units; o += 4) {
                mcu_block2_u4(x, x + depth, depth, 1, &w, &c);
            }
        } else if (pair) {
            for (; o + 4 <= units; o += 4) {
                mcu_block2_u4(x, x + depth, depth, 0, &w, &c);
            }
        } else {
            for (; o + 4 <= units; o += 4) {
                mcu_block1_u4(x, depth, depth & 15, &w, &c);
            }
        }
        for (; o < units; o += 4, w += mcu_block_bytes_u4(depth)) {
            /* the last block of fewer than four units: those past `units` read as nothing and not stored */
            const mve_pred16_t p = vctp32q((uint32_t)(units - o));
            const int32x4_t bias = vldrwq_z_s32(bias_folded + o, p), shift = vldrwq_z_s32(quant->shift + o, p);
            const int32x4_t multiplier = vldrwq_z_s32(quant->multiplier + o, p);
            const int32x4_t left = vmaxq_s32(shift, zero), right = vminq_s32(shift, zero);
            mcu_store_units4_s8(out + o, vaddq_s32(mcu_sums1_u4(x, depth, w, &c), bias), multiplier, left, right,
                                output_offset, min, max, p);
            if (pair) {
                mcu_store_units4_s8(out + units + o, vaddq_s32(mcu_sums1_u4(x + depth, depth, w, &c), bias),
                                    multiplier, left, right, output_offset, min, max, p);
            }
        }
    }
}

/* One row x of `depth` values through `units` INT4 filter rows (mcu_dot4_rows_s4's, unit o at filter + o *
 * mcu_row_bytes_s4(depth)): four units a load of x, each four requantized together, the rest one by one.
 * Its own loop, in C: the int8 kernels' assembly block reads the units4 layout. */
static inline void mcu_row_units_s4(const int8_t *x, int32_t depth, const int8_t *filter, const int32_t *bias_folded,
                                    int32_t units, const mcu_per_channel_quant *quant, int32_t output_offset,
                                    mcu_activation act, int8_t *output)
{
    const int32_t row = mcu_row_bytes_s4(depth);
    int32_t o = 0;
    for (; o + 4 <= units; o += 4) {
        mcu_store_x4_s8(output + o, mcu_dot4_rows_s4(x, depth, filter + o * row, bias_folded + o),
                        quant->multiplier + o, quant->shift + o, output_offset, act);
    }
    for (; o < units; ++o) {
        const int32_t acc = mcu_dot_row_s4(x, depth, filter + o * row, bias_folded[o]);
        output[o] = mcu_clamp_s8(mcu_requantize(acc, quant->multiplier[o], quant->shift[o]) + output_offset, act);
    }
}

/* n bytes from src to dst, 16 per vector: inline, where a memcpy per tap would cost a call for the few
 * channels early layers have. From 16 bytes on, the last vector ends at the run's end, overlapping the one
 * before (the bytes are the same): no predication, whose VPR moves GCC spreads through the loop; a shorter
 * run is one predicated vector. */
static inline void mcu_copy_run(int8_t *dst, const int8_t *src, int32_t n)
{
    if (n == 1) { /* a one-channel input's tap (audio features): cheaper than a vector */
        *dst = *src;
        return;
    }
    if (n == 4) { /* its row of four taps: a word */
        uint32_t word;
        memcpy(&word, src, sizeof word);
        memcpy(dst, &word, sizeof word);
        return;
    }
    if (n < 16) {
        const mve_pred16_t p = vctp8q((uint32_t)n);
        vstrbq_p_s8(dst, vldrbq_z_s8(src, p), p);
        return;
    }
    const int8x16_t tail = vldrbq_s8(src + n - 16);
    int8_t *const tail_at = dst + n - 16;
    for (int32_t k = n - 16; k > 0; k -= 16, src += 16, dst += 16) {
        vstrbq_s8(dst, vldrbq_s8(src));
    }
    vstrbq_s8(tail_at, tail);
}

/* n bytes of filler at dst, as mcu_copy_run stores them. */
static inline void mcu_fill_run(int8_t *dst, int8x16_t filler, int32_t n)
{
    if (n < 16) {
        vstrbq_p_s8(dst, filler, vctp8q((uint32_t)n));
        return;
    }
    vstrbq_s8(dst + n - 16, filler);
    for (int32_t k = n - 16; k > 0; k -= 16, dst += 16) {
        vstrbq_s8(dst, filler);
    }
}

/* The patch [KH, KW, Cin] of `size`-byte values whose window starts at (y0, x0) of `image` (one batch's)
 * gathered into patch, taps outside the image filled with the bytes of filler (the input zero point, or 0). */
static __attribute__((noinline, unused)) void mcu_gather_patch_mve(const mcu_conv_params *conv, const mcu_dims *input_dims, const int8_t *image,
                                        const mcu_dims *filter_dims, int32_t y0, int32_t x0, int32_t size,
                                        int8x16_t filler, void *patch)
{
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c * size;
    const int32_t k_h = filter_dims->h, k_w = filter_dims->w, run = k_w * in_c;
    const int32_t dil_h = conv->dilation.h, dil_w = conv->dilation.w; /* read once: the stores may alias */
    /* a row of taps wholly inside the image, adjacent (dilation 1), is one run of input bytes */
    const int row_inside = dil_w == 1 && x0 >= 0 && x0 + k_w <= in_w;
    int8_t *to = (int8_t *)patch;
    if (row_inside && y0 >= 0 && y0 + (k_h - 1) * dil_h < in_h) { /* the window inside the image */
        const int8_t *from = image + (y0 * in_w + x0) * in_c;
        for (int32_t ky = 0; ky < k_h; ++ky, to += run, from += dil_h * in_w * in_c) {
            mcu_copy_run(to, from, run);
        }
        return;
    }
    for (int32_t ky = 0, iy = y0; ky < k_h; ++ky, iy += dil_h) {
        if (iy < 0 || iy >= in_h || row_inside) {
            if (iy >= 0 && iy < in_h) {
                mcu_copy_run(to, image + (iy * in_w + x0) * in_c, run);
            } else {
                mcu_fill_run(to, filler, run);
            }
            to += run;
            continue;
        }
        if (dil_w == 1) { /* the row's taps left of the image, in it, right of it: three runs */
            const int32_t first = x0 < 0 ? (-x0 < k_w ? -x0 : k_w) : 0;
            const int32_t end = in_w - x0 < k_w ? (in_w - x0 > first ? in_w - x0 : first) : k_w;
            if (first > 0) {
                mcu_fill_run(to, filler, first * in_c);
            }
            if (end > first) {
                mcu_copy_run(to + first * in_c, image + (iy * in_w + x0 + first) * in_c, (end - first) * in_c);
            }
            if (end < k_w) {
                mcu_fill_run(to + end * in_c, filler, (k_w - end) * in_c);
            }
            to += run;
            continue;
        }
        for (int32_t kx = 0; kx < k_w; ++kx, to += in_c) {
            const int32_t ix = x0 + kx * dil_w;
            if (ix >= 0 && ix < in_w) {
                mcu_copy_run(to, image + (iy * in_w + ix) * in_c, in_c);
            } else {
                mcu_fill_run(to, filler, in_c);
            }
        }
    }
}

/* FULLY_CONNECTED on Helium: the rows through mcu_rows_units_s8 (or, `bits` 4, each through
 * mcu_row_units_s4). The input offset comes folded into the bias (bias_folded[o] = bias[o] + input_offset *
 * sum_d filter[o, d], wrapping as int32), so the vector loop multiplies raw values; int32 sums wrap alike in
 * any order, so the results are mcu_fully_connected_s8's (a filter offset of 0, as int8 FULLY_CONNECTED has). */
static __attribute__((noinline, unused)) void mcu_fully_connected_mve(
    const mcu_fc_params *fc, const mcu_per_channel_quant *quant, const mcu_dims *input_dims, const int8_t *input,
    const int8_t *filter, const int32_t *bias_folded, const mcu_dims *output_dims, int8_t *output, int bits)
{
    const int32_t depth = input_dims->c, units = output_dims->c, rows = input_dims->n;
    if (bits == 8) {
        mcu_rows_units_s8(input, rows, depth, filter, bias_folded, units, quant, fc->output_offset, fc->activation,
                          output);
        return;
    }
    for (int32_t n = 0; n < rows; ++n) {
        mcu_row_units_s4(input + n * depth, depth, filter, bias_folded, units, quant, fc->output_offset,
                         fc->activation, output + n * units);
    }
}

/* CONV_2D on Helium: per output position, its patch [KH, KW, Cin] gathered into scratch (taps outside the
 * image filled with the input zero point, whose products the folded bias cancels: bias_folded = bias +
 * input_offset * sum of the channel's weights counts every tap), then the patches through the filter as
 * rows: two positions at a time through mcu_rows_units_s8 (the scratch holds two patches, each rounded up
 * to whole chunks of 16 values), or, `bits` 4, each through mcu_row_units_s4. The results are mcu_conv2d_s8's. */
static __attribute__((noinline, unused)) void mcu_conv2d_mve(
    const mcu_conv_params *conv, const mcu_per_channel_quant *quant, const mcu_dims *input_dims, const int8_t *input,
    const mcu_dims *filter_dims, const int8_t *filter, const int32_t *bias_folded, const mcu_dims *output_dims,
    int8_t *output, int8_t *patch, int bits)
{
    const int32_t depth = filter_dims->h * filter_dims->w * input_dims->c, c = output_dims->c;
    /* the int8 patches are whole chunks apart, the bytes past depth zero (as the weights there are): their
     * rows run no predicated last chunk */
    const int32_t row = bits == 8 ? (depth + 15) & ~15 : depth;
    const int32_t positions = output_dims->h * output_dims->w;
    const int8x16_t padding = vdupq_n_s8((int8_t)-conv->input_offset); /* the input zero point */
    if (row > depth) {
        mcu_fill_run(patch + depth, vdupq_n_s8(0), row - depth);
        mcu_fill_run(patch + row + depth, vdupq_n_s8(0), row - depth);
    }
    for (int32_t b = 0; b < input_dims->n; ++b) {
        const int8_t *image = input + b * input_dims->h * input_dims->w * input_dims->c;
        int32_t oy = 0, ox = 0;
        for (int32_t q = 0; q < positions; ++q, output += c) {
            const int pair = bits == 8 && q + 1 < positions;
            for (int32_t k = 0; k <= pair; ++k) {
                mcu_gather_patch_mve(conv, input_dims, image, filter_dims, oy * conv->stride.h - conv->padding.h,
                                     ox * conv->stride.w - conv->padding.w, 1, padding, patch + k * row);
                if (++ox == output_dims->w) {
                    ox = 0;
                    ++oy;
                }
            }
            if (bits == 4) {
                mcu_row_units_s4(patch, depth, filter, bias_folded, c, quant, conv->output_offset, conv->activation,
                                 output);
            } else {
                mcu_rows_units_s8(patch, 1 + pair, row, filter, bias_folded, c, quant, conv->output_offset,
                                  conv->activation, output);
                q += pair;
                output += pair * c;
            }
        }
    }
}

#endif /* MCU_NN_MVE_H */
