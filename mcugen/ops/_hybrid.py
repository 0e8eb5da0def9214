"""Dynamic-range ("hybrid") layers: int8 weights, float32 activations, as LiteRT's reference kernels
compute them (TFLM does not run them: LiteRT BUILTIN_REF is their oracle).

Each batch row of the input is quantized on the fly (tensor_utils::BatchQuantizeFloats):
- symmetric: range = max(|min|, |max|) in float32; a zero range gives zeros and scaling factor 1, else
  the factor is range / 127 and each value round(x * (127 / range)) (float32 products, round half away
  from zero), clamped to [-127, 127];
- asymmetric (the op's asymmetric_quantize_inputs): min and max widened to include 0; the scale their
  float32 difference / 255 in double, the zero point (in double) nudged from whichever end is nearer,
  the factor that scale in float32 and each value round(x * (1 / factor)) + zp, clamped to [-128, 127]
  (both measured against the installed LiteRT: a difference taken in double differs in the last bit,
  and rounding after the zero point is added differs at halves that straddle zero).
Rounding is the oracle's x86 build's (measured): the row's first depth - depth % 8 values in blocks of
8 with AVX2, |p| + 0.5 in float32 then truncated (0.49999997 gives 1), the rest with std::round (exact:
0); a value NaN or outside int32 converts as x86's cvttss2si does (INT32_MIN). The integer dot products are exact; each output is then bias (or 0) + float(dot) x scale,
one float32 product and one float32 sum, where scale is the row's factor times the filter's scale (per
tensor: folded into the factor first; per channel: the factor times the channel's scale). The fused
activation is tensor_utils::ApplyActivationToVector's: max(0, v), max(-1, min(v, 1)), max(0, min(v, 6))
with std::max/std::min's argument order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mcugen.ir.graph import Op
from mcugen.ir.options import Hybrid
from mcugen.numerics.requant import wrap_int32
from mcugen.ops._float import F32, round_to_int32_x86

# mcu_hybrid_activation: the fused activations ApplyActivationToVector applies that mcugen computes
ACTIVATIONS = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3}


def _round_half_away(x: float) -> int:
    """round() on a double: the truncation, then the exact fraction decides."""
    t = int(x)
    return t + (x - t >= 0.5) - (x - t <= -0.5)


def _round_as_litert(p: np.ndarray) -> np.ndarray:
    """int64 round(p) of one row's float32 values as LiteRT's x86 build rounds them (the docstring above)."""
    with np.errstate(invalid="ignore"):
        blocked = np.copysign(np.floor(np.abs(p) + F32(0.5)), p).astype(F32)  # float32 steps, as AVX2
    simd = np.arange(p.size) < p.size // 8 * 8
    return np.where(simd, round_to_int32_x86(blocked), round_to_int32_x86(p))


def quantize_rows(x: np.ndarray, asymmetric: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """BatchQuantizeFloats on [batches, depth] float32 rows: (int8 values, float32 factor a row,
    int32 offset a row)."""
    rows = x.shape[0]
    q = np.zeros(x.shape, np.int32)
    factors = np.ones(rows, F32)
    offsets = np.zeros(rows, np.int32)
    with np.errstate(all="ignore"):
        for b in range(rows):
            v = x[b]
            if asymmetric:
                rmin, rmax = min(F32(0.0), v.min()), max(F32(0.0), v.max())
                if rmin == rmax:
                    continue
                scale = float(rmax - rmin) / 255.0  # the float32 difference, divided in double
                rmin, rmax = float(rmin), float(rmax)
                from_min, from_max = -128.0 - rmin / scale, 127.0 - rmax / scale
                zp = from_min if abs(-128.0) + abs(rmin / scale) < abs(127.0) + abs(rmax / scale) else from_max
                offset = -128 if zp <= -128.0 else 127 if zp >= 127.0 else _round_half_away(zp)
                factors[b], offsets[b] = F32(scale), offset
                q[b] = np.clip(_round_as_litert(v * (F32(1.0) / factors[b])) + offset, -128, 127)
            else:
                top = max(abs(v.min()), abs(v.max()))
                if top == 0:
                    continue
                factors[b] = top / F32(127)
                q[b] = np.clip(_round_as_litert(v * (F32(127) / top)), -127, 127)
    return q, factors, offsets


def centred_images(x: np.ndarray, asymmetric: bool) -> tuple[np.ndarray, np.ndarray]:
    """A conv's input [N, H, W, C] quantized image by image (LiteRT's hybrid convs quantize each batch's
    image whole), less each image's zero point: (int64 values [N, H, W, C], float32 factor an image)."""
    values, factors, offsets = quantize_rows(x.reshape(x.shape[0], -1), asymmetric)
    return values.astype(np.int64).reshape(x.shape) - offsets[:, None, None, None], factors


def int32_sums(acc: np.ndarray) -> np.ndarray:
    """int64 sums as the C's int32 accumulators hold them, as float32 (the kernels' float(acc))."""
    return wrap_int32(acc).astype(F32)


@dataclass(frozen=True)
class HybridQuant:
    """What the hybrid kernels read besides the data: the filter's scales (one per tensor or one per
    output channel), each output channel's weight sum (for asymmetric inputs), the activation."""

    asymmetric: bool
    activation: str
    scales: np.ndarray  # float32: one (per tensor) or one an output channel
    row_sums: np.ndarray  # int32 an output channel: its weights' sum

    @classmethod
    def of(cls, op: Op, scales: np.ndarray, weights: np.ndarray, asymmetric: bool | None = None) -> "HybridQuant":
        """`weights`: [channels, ...] int8; `asymmetric`: where the kernel decides it, not the op's option."""
        return cls(op.options_as(Hybrid).asymmetric_quantize_inputs if asymmetric is None else asymmetric,
                   op.activation, np.asarray(scales, F32).reshape(-1),
                   weights.reshape(weights.shape[0], -1).astype(np.int32).sum(axis=1).astype(np.int32))

    def fields(self) -> dict[str, Any]:
        return dict(asymmetric=int(self.asymmetric), activation=ACTIVATIONS[self.activation],
                    filter_scale=float(self.scales[0]))

    def accumulate(self, out: np.ndarray, dots: np.ndarray, factors: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """out [batches, channels] (the bias) + float(dot - row_sum x offset) x scale: the correction in
        int32, then one float32 product and one float32 sum."""
        dots = int32_sums(dots.astype(np.int64) - self.row_sums[None, :].astype(np.int64) * offsets[:, None])
        if self.scales.size > 1:
            scale = factors[:, None] * self.scales[None, :]
        else:
            scale = (factors * self.scales[0])[:, None]
        with np.errstate(all="ignore"):
            return (out + dots * scale).astype(F32)

    def activate(self, v: np.ndarray) -> np.ndarray:
        """ApplyActivationToVector: std::max(lo, std::min(v, hi)), std::max(a, b) = a < b ? b : a."""
        lo, hi = {"NONE": (None, None), "RELU": (0.0, None), "RELU_N1_TO_1": (-1.0, 1.0),
                  "RELU6": (0.0, 6.0)}[self.activation]
        if hi is not None:
            v = np.where(F32(hi) < v, F32(hi), v)
        if lo is not None:
            v = np.where(F32(lo) < v, v, F32(lo))
        return v.astype(F32)
