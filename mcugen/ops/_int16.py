"""16x8 layers (int16 activations, int8 weights): the epilogue of TFLM's int16 CONV_2D,
DEPTHWISE_CONV_2D and FULLY_CONNECTED reference kernels.

The accumulator is the bias's type: int64 (the usual 16x8 bias) or int32 (which wraps). An int32
one is rescaled by the usual MultiplyByQuantizedMultiplier (mcugen.numerics.requant, two roundings); an
int64 one by its int64 overload, which rounds the multiplier to 16 bits and then rounds once:
(acc * round(m / 2^16) + 2^(14 - shift)) >> (15 - shift), a multiplier at or above 0x7FFF0000
becoming 0x7FFF (TFLM's double-rounding build; the C twin is mcu_requantize64 in mcu_nn_support.h).
CONV_2D and DEPTHWISE_CONV_2D add no zero points in int16 (TFLM's kernels take both as 0);
FULLY_CONNECTED does.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.options import BiasTyped
from mcugen.ops._quant import Rescale
from mcugen.numerics.requant import requantize, wrap_int32


def requantize64(acc: np.ndarray, multiplier: np.ndarray, shift: np.ndarray) -> np.ndarray:
    m = np.asarray(multiplier, np.int64)
    reduced = np.where(m < 0x7FFF0000, (m + (1 << 15)) >> 16, 0x7FFF)
    total = 15 - np.asarray(shift, np.int64)
    return wrap_int32((np.asarray(acc, np.int64) * reduced + (np.int64(1) << (total - 1))) >> total)


@dataclass(frozen=True)
class Wide:
    """A 16x8 layer's accumulator, as its C kernel takes it: 32 or 64 bits, and the bias as int64
    (zeros without one)."""

    bits: int
    bias: np.ndarray

    @classmethod
    def of(cls, g: Graph, op: Op, bias_input: int, channels: int, bits: int | None = None) -> "Wide":
        """bits: the bias's type, or the quantized_bias_type option without a bias (TFLM's rule)."""
        b = op.optional_input(g, bias_input)
        if bits is None and b is not None:
            bits = 32 if b.dtype == "int32" else 64
        elif bits is None:
            bits = 32 if isinstance(op.options, BiasTyped) and op.options.int32_bias else 64
        return cls(bits, bias64(b, channels))

    def output(self, acc: np.ndarray, q: Rescale) -> np.ndarray:
        """acc: exact integer sums of products (float64 or int64), channel last."""
        total = np.asarray(acc).astype(np.int64) + self.bias
        if self.bits == 32:
            y = requantize(wrap_int32(total), q.multiplier, q.shift)
        else:
            y = requantize64(total, q.multiplier, q.shift)
        return np.clip(y + q.output_zp, q.act_min, q.act_max).astype(np.int16)


def bias64(b: Tensor | None, channels: int) -> np.ndarray:
    return b.values.astype(np.int64) if b is not None and b.data is not None else np.zeros(channels, np.int64)
