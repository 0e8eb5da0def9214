"""Integer requantization exactly as TFLM does it (the double-rounding build).

A real multiplier M (e.g. s_in * s_w / s_out) is stored as a Q0.31 integer m in
[2^30, 2^31) and a power-of-two exponent e, so that M ~= m * 2^(e - 31).
Applying it to an int32 accumulator x happens in two roundings, which is what
gemmlowp and TFLM do in every kernel (FULLY_CONNECTED included):

  1. x' = x * 2^max(e, 0)                  (exact left shift, wraps like int32)
  2. h  = SaturatingRoundingDoublingHighMul(x', m)
        = trunc_to_zero((x' * m + nudge) / 2^31), nudge = 2^30 if x'*m >= 0
          else 1 - 2^30; the single overflow case (-2^31 * -2^31) gives 2^31 - 1
  3. y  = RoundingDivideByPOT(h, max(-e, 0))
        = (h >> n) + 1 if the dropped bits exceed half, where "half" is
          2^(n-1) - 1 for h >= 0 and 2^(n-1) for h < 0 (ties away from zero)

Everything here is vectorised over numpy int64 arrays; scalars work too.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

INT32_MIN = -(1 << 31)
INT32_MAX = (1 << 31) - 1


def round_half_away(value: float) -> int:
    """C's std::round / TfLiteRound on a double: ties go away from zero."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLM QuantizeMultiplier: real ~= m * 2^(shift - 31), m in [2^30, 2^31)."""
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    q_fixed = round_half_away(q * (1 << 31))
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    if shift < -31:  # every bit would be shifted out: TFLM flushes to zero
        return 0, 0
    return q_fixed, shift


def wrap_int32(x):
    """What an int32 register holds after an overflowing C multiply or add."""
    x = np.asarray(x, dtype=np.int64)
    return ((x + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def trunc_div_pow2(x, bits: int):
    """C integer division by 2^bits (rounds toward zero)."""
    x = np.asarray(x, dtype=np.int64)
    return np.where(x >= 0, x >> bits, -((-x) >> bits))


def srdhm(a, b):
    """gemmlowp SaturatingRoundingDoublingHighMul on int32 values."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    ab = a * b
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    high = trunc_div_pow2(ab + nudge, 31)
    return np.where((a == b) & (a == INT32_MIN), INT32_MAX, high)


def rounding_divide_by_pot(x, exponent):
    """gemmlowp RoundingDivideByPOT: x / 2^exponent, ties away from zero."""
    x = np.asarray(x, dtype=np.int64)
    exponent = np.asarray(exponent, dtype=np.int64)
    mask = (np.int64(1) << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


class Requant(NamedTuple):
    """A (multiplier, shift) pair with its shift split into the constants the two roundings use."""

    multiplier: np.ndarray
    left: np.ndarray | None  # None when no channel shifts left
    right: np.ndarray
    rounding: np.ndarray  # 2^(right-1), or 0 when right == 0
    ties_down: np.ndarray  # -1 where right > 0: negative ties round away from zero

    @classmethod
    def of(cls, multiplier, shift) -> "Requant":
        shift = np.asarray(shift, dtype=np.int64)
        right = np.maximum(-shift, 0)
        return cls(np.asarray(multiplier, dtype=np.int64),
                   np.maximum(shift, 0) if shift.max(initial=0) > 0 else None, right,
                   np.where(right > 0, np.int64(1) << np.maximum(right - 1, 0), 0),
                   -(right > 0).astype(np.int64))


def requantize(acc, multiplier, shift=None):
    """TFLM MultiplyByQuantizedMultiplier: acc * m * 2^(shift - 31), rounded twice.

    Pass (multiplier, shift), or a Requant made once with Requant.of(multiplier,
    shift). Multipliers are >= 0 (every QuantizeMultiplier result) and may be
    arrays broadcasting against `acc` (per-channel: channel on the last axis).
    The steps are those of the module docstring, written branch-free because
    this is the golden model's hot path; `x >> 63` is -1 for negatives, else 0.
    """
    rq = multiplier if isinstance(multiplier, Requant) else Requant.of(multiplier, shift)
    x = np.asarray(acc, dtype=np.int64)
    if rq.left is not None:
        x = wrap_int32(x << rq.left)
    ab = x * rq.multiplier
    v = ab + ((ab >> 63) & (1 - (1 << 31))) + (1 << 30)       # + nudge (2^30 or 1 - 2^30)
    high = (v + ((v >> 63) & INT32_MAX)) >> 31                 # / 2^31, truncating toward zero
    return (high + rq.rounding + ((high >> 63) & rq.ties_down)) >> rq.right


def saturate_int8(x, low: int = -128, high: int = 127) -> np.ndarray:
    """Clamp to [low, high] (an activation range within int8) and narrow to int8."""
    return np.minimum(np.maximum(x, low), high).astype(np.int8)


def quantize_float(value: float, scale: float, zero_point: int) -> int:
    """TFLM's Quantize(): zero_point + round(value / scale), division in float32."""
    ratio = float(np.float32(value) / np.float32(scale))
    return zero_point + round_half_away(ratio)


def activation_range(activation: str, scale: float, zero_point: int, qmin: int = -128,
                     qmax: int = 127) -> tuple[int, int]:
    """TFLM CalculateActivationRangeQuantized for a fused activation."""
    if activation == "NONE":
        return qmin, qmax
    if activation == "RELU":
        return max(qmin, quantize_float(0.0, scale, zero_point)), qmax
    if activation == "RELU6":
        return (max(qmin, quantize_float(0.0, scale, zero_point)),
                min(qmax, quantize_float(6.0, scale, zero_point)))
    if activation == "RELU_N1_TO_1":
        return (max(qmin, quantize_float(-1.0, scale, zero_point)),
                min(qmax, quantize_float(1.0, scale, zero_point)))
    raise ValueError(f"no quantized range for activation {activation}")
