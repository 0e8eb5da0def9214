/*
 * The Helium FULLY_CONNECTED and CONV_2D bodies on int8 (and INT4) filters: the two-rows-by-four-units block
 * in assembly over the units4 weight layout, the rows through it, and the kernels that feed it rows or
 * gathered patches (mcu_fully_connected_s8_mve, mcu_conv2d_s8_mve and their INT4 twins).
 */
#ifndef MCU_NN_FC_MVE_H
#define MCU_NN_FC_MVE_H

#include <stddef.h>

#include "mcu_nn_mve.h"

/*
 * The Helium FULLY_CONNECTED layout of int8 weights [units, depth] (kernels/layouts.py units4_blocks): blocks of
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

/* What a block's assembly reads and moves on besides its registers (its memory operands, MCU_U4_FIELDS_:
 * GCC addresses each field): the next units' folded biases, multipliers and shifts, the rows' outputs, the
 * output offset and clamp, and the values depth leaves past its whole chunks. */
typedef struct {
    const int32_t *bias, *multiplier, *shift;
    int8_t *out0, *out1;
    int32_t offset, min, max, rem;
    uint32_t vpr; /* the predicate GCC may hold, kept over the last chunk */
} mcu_u4_rows;

/* The block loop: `n` whole chunks (LOADS: the rows' sixteen values, moving on), two a pass after an odd
 * one (LSRS halves n, its carry the odd chunk, its zero flag no pair: the chunk between leaves both as
 * they are, loads and VMLADAVA setting no flags), then where depth leaves
 * values (rem, read into n's register: two rows by four units take every register but two) a last chunk
 * whose row loads are predicated (VCTP: the lanes past depth read nothing and hold zero; the predicate
 * register, which GCC cannot be told is clobbered, saved and restored around it), the sums starting as
 * ZERO sets them. In assembly: VMLADAVA adds only into even registers, and GCC, given eight sums in C,
 * spills some inside the loop. Measured on KWS on the M55 (mps3-an547, instructions): each of its four
 * pointwise layers takes 126,188 with these blocks, 201,844 with the same blocks in C (vmladavaq_s8 into
 * eight sums, the tail's loads vldrbq_z_s8), the model 1,225,188 against 1,594,875; the C is 280 B less
 * flash. */
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
    "ldr %[n], %[rem]\n\t"                       \
    "cmp %[n], #0\n\t"                           \
    "beq 3f\n\t"                                 \
    "vmrs %[n], p0\n\t"                          \
    "str %[n], %[vpr]\n\t"                       \
    "ldr %[n], %[rem]\n\t"                       \
    "vctp.8 %[n]\n\t" PLOADS CHUNK               \
    "ldr %[n], %[vpr]\n\t"                       \
    "vmsr p0, %[n]\n"                             \
    "3:\n\t"
#define MCU_U4_LOOP_(ZERO, LOADS, PLOADS, CHUNK) MCU_U4_WHOLE_(ZERO, LOADS, CHUNK) MCU_U4_TAIL_(PLOADS, CHUNK)
#define MCU_U4_ZERO1_ "movs %[s0], #0\n\tmovs %[s1], #0\n\tmovs %[s2], #0\n\tmovs %[s3], #0\n\t"
/* The sums started at the block's folded biases (both rows' the same: T, the second row's loads or
 * nothing), the bias pointer moved on by four units. */
#define MCU_U4_BIAS_(T)                                       \
    "ldr %[s0], %[bias]\n\t"                                  \
    "adds %[s1], %[s0], #16\n\t"                              \
    "str %[s1], %[bias]\n\t" T                                \
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

/* The block's constants: vector V from the pointer in field F, which moves on by four units. */
#define MCU_U4_NEXT4_(V, F)                                   \
    "ldr %[s0], %[" F "]\n\t"                                 \
    "vldrw.u32 %q[" V "], [%[s0]], #16\n\t"                   \
    "str %[s0], %[" F "]\n\t"
/* mcu_requantize_x4_split of Y by the multiplier in %q[m], left shift in %q[x0], right in %q[r]. */
#define MCU_U4_REQUANT_(Y)                                    \
    "vshl.s32 %q[" Y "], %q[" Y "], %q[x0]\n\t"               \
    "vqrdmulh.s32 %q[" Y "], %q[" Y "], %q[m]\n\t"            \
    "vand %q[w], %q[" Y "], %q[r]\n\t"                        \
    "vshr.s32 %q[w], %q[w], #31\n\t"                          \
    "vqadd.s32 %q[" Y "], %q[" Y "], %q[w]\n\t"               \
    "vrshl.s32 %q[" Y "], %q[" Y "], %q[r]\n\t"
/* Y offset (by %[s1]), clamped to [%q[x0], %q[m]] and stored at the output pointer in field F, which
 * moves on. */
#define MCU_U4_STORE_(Y, F)                                   \
    "vadd.i32 %q[" Y "], %q[" Y "], %[s1]\n\t"                \
    "vmax.s32 %q[" Y "], %q[" Y "], %q[x0]\n\t"               \
    "vmin.s32 %q[" Y "], %q[" Y "], %q[m]\n\t"                \
    "ldr %[p0], %[" F "]\n\t"                                 \
    "vstrb.32 %q[" Y "], [%[p0]], #4\n\t"                     \
    "str %[p0], %[" F "]\n\t"

/* A whole block, of one row or two, in two statements (one would take more than GCC's 30 operands): the
 * sums (BIAS, LOADS, CHUNK, TAIL) as the lanes (LANES); then the multipliers and shifts (the shift split into
 * its left part, in x0, and its right one), REQUANT, the offset and clamp's bounds, STORE. The fields of
 * mcu_u4_rows each statement moves on or reads are its memory operands. */
#define MCU_U4_SUMS_(BIAS, LOADS, CHUNK, TAIL, LANES) MCU_U4_WHOLE_(BIAS, LOADS, CHUNK) TAIL LANES
#define MCU_U4_OUT_(REQUANT, STORE)                                                                        \
    MCU_U4_NEXT4_("m", "multiplier") MCU_U4_NEXT4_("r", "shift")                                          \
    "vmov.i32 %q[w], #0\n\t"                                                                               \
    "vmax.s32 %q[x0], %q[r], %q[w]\n\t"                                                                    \
    "vmin.s32 %q[r], %q[r], %q[w]\n\t"                                                                     \
    REQUANT                                                                                                \
    "ldr %[s1], %[offset]\n\t"                                                                             \
    "ldr %[s2], %[min]\n\t"                                                                                \
    "ldr %[s3], %[max]\n\t"                                                                                \
    "vdup.32 %q[x0], %[s2]\n\t"                                                                            \
    "vdup.32 %q[m], %[s3]\n\t"                                                                             \
    STORE
#define MCU_U4_SUMS_OPERANDS_                                                                              \
    [s0] "=&Te"(s0), [s1] "=&Te"(s1), [s2] "=&Te"(s2), [s3] "=&Te"(s3), [x0] "=&w"(v0), [w] "=&w"(w),     \
        [wp] "+r"(wp), [n] "+r"(n), [bias] "+m"(c->bias), [vpr] "+m"(c->vpr)
#define MCU_U4_OUT_OPERANDS_                                                                               \
    [x0] "=&w"(v0), [w] "=&w"(w), [m] "=&w"(m), [r] "=&w"(r), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), \
        [s3] "=&r"(s3), [p0] "=&l"(p), [multiplier] "+m"(c->multiplier), [shift] "+m"(c->shift),          \
        [out0] "+m"(c->out0)
#define MCU_U4_OUT_READ_ [offset] "m"(c->offset), [min] "m"(c->min), [max] "m"(c->max)
#define MCU_U4_SUMS2_(TAIL)                                                                                \
    MCU_U4_SUMS_(MCU_U4_BIAS2_, "vldrb.u8 %q[x0], [%[p0]], #16\n\tvldrb.u8 %q[x1], [%[p1]], #16\n\t",      \
                 MCU_U4_CHUNK2_, TAIL,                                                                     \
                 MCU_U4_LANES_("y0", "s0", "s1", "s2", "s3") MCU_U4_LANES_("y1", "t0", "t1", "t2", "t3"))
#define MCU_U4_SUMS2_OPERANDS_                                                                             \
    : MCU_U4_SUMS_OPERANDS_, [t0] "=&Te"(t0), [t1] "=&Te"(t1), [t2] "=&Te"(t2), [t3] "=&Te"(t3),            \
      [x1] "=&w"(v1), [y0] "=&w"(y0), [y1] "=&w"(y1), [p0] "+l"(x0), [p1] "+r"(x1)                         \
    : [rem] "m"(c->rem)                                                                                    \
    : "cc", "memory"
#define MCU_U4_SUMS1_(TAIL)                                                                                \
    MCU_U4_SUMS_(MCU_U4_BIAS_(""), "vldrb.u8 %q[x0], [%[p0]], #16\n\t", MCU_U4_CHUNK1_, TAIL,              \
                 MCU_U4_LANES_("y0", "s0", "s1", "s2", "s3"))
#define MCU_U4_SUMS1_OPERANDS_                                                                             \
    : MCU_U4_SUMS_OPERANDS_, [y0] "=&w"(y0), [p0] "+l"(x0)                                                 \
    : [rem] "m"(c->rem)                                                                                    \
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
    int8_t *p;
    const int8_t *wp = *block;
    if (tail) {
        __asm__ volatile(MCU_U4_SUMS2_(MCU_U4_TAIL_(
                             "vpstt\n\tvldrbt.u8 %q[x0], [%[p0]]\n\tvldrbt.u8 %q[x1], [%[p1]]\n\t", MCU_U4_CHUNK2_))
                         MCU_U4_SUMS2_OPERANDS_);
    } else {
        __asm__ volatile(MCU_U4_SUMS2_("") MCU_U4_SUMS2_OPERANDS_);
    }
    __asm__ volatile(MCU_U4_OUT_(MCU_U4_REQUANT_("y0") MCU_U4_REQUANT_("y1"),
                                 MCU_U4_STORE_("y0", "out0") MCU_U4_STORE_("y1", "out1"))
                     : [y0] "+w"(y0), [y1] "+w"(y1), MCU_U4_OUT_OPERANDS_, [out1] "+m"(c->out1)
                     : MCU_U4_OUT_READ_
                     : "memory");
    *block = wp;
}

/* mcu_block2_u4 of one row, x0 (a last odd row's blocks). */
static inline __attribute__((always_inline)) void mcu_block1_u4(const int8_t *x0, int32_t depth, int tail,
                                                                const int8_t **block, mcu_u4_rows *c)
{
    int32_t n = depth >> 4, s0, s1, s2, s3;
    int8x16_t v0, w;
    int32x4_t y0, m, r;
    int8_t *p;
    const int8_t *wp = *block;
    if (tail) {
        __asm__ volatile(MCU_U4_SUMS1_(MCU_U4_TAIL_("vpst\n\tvldrbt.u8 %q[x0], [%[p0]]\n\t", MCU_U4_CHUNK1_))
                         MCU_U4_SUMS1_OPERANDS_);
    } else {
        __asm__ volatile(MCU_U4_SUMS1_("") MCU_U4_SUMS1_OPERANDS_);
    }
    __asm__ volatile(MCU_U4_OUT_(MCU_U4_REQUANT_("y0"), MCU_U4_STORE_("y0", "out0"))
                     : [y0] "+w"(y0), MCU_U4_OUT_OPERANDS_
                     : MCU_U4_OUT_READ_
                     : "memory");
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
              [y0] "=&w"(r), [p0] "+r"(x), [wp] "+r"(block), [n] "+r"(n), [vpr] "+m"(c->vpr)
            : [rem] "m"(c->rem)
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

#endif /* MCU_NN_FC_MVE_H */
