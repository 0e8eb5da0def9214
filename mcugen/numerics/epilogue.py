"""The golden model's conv / FC epilogue: TFLM's requantization (mcugen/numerics/requant.py) over a whole layer's
dot products at once, vectorised for numpy. Every route here is derived from requant.py's plain helpers
and tested against them (tests/test_requant.py); nothing here goes to C.
"""
from __future__ import annotations

import numpy as np

from mcugen.numerics.requant import Requant, requantize, requantize_clamp


def input_zero_point_in_bias(bias: np.ndarray, weights: np.ndarray, input_zero_point: int) -> np.ndarray:
    """sum((x - z) * w) + b == sum(x * w) + (b - z * sum(w)): the golden matmuls take raw int8
    inputs (padding with z), and the bias absorbs the zero point. weights: [taps, channels]."""
    return bias - input_zero_point * weights.sum(axis=0)


class OutputStage:
    """The epilogue of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED for the golden model.

    Takes the dot products of raw int8 inputs and weights as float64 (exact integers: the
    golden matmuls run in float64), channel on the last axis, and returns
    clamp(requantize(acc + bias) + zero_point, low, high) as int8, acc + bias wrapping
    like TFLM's int32 accumulator. Two routes to the same numbers:

    - requantize_clamp() elementwise: about ten numpy calls, each costing microseconds
      whatever the size, which dominates small layers;
    - for at most SMALL outputs: per channel, the output is a non-decreasing step
      function of the accumulator (multipliers are >= 0) over the range the layer's
      weights let it reach, so it is fully described by the accumulator values where
      it steps up. Those are found once, by bisection with requantize() itself;
      then one searchsorted gives every output. Channel c's accumulator is keyed
      as acc + c * 2^34 so that all channels share one sorted table. This route is
      taken only when that range (in_range) can neither wrap the int32 accumulator nor
      overflow the left shift of a multiplier > 1, which keeps the function monotone.
    """

    SMALL = 512
    SPREAD = 16384  # up to this many outputs, per-channel constants are repeated to full size
    _CHANNEL_KEY = 2.0 ** 34

    def __init__(self, multiplier, shift, zero_point: int, low: int, high: int,
                 weights: np.ndarray, bias: np.ndarray):
        """weights: [taps, channels]; bias: [channels], with the input zero point's share folded in
        (see input_zero_point_in_bias)."""
        bias = np.reshape(bias, -1)  # TFLM reads a bias's values whatever its shape ([1, C] too)
        self.rq = Requant.of(multiplier, shift, zero_point, low, high)
        self.bias = bias.astype(np.float64)
        span = np.array([-128.0, 127.0])[:, None, None] * weights  # [2, taps, channels]
        self.reach = (span.min(axis=0).sum(axis=0) + self.bias, span.max(axis=0).sum(axis=0) + self.bias)
        left = np.maximum(np.asarray(shift, dtype=np.int64), 0)
        limit = np.ldexp(1.0, 31 - left)  # |acc| < 2^(31 - left) neither wraps nor overflows
        self.in_range = bool(np.all(self.reach[0] >= -limit) and np.all(self.reach[1] < limit))
        # in range, the bias rides on the rounding nudge instead of a pass of its own
        self._biased = Requant.of(multiplier, shift, zero_point, low, high, bias.astype(np.int64)) \
            if self.in_range else None
        self._steps = None
        self._spread: dict[tuple[int, ...], Requant] = {}

    def __call__(self, acc: np.ndarray) -> np.ndarray:
        if self.in_range and acc.size <= self.SMALL:
            return self.stepped(acc)
        return self.elementwise(acc)

    def stepped(self, acc: np.ndarray) -> np.ndarray:
        """The table route; only valid when in_range. Adds to acc in place."""
        keyed_bias, table, levels = self._steps or self._find_steps()
        acc += keyed_bias
        return levels[table.searchsorted(acc, side="right")]

    def elementwise(self, acc: np.ndarray) -> np.ndarray:
        """The requantize_clamp route. Adds to acc in place."""
        if self._biased is not None:  # in range
            x, rq = acc.astype(np.int64), self._biased
        else:
            acc += self.bias
            x, rq = acc.astype(np.int64).astype(np.int32), self.rq  # wraps like TFLM's accumulator
        if x.size > self.SPREAD:
            return requantize_clamp(x, rq)
        if x.shape not in self._spread:
            self._spread[x.shape] = rq.spread(x.shape)
        return requantize_clamp(x, self._spread[x.shape])

    def _find_steps(self):
        channels = self.bias.size
        rq = self.rq
        low, high = rq.low, rq.high
        column = Requant(*(np.reshape(f, (-1, 1)) if np.ndim(f) else f for f in rq))
        lo = np.ceil(self.reach[0]).astype(np.int64)[:, None]
        hi = np.floor(self.reach[1]).astype(np.int64)[:, None]
        level = np.arange(low + 1, high + 1, dtype=np.int64)[None, :]
        # smallest a in [lo, hi + 1] with output(a) >= level; hi + 1 stands for "never"
        a = np.broadcast_to(lo, (channels, level.size)).copy()
        b = np.broadcast_to(hi + 1, (channels, level.size)).copy()
        while np.any(a < b):
            mid = (a + b) // 2
            reached = requantize(mid, column) >= level
            b = np.where(reached, mid, b)
            a = np.where(reached, a, mid + 1)
        key = np.arange(channels, dtype=np.float64)[:, None] * self._CHANNEL_KEY
        # a sentinel below each channel's keys starts its block of (high - low + 1) entries
        table = np.concatenate([key - self._CHANNEL_KEY / 2, a + key], axis=1).ravel()
        levels = np.concatenate([[high], np.tile(np.arange(low, high + 1), channels)]).astype(np.int8)
        self._steps = (self.bias + key[:, 0], table, levels)
        return self._steps
