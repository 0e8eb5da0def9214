"""QUANTIZE int8 -> int8: TFLM reference_ops::Requantize."""
from __future__ import annotations

from mcugen.ops import register
from mcugen.ops._quant import LutOp
from mcugen.requant import quantize_multiplier, requantize


@register("QUANTIZE")
class Quantize(LutOp):
    def table(self, g, op, x):
        xt, y = op.input(g, 0), op.output(g)
        m, s = quantize_multiplier(float(xt.quant.s) / float(y.quant.s))
        return requantize(x - xt.quant.zp, m, s) + y.quant.zp
