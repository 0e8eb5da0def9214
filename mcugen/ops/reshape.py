"""RESHAPE, SQUEEZE, EXPAND_DIMS: the bytes stay, the shape comes from the model."""
from __future__ import annotations

from mcugen.ops import OpDef, register


@register("RESHAPE", "SQUEEZE", "EXPAND_DIMS")
class Reshape(OpDef):
    def check(self, g, op):
        x, y = op.input(g, 0), op.output(g)
        if x.quant and y.quant and (x.quant.s != y.quant.s or x.quant.zp != y.quant.zp):
            return ["input and output quantization differ"]
        return []

    def run(self, g, op, xs):
        return xs[0].reshape(op.output(g).shape)
