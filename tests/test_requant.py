"""The requantize helper against a plain big-integer statement of gemmlowp's definition."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mcugen.requant import quantize_multiplier, requantize


def reference(x: int, m: int, shift: int) -> int:
    """TFLM MultiplyByQuantizedMultiplier, one value at a time, Python ints."""
    x = x * (1 << max(shift, 0))
    ab = x * m
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    v = ab + nudge
    high = (v >> 31) if v >= 0 else -((-v) >> 31)  # C division truncates toward zero
    right = max(-shift, 0)
    mask = (1 << right) - 1
    threshold = (mask >> 1) + (1 if high < 0 else 0)
    return (high >> right) + (1 if (high & mask) > threshold else 0)


@given(st.integers(-(1 << 24), 1 << 24), st.floats(1e-6, 4.0))
def test_requantize_matches_definition(x, real):
    m, shift = quantize_multiplier(real)
    assert int(requantize(np.int64(x), m, shift)) == reference(x, m, shift)


@given(st.floats(1e-9, 1e6))
def test_quantize_multiplier_represents_the_real_value(real):
    m, shift = quantize_multiplier(real)
    if m:
        assert (1 << 30) <= m < (1 << 31)
        assert math.isclose(m * 2.0 ** (shift - 31), real, rel_tol=2 ** -30)
