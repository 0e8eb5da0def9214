"""The requantize helpers against a plain big-integer statement of gemmlowp's definition."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from mcugen.numerics import fixedpoint as fp
from mcugen.numerics.epilogue import OutputStage, input_zero_point_in_bias
from mcugen.numerics.requant import quantize_multiplier, requantize, rounding_divide_by_pot, srdhm

INT32 = st.integers(-(1 << 31), (1 << 31) - 1)


def reference_srdhm(a: int, b: int) -> int:
    """gemmlowp SaturatingRoundingDoublingHighMul as written there, Python ints."""
    if a == b == -(1 << 31):
        return (1 << 31) - 1
    ab = a * b
    v = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
    return (v >> 31) if v >= 0 else -((-v) >> 31)  # C division truncates toward zero


def reference_rdbpot(x: int, exponent: int) -> int:
    mask = (1 << exponent) - 1
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if (x & mask) > threshold else 0)


def reference(x: int, m: int, shift: int) -> int:
    """TFLM MultiplyByQuantizedMultiplier, one value at a time, Python ints (x * 2^left wraps)."""
    x = ((x * (1 << max(shift, 0)) + (1 << 31)) % (1 << 32)) - (1 << 31)
    return reference_rdbpot(reference_srdhm(x, m), max(-shift, 0))


@given(st.lists(st.tuples(INT32, INT32), min_size=1, max_size=50), st.integers(0, 31))
def test_srdhm_and_rdbpot_short_forms_match_gemmlowp(pairs, exponent):
    pairs.append((-(1 << 31), -(1 << 31)))  # the saturating case
    a, b = (np.array(column, dtype=np.int64) for column in zip(*pairs))
    want = [reference_srdhm(x, y) for x, y in pairs]
    assert srdhm(a, b).tolist() == want
    assert [srdhm(x, y) for x, y in pairs] == want  # Python ints take the same code
    assert rounding_divide_by_pot(a, exponent).tolist() == [reference_rdbpot(x, exponent) for x in a.tolist()]


@given(st.integers(-(1 << 24), 1 << 24), st.floats(1e-6, 4.0))
def test_requantize_matches_definition(x, real):
    m, shift = quantize_multiplier(real)
    assert int(requantize(np.int64(x), m, shift)) == reference(x, m, shift)


def dsp_fast_form(x: int, m: int, right: int, offset: int) -> int:
    """runtime_c's mcu_requantize_fast with a channel's rounding term (ops/_quant.py channel_table) as ARM
    executes it: SMMLAR of 2x, m and 2^(r-1) + (offset << r), the sign of x added, shifted right by r."""
    def wrap(v: int) -> int:
        return ((v + (1 << 31)) % (1 << 32)) - (1 << 31)
    round_ = (1 << (right - 1)) + (offset << right)
    v = wrap((((round_ << 32) + wrap(2 * x) * m + (1 << 31)) >> 32))
    return (v + (x >> 31)) >> right


@example(-1, 1 << 30, 1, 0)  # x < 0 with a high product of 0: the sign of x stands in for that of the product
@example(-1, 1 << 30, 1, -128)
@example(-(1 << 30) + 1, (1 << 31) - 1, 22, 127)
@example(7, 0, 5, 3)
@given(st.integers(-(1 << 30) + 1, (1 << 30) - 1), st.integers(1 << 30, (1 << 31) - 1), st.integers(1, 31),
       st.integers(-128, 127))
def test_the_dsp_four_instruction_requantization_matches_the_definition(x, m, right, offset):
    """Within the bounds channel_table makes a channel fast by (|x| < 2^30, a right shift, m >= 0, the
    rounding term below 2^30), the SMMLAR form is TFLM's requantization plus the output offset."""
    assume(abs((1 << (right - 1)) + (offset << right)) < 1 << 30)
    assert dsp_fast_form(x, m, right, offset) == reference(x, m, -right) + offset


@given(st.floats(1e-9, 1e6))
def test_quantize_multiplier_represents_the_real_value(real):
    m, shift = quantize_multiplier(real)
    if m:
        assert (1 << 30) <= m < (1 << 31)
        assert math.isclose(m * 2.0 ** (shift - 31), real, rel_tol=2 ** -30)


@given(st.integers(1, 6), st.integers(1, 40), st.floats(1e-5, 8.0), st.integers(-128, 127), st.integers(-128, 127),
       st.sampled_from([(-128, 127), (0, 127), (-20, 90)]), st.integers(0, 2**16))
@settings(max_examples=60)
def test_output_stage_routes_agree_with_the_definition(channels, taps, scale, input_zp, output_zp, clamp, seed):
    """Both routes of OutputStage (stepped table for small layers, elementwise for big ones)
    equal clamp(requantize(acc + bias) + zp) on accumulators across the layer's whole reach."""
    rng = np.random.default_rng(seed)
    weights = rng.integers(-127, 128, size=(taps, channels)).astype(np.float64)
    bias = rng.integers(-5000, 5000, size=channels).astype(np.float64)
    pairs = [quantize_multiplier(scale * float(f)) for f in rng.uniform(0.01, 1.0, size=channels)]
    mult, shift = (np.array(column) for column in zip(*pairs))
    stage = OutputStage(mult, shift, output_zp, *clamp, weights, input_zero_point_in_bias(bias, weights, input_zp))
    rows = np.concatenate([rng.integers(-128, 128, size=(60, taps)), np.full((1, taps), -128),
                           np.full((1, taps), 127)])
    want_acc = (rows - input_zp).astype(np.float64) @ weights
    acc = rows.astype(np.float64) @ weights
    want = np.array([[min(max(reference(int(a + b), int(m), int(s)) + output_zp, clamp[0]), clamp[1])
                      for a, b, m, s in zip(row, bias, mult, shift)] for row in want_acc])
    np.testing.assert_array_equal(stage.elementwise(acc.copy()), want)
    if stage.in_range:
        np.testing.assert_array_equal(stage.stepped(acc.copy()), want)


@given(st.lists(st.integers(1 << 19, 1 << 30), min_size=1, max_size=20))
def test_fixed_point_reciprocal_same_on_python_ints_and_arrays(sums):
    scale, bits = fp.reciprocal(np.array(sums), 12)
    assert [fp.reciprocal(s, 12) for s in sums] == list(zip(scale.tolist(), bits.tolist()))
