"""ABS and RSQRT int8, as TFLM's elementwise kernels: both tabulated for the 256 inputs; RSQRT int16 too
(zero points 0), computed per value by mcu_rsqrt_s16.

ABS: |x - zp_in|, requantized by s_in / s_out only when the scales differ (else just re-offset).
RSQRT: 1/sqrt(x - zp_in) by TFLM's integer Newton-Raphson (GetInvSqrtQuantizedMultiplierExp),
scaled to 2^20 and requantized by 1 / (sqrt(s_in) * s_out); an input at the zero point gives 127.
An input below the zero point (a negative real) makes TFLM fail the invoke ("Rsqrt is only defined
for positive values"): the golden model stops with that error too. The target has no way to stop a
layer, so its table gives 127 there, as for zero.
"""
from __future__ import annotations

import numpy as np

from mcugen.errors import McugenError
from mcugen.numerics.fixedpoint import inv_sqrt_multiplier
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ops import Outputs, register
from mcugen.ops._quant import LutOp, Multiplier, require_zero_points
from mcugen.numerics.requant import multiplier_shift, quantize_multiplier, requantize

RSQRT_SHIFT = 20  # TFLM's headroom for the integer 1/sqrt


@register("ABS")
class Abs(LutOp):
    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        xt, y = op.input(g, 0), op.output(g)
        value = np.abs(x - xt.q.zp)
        s_in, s_out = np.float32(xt.q.s), np.float32(y.q.s)
        if s_in == s_out:
            return value + y.q.zp
        return requantize(value, *quantize_multiplier(float(s_in / s_out))) + y.q.zp


def _rescale(g: Graph, op: Op) -> tuple[int, int]:
    """TFLM's SetRsqrtOutputMultiplier: the float32 scales widened to double, the sqrt, product and
    reciprocal in double (one made in float32 is off in its low bits: a value in a few thousand off by one)."""
    xt, y = op.input(g, 0), op.output(g)
    return quantize_multiplier(1.0 / (np.sqrt(float(np.float32(xt.q.s))) * float(np.float32(y.q.s))))


def _rsqrt(values: np.ndarray, zp: int, multiplier: int, shift: int, high: int) -> np.ndarray:
    """TFLM's RsqrtEvalQuantized of each value; at or below zp: `high`."""
    value = values.astype(np.int64) - zp
    inv_m, inv_s = inv_sqrt_multiplier(np.maximum(value, 0))
    data = requantize(np.ones_like(value), inv_m, inv_s + RSQRT_SHIFT)
    return np.where(value > 0, requantize(data, multiplier, shift - RSQRT_SHIFT), high)


@register("RSQRT")
class Rsqrt(LutOp):
    input_types = output_types = ("int8", "int16")

    def check(self, g: Graph, op: Op) -> list[str]:
        xt, y = op.input(g, 0), op.output(g)
        real = 1.0 / (np.sqrt(float(np.float32(xt.q.s))) * float(np.float32(y.q.s)))
        shift = multiplier_shift(real)
        if -31 <= shift and shift - RSQRT_SHIFT < -31:  # below 2^-32 the rescale flushes to 0, as in TFLM
            return [f"a rescale factor of {real:g} (1 / (sqrt(input scale) x output scale)): TFLM then divides "
                    f"by 2^{RSQRT_SHIFT - shift}, past the 31 bits C defines"]
        return require_zero_points((xt, y), "RSQRT") if xt.dtype == "int16" else []

    def prepare(self, g: Graph, op: Op) -> object:
        return Multiplier(*_rescale(g, op)) if op.input(g, 0).dtype == "int16" else super().prepare(g, op)

    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        return _rsqrt(x, op.input(g, 0).q.zp, *_rescale(g, op), 127 - op.output(g).q.zp) + op.output(g).q.zp

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        zp = op.input(g, 0).q.zp
        if (xs[0].astype(np.int64) < zp).any():
            raise McugenError(f"RSQRT (op {op.origin}) got a negative input (below the zero point {zp}), where "
                              "TFLM fails the invoke ('Rsqrt is only defined for positive values')",
                              "feed inputs that keep it non-negative (models add an epsilon before RSQRT)")
        if xs[0].dtype != np.int16:
            return super().run(g, op, xs)
        p = op.prepared(Multiplier)
        return np.clip(_rsqrt(xs[0], 0, p.multiplier, p.shift, 32767), -32768, 32767).astype(np.int16)

    def lower(self, g: Graph, op: Op) -> Call | None:
        if op.input(g, 0).dtype != "int16":
            return super().lower(g, op)
        p = op.prepared(Multiplier)
        params = Struct("mcu_rescale", "rescale", dict(multiplier=p.multiplier, shift=p.shift))
        return Call("mcu_rsqrt_s16", (params, int(np.prod(op.input(g, 0).shape)), reads(op), writes(op)), in_place=0)
