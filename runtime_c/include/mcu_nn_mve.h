/*
 * Helium (MVE) helpers of runtime_c/mve/'s kernels: the requantization of mcu_nn_support.h on four lanes, the
 * four-row dot products (LSTM, SVDF, 16x8 and INT4 rows) and the conv patch gathering.
 */
#ifndef MCU_NN_MVE_H
#define MCU_NN_MVE_H

#if !defined(__ARM_FEATURE_MVE)
#error "runtime_c/mve kernels need an Arm core with Helium (MVE); export without --board for the reference kernels"
#endif

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
 * INT4 filter rows on Helium (kernels/layouts.py s4_blocks): a row's values in blocks of 32, byte j of a block's
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

#endif /* MCU_NN_MVE_H */
