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

Both roundings have a shorter exact form with floor division (`>>` on int64),
which is what the vectorised code uses:

  2'. h = (x' * m + 2^30) >> 31: for a product p < 0, truncating
      (p + 1 - 2^30) / 2^31 toward zero is flooring it plus 2^31 - 1, i.e.
      flooring (p + 2^30) / 2^31 -- the same expression as for p >= 0.
  3'. y = (h + 2^(n-1) - [h < 0]) >> n for n > 0 (a tie goes up for h >= 0 and
      down for h < 0: away from zero); y = h for n = 0.

The helpers below take numpy int64 arrays, or plain Python ints, which stay
Python ints: exact, and far cheaper than numpy calls when there is one value.
"""
from __future__ import annotations

import math
from typing import Any, NamedTuple, TypeVar

import numpy as np

from mcugen.errors import McugenError

# A Python int or an int64 array (the helpers keep whichever they are given); Any where the
# answer's kind depends on several arguments
I = TypeVar("I", int, np.ndarray)
Ints = Any

INT32_MIN = -(1 << 31)
INT32_MAX = (1 << 31) - 1


def round_half_away(value: float) -> int:
    """C's std::round / TfLiteRound on a double: ties go away from zero."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLM QuantizeMultiplier: real ~= m * 2^(shift - 31), m in [2^30, 2^31)."""
    if not math.isfinite(real):  # TFLM's rounding of NaN or infinity to int64 is undefined behaviour
        raise McugenError(f"a rescale factor of {real:g} is not a finite number",
                          "check this layer's scales and options")
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    q_fixed = round_half_away(q * (1 << 31))
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    if shift < -31:  # every bit would be shifted out: TFLM flushes to zero
        return 0, 0
    if shift > 30:  # x << shift would overflow int32 for every x but 0, in TFLM and in C
        raise McugenError(f"a rescale factor of {real:g} is beyond what an int32 requantize represents",
                          "check the scales of this layer's tensors")
    return q_fixed, shift


def multiplier_shift(real: float) -> int:
    """The shift QuantizeMultiplier gives a finite, positive factor, without judging it."""
    q, shift = math.frexp(real)
    return shift + (round_half_away(q * (1 << 31)) == 1 << 31)


def quantize_multiplier_below_one(real: float) -> tuple[int, int]:
    """TFLM QuantizeMultiplierSmallerThanOneExp (ADD's and SUB's rescales): QuantizeMultiplier of a
    factor that TFLM CHECKs (aborting the program) lies in (0, 1) and rounds to no left shift."""
    multiplier, shift = quantize_multiplier(real) if 0.0 < real < 1.0 else (0, 1)
    if shift > 0:
        raise McugenError(f"a rescale factor of {real:g} is outside (0, 1), where TFLM's Prepare aborts",
                          "check the scales of this layer's inputs and output")
    return multiplier, shift


def int64(x: Ints) -> Ints:
    """Python ints as they are; anything else as a numpy int64 array."""
    return x if isinstance(x, int) else np.asarray(x, dtype=np.int64)


def where(condition: Ints, a: Ints, b: Ints) -> Ints:
    """np.where, or a plain choice when the condition is a Python bool."""
    if isinstance(condition, bool):
        return a if condition else b
    return np.where(condition, a, b)


def wrap_int32(x: I) -> I:
    """What an int32 register holds after an overflowing C multiply or add."""
    return ((int64(x) + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def trunc_div_pow2(x: I, bits: int) -> I:
    """C integer division by 2^bits (rounds toward zero)."""
    x = int64(x)
    return where(x >= 0, x >> bits, -((-x) >> bits))


def srdhm(a: Ints, b: Ints) -> Ints:
    """gemmlowp SaturatingRoundingDoublingHighMul on int32 values (step 2' above); only
    -2^31 * -2^31 reaches 2^31, which saturates to 2^31 - 1."""
    h = (int64(a) * int64(b) + (1 << 30)) >> 31
    return h - (h > INT32_MAX)


def rounding_divide_by_pot(x: Ints, exponent: Ints) -> Ints:
    """gemmlowp RoundingDivideByPOT: x / 2^exponent, ties away from zero."""
    x = int64(x)
    mask = (1 << int64(exponent)) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


_HALF_Q31 = np.int64(1 << 30)


class Requant(NamedTuple):
    """A (multiplier, shift) pair split into the constants the two roundings use.

    zero_point is added to the result; low/high then clamp it (requantize_clamp). A bias
    folded in is added to the accumulator first, which is exact only where acc + bias
    cannot wrap int32 (it rides on step 2's nudge: (acc + b) * m = acc * m + b * m).
    """

    multiplier: np.ndarray
    left: np.ndarray | None  # None when no channel shifts left
    nudge: np.ndarray  # 2^30, plus bias * 2^left * m
    right: np.ndarray
    offset: np.ndarray  # 2^(right-1) where right > 0, plus zero_point * 2^right
    ties_down: np.ndarray | None  # -1 where right > 0 (negative ties round away from zero); None if all
    low: int
    high: int

    @classmethod
    def of(cls, multiplier: Ints, shift: Ints, zero_point: int = 0, low: int = -128, high: int = 127,
           bias: Ints = None) -> "Requant":
        multiplier = np.asarray(multiplier, dtype=np.int64)
        shift = np.asarray(shift, dtype=np.int64)
        left, right = np.maximum(shift, 0), np.maximum(-shift, 0)
        rounding = np.where(right > 0, np.int64(1) << np.maximum(right - 1, 0), 0)
        return cls(multiplier, left if left.max(initial=0) > 0 else None,
                   np.asarray(_HALF_Q31 + (0 if bias is None else (np.asarray(bias, dtype=np.int64) << left) * multiplier)),
                   right,
                   # adding zero_point before the last shift is exact: it's a multiple of 2^right
                   rounding + (np.int64(zero_point) << right),
                   None if right.min(initial=1) > 0 else -(right > 0).astype(np.int64), low, high)

    def spread(self, shape: tuple[int, ...]) -> "Requant":
        """The same, with every per-channel array repeated to `shape`: numpy's inner loop over a
        short channel axis costs more than the arithmetic, so small layers run faster this way."""
        def full(a: Ints) -> Ints:
            return a if a is None or np.ndim(a) == 0 else np.ascontiguousarray(np.broadcast_to(a, shape))
        return self._replace(multiplier=full(self.multiplier), left=full(self.left), nudge=full(self.nudge),
                             right=full(self.right), offset=full(self.offset), ties_down=full(self.ties_down))


def requantize(acc: Ints, multiplier: "Ints | Requant", shift: Ints = None) -> np.ndarray:
    """TFLM MultiplyByQuantizedMultiplier: acc * m * 2^(shift - 31), rounded twice.

    Pass (multiplier, shift), or a Requant made once with Requant.of(multiplier,
    shift[, zero_point]), whose zero point is then added. Multipliers are >= 0
    (every QuantizeMultiplier result), so srdhm never saturates, and may be
    arrays broadcasting against `acc` (per-channel: channel on the last axis).
    Steps 1, 2' and 3' of the module docstring, in place on one int64 array
    because this is the golden model's hot path; `h >> 63` is -1 for h < 0.
    """
    rq = multiplier if isinstance(multiplier, Requant) else Requant.of(multiplier, shift)
    x = np.asarray(acc)
    if rq.left is not None:
        x = wrap_int32(x.astype(np.int64) << rq.left)
    h = np.asarray(np.multiply(x, rq.multiplier, dtype=np.int64))  # an array even for 0-d input
    h += rq.nudge
    h >>= 31
    sign = h >> 63
    if rq.ties_down is not None:
        sign &= rq.ties_down
    h += sign
    h += rq.offset
    h >>= rq.right
    return h


def requantize_clamp(acc: Ints, rq: Requant, dtype: Any = np.int8) -> np.ndarray:
    """requantize() with rq's zero point, clamped to [rq.low, rq.high], as dtype."""
    h = requantize(acc, rq)
    np.maximum(h, rq.low, out=h)
    np.minimum(h, rq.high, out=h)
    return h.astype(dtype)


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
