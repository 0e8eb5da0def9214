"""RELU (requantizing, TFLM ReluQuantized) and RELU6 (TFLM clamps in the input domain)."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ops import register
from mcugen.ops._quant import LutOp, require_same_quant
from mcugen.numerics.requant import quantize_float, quantize_multiplier, requantize


@register("RELU")
class Relu(LutOp):
    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        xt, y = op.input(g, 0), op.output(g)
        m, s = quantize_multiplier(float(xt.q.s) / float(y.q.s))
        low = max(-128, quantize_float(0.0, y.q.s, y.q.zp))
        return np.maximum(y.q.zp + requantize(x - xt.q.zp, m, s), low)


@register("RELU6")
class Relu6(LutOp):
    def check(self, g: Graph, op: Op) -> list[str]:
        return require_same_quant(g, op)

    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        xt = op.input(g, 0)
        six = min(127, max(-128, quantize_float(6.0, xt.q.s, xt.q.zp)))
        return np.clip(x, xt.q.zp, six)
