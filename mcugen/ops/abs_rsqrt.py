"""ABS and RSQRT int8, as TFLM's elementwise kernels: both tabulated for the 256 inputs.

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
from mcugen.fixedpoint import inv_sqrt_multiplier
from mcugen.ir import Graph, Op
from mcugen.ops import Outputs, register
from mcugen.ops._quant import LutOp
from mcugen.requant import quantize_multiplier, requantize

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


@register("RSQRT")
class Rsqrt(LutOp):
    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        xt, y = op.input(g, 0), op.output(g)
        # TFLM: sqrt and product in float32, the reciprocal in double
        m, s = quantize_multiplier(1.0 / float(np.sqrt(np.float32(xt.q.s)) * np.float32(y.q.s)))
        out = []
        for value in (int(v) - xt.q.zp for v in x):
            if value <= 0:
                out.append(127)
                continue
            inv_m, inv_s = inv_sqrt_multiplier(value)
            data = int(requantize(1, inv_m, inv_s + RSQRT_SHIFT))
            out.append(int(requantize(data, m, s - RSQRT_SHIFT)) + y.q.zp)
        return np.array(out, dtype=np.int64)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        zp = op.input(g, 0).q.zp
        if (xs[0].astype(np.int64) < zp).any():
            raise McugenError(f"RSQRT (op {op.origin}) got a negative input (below the zero point {zp}), where "
                              "TFLM fails the invoke ('Rsqrt is only defined for positive values')",
                              "feed inputs that keep it non-negative (models add an epsilon before RSQRT)")
        return super().run(g, op, xs)
