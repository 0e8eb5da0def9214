"""TANH int8: TFLM reference_integer_ops::Tanh (gemmlowp tanh on Q4.27)."""
from __future__ import annotations

import numpy as np

from mcugen import fixedpoint as fp
from mcugen.ops import register
from mcugen.ops._quant import LutOp
from mcugen.ops.logistic import INPUT_INTEGER_BITS, q4_input_scaling, saturating_table
from mcugen.requant import requantize, rounding_divide_by_pot


@register("TANH")
class Tanh(LutOp):
    def check(self, g, op):
        y = op.output(g)
        if y.quant.zp != 0 or y.quant.s != np.float32(1 / 128):
            return ["output quantization must be scale 1/128, zero point 0"]
        return []

    def table(self, g, op, x):
        xt = op.input(g, 0)
        multiplier, shift, radius = q4_input_scaling(xt.quant.s)
        d = x - xt.quant.zp
        q0 = fp.tanh(requantize(d, multiplier, shift), INPUT_INTEGER_BITS)
        return saturating_table(d, radius, rounding_divide_by_pot(q0, 24))
