"""gemmlowp fixed-point transcendental functions, vectorised over int64 arrays.

A value with k integer bits is an int32 raw r meaning r / 2^(31 - k) (Qk.(31-k)).
TFLM's int8 SOFTMAX, LOGISTIC and TANH are built on these; the constants and the
order of roundings are gemmlowp's, so results match bit for bit. Like the
helpers in mcugen.numerics.requant, they also take plain Python ints (one value at a time).
"""
from __future__ import annotations

import numpy as np

from mcugen.numerics.requant import (INT32_MAX, INT32_MIN, Ints, int64, rounding_divide_by_pot, srdhm, trunc_div_pow2,
                                     where, wrap_int32)


def saturating_shift_left(x, exponent: int):
    """SaturatingRoundingMultiplyByPOT with a positive exponent."""
    x = int64(x)
    if exponent == 0:
        return x
    threshold = (1 << (31 - exponent)) - 1
    return where(x > threshold, INT32_MAX, where(x < -threshold, INT32_MIN, x << exponent))


def rescale(x, src_bits: int, dst_bits: int):
    """gemmlowp Rescale<dst>(FixedPoint<src>): change integer bits, rounding or saturating."""
    exponent = src_bits - dst_bits
    if exponent >= 0:
        return saturating_shift_left(x, exponent)
    return rounding_divide_by_pot(x, -exponent)


def rounding_half_sum(a, b):
    s = int64(a) + b
    return trunc_div_pow2(s + where(s >= 0, 1, -1), 1)


def _exp_on_interval_between_negative_one_quarter_and_0_excl(a):
    constant_term = 1895147668  # exp(-1/8) in Q0.31
    constant_1_over_3 = 715827883
    x = a + (1 << 28)  # Taylor expansion around -1/8
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    x4_over_4 = rounding_divide_by_pot(x4, 2)
    poly = rounding_divide_by_pot(srdhm(x4_over_4 + x3, constant_1_over_3) + x2, 1)
    return constant_term + srdhm(constant_term, x + poly)


_EXP_BARREL = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
               (2, 39332535), (3, 720401), (4, 242))


def exp_on_negative_values(a, integer_bits: int):
    """exp(a) for a <= 0 given in Q(integer_bits); result in Q0.31."""
    a = int64(a)
    fractional_bits = 31 - integer_bits
    one_quarter = 1 << (fractional_bits - 2)
    a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter
    result = _exp_on_interval_between_negative_one_quarter_and_0_excl(
        rescale(a_mod_quarter_minus_one_quarter, integer_bits, 0))
    remainder = a_mod_quarter_minus_one_quarter - a
    for exponent, multiplier in _EXP_BARREL:
        if integer_bits > exponent:
            bit = 1 << (fractional_bits + exponent)
            result = where(remainder & bit != 0, srdhm(result, multiplier), result)
    if integer_bits > 5:
        result = where(a < -(1 << (36 - integer_bits)), 0, result)
    return where(a == 0, INT32_MAX, result)


def _newton_reciprocal_half(half_denominator):
    """Three Newton-Raphson steps for 1/half_denominator in Q2.29 (48/17 - 32/17 d start)."""
    one_q2 = 1 << 29
    x = 1515870810 + srdhm(half_denominator, -1010580540)
    for _ in range(3):
        one_minus = one_q2 - srdhm(half_denominator, x)
        x = x + rescale(srdhm(x, one_minus), 4, 2)
    return x


def one_over_one_plus_x_for_x_in_0_1(a):
    x = _newton_reciprocal_half(rounding_half_sum(a, INT32_MAX))
    return rescale(x, 1, 0)


def one_minus_x_over_one_plus_x_for_x_in_0_1(a):
    x = _newton_reciprocal_half(rounding_half_sum(a, INT32_MAX))
    return rescale(x - (1 << 29), 2, 0)


def logistic(a, integer_bits: int):
    a = int64(a)
    positive = a > 0
    abs_input = where(positive, a, -a)
    if_positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(-abs_input, integer_bits))
    result = where(positive, if_positive, INT32_MAX - if_positive)
    return where(a == 0, 1 << 30, result)


def tanh(a, integer_bits: int):
    a = int64(a)
    negative = a < 0
    n = where(negative, a, -a)
    # ExactMulByPot<1>: same raw value read with one more integer bit, i.e. 2n.
    t = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(n, integer_bits + 1))
    return where(a == 0, 0, where(negative, -t, t))


def count_leading_zeros_u32(x):
    if isinstance(x, int):
        return 32 - x.bit_length()
    bit_length = np.frexp(np.asarray(x, dtype=np.float64))[1]  # exact below 2^53; 0 for x == 0
    return 32 - bit_length


def reciprocal(x, integer_bits: int):
    """TFLM GetReciprocal: (1/x in Q0.31, num_bits_over_unit) for positive Q(integer_bits) x."""
    x = int64(x)
    headroom_plus_one = count_leading_zeros_u32(x)
    num_bits_over_unit = integer_bits - headroom_plus_one
    shifted_minus_one = ((x << headroom_plus_one) & 0xFFFFFFFF) - (1 << 31)
    return one_over_one_plus_x_for_x_in_0_1(shifted_minus_one), num_bits_over_unit


def inv_sqrt_multiplier(value: Ints) -> tuple[Ints, Ints]:
    """TFLM GetInvSqrtQuantizedMultiplierExp(value, kReverseShift): 1/sqrt(value) as the (multiplier,
    shift) pair MultiplyByQuantizedMultiplier takes, for values >= 0 below 2^32 (an int or an array; 0 and 1
    give (INT32_MAX, 0)). The value is normalised to [2^27, 2^29) by bit pairs, then five Newton-Raphson
    steps x <- 1.5x - (v/2)x^3 run in Q3.28, and x is scaled by sqrt(2)/2 in Q0.31."""
    v = int64(value)
    bits = 32 - count_leading_zeros_u32(v)
    down = np.maximum((bits - 28) // 2, 0)  # TFLM's loop: value /= 4 while value >= 2^29
    v = v >> (2 * down)
    pairs = np.maximum((count_leading_zeros_u32(v) - 1) // 2 - 1, 0)
    shift = 11 + down - pairs
    v = v << (2 * pairs)
    half_input = rounding_divide_by_pot(v >> 1, 1)
    half_three = (1 << 28) + (1 << 27)
    x = int64(where(v > -1, 1 << 28, 0))  # 1.0 in Q3.28, shaped as v
    for _ in range(5):
        x3 = rescale(srdhm(srdhm(x, x), x), 9, 3)
        x = rescale(wrap_int32(srdhm(half_three, x) - srdhm(half_input, x3)), 6, 3)
    x = srdhm(x, 1518500250)  # sqrt(2)/2 in Q0.31
    x = where(shift < 0, wrap_int32(x << np.maximum(-shift, 0)), x)
    small = int64(value) <= 1
    multiplier, exponent = where(small, INT32_MAX, x), where(small, 0, -np.maximum(shift, 0))
    if isinstance(value, int):
        return int(multiplier), int(exponent)
    return multiplier, exponent
