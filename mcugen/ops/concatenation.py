"""CONCATENATION: int8 values are copied as they are (TFLM and LiteRT alike)."""
from __future__ import annotations

import numpy as np

from mcugen.ops import OpDef, register
from mcugen.ops._quant import require_same_quant


@register("CONCATENATION")
class Concatenation(OpDef):
    def check(self, g, op):
        problems = require_same_quant(g, op, range(len(op.inputs)))
        if op.attrs.get("fused_activation_function", "NONE") != "NONE":
            problems.append("fused activation on CONCATENATION has no int8 kernel")
        return problems

    def prepare(self, g, op):
        axis = op.attrs.get("axis", 0)
        return dict(axis=axis % len(op.output(g).shape))

    def run(self, g, op, xs):
        return np.concatenate(xs, axis=op.params["axis"])
