"""RELU (requantizing, TFLM ReluQuantized) and RELU6 (TFLM clamps in the input domain)."""
from __future__ import annotations

import numpy as np

from mcugen.ops import register
from mcugen.ops._quant import LutOp, require_same_quant
from mcugen.requant import quantize_float, quantize_multiplier, requantize


@register("RELU")
class Relu(LutOp):
    def table(self, g, op, x):
        xt, y = op.input(g, 0), op.output(g)
        m, s = quantize_multiplier(float(xt.quant.s) / float(y.quant.s))
        low = max(-128, quantize_float(0.0, y.quant.s, y.quant.zp))
        return np.maximum(y.quant.zp + requantize(x - xt.quant.zp, m, s), low)


@register("RELU6")
class Relu6(LutOp):
    def check(self, g, op):
        return require_same_quant(g, op)

    def table(self, g, op, x):
        xt = op.input(g, 0)
        six = min(127, max(-128, quantize_float(6.0, xt.quant.s, xt.quant.zp)))
        return np.clip(x, xt.quant.zp, six)
