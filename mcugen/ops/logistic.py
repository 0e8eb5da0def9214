"""LOGISTIC int8: TFLM reference_integer_ops::Logistic (gemmlowp logistic on Q4.27).

Q4Activation is shared with TANH: both rescale x - zp onto Q4.27, saturate outside
TFLM's input radius, evaluate a gemmlowp function and round the Q0.31 result down
to the fixed int8 output scale.
"""
from __future__ import annotations

import math

import numpy as np

from mcugen import fixedpoint as fp
from mcugen.ops import register
from mcugen.ops._quant import LutOp
from mcugen.requant import requantize, round_half_away, rounding_divide_by_pot, wrap_int32

INPUT_INTEGER_BITS = 4


class Q4Activation(LutOp):
    output_scale: float
    output_zp: int
    output_shift: int  # Q0.31 -> int8: divide by 2^output_shift

    def function(self, q4):
        raise NotImplementedError

    def check(self, g, op):
        y = op.output(g)
        if y.quant.zp != self.output_zp or y.quant.s != np.float32(self.output_scale):
            return [f"output quantization must be scale {self.output_scale:g}, "
                    f"zero point {self.output_zp}"]
        return []

    def table(self, g, op, x):
        xt = op.input(g, 0)
        # TFLM's Prepare: frexp without QuantizeMultiplier's 2^31 correction.
        q, left_shift = math.frexp(float(xt.quant.s) * (1 << (31 - INPUT_INTEGER_BITS)))
        multiplier = int(wrap_int32(round_half_away(q * (1 << 31))))
        radius = math.floor(((1 << INPUT_INTEGER_BITS) - 1) * (1 << (31 - INPUT_INTEGER_BITS))
                            / 2.0 ** left_shift)
        d = x - xt.quant.zp
        q0 = self.function(requantize(d, multiplier, left_shift))
        inner = rounding_divide_by_pot(q0, self.output_shift) + self.output_zp
        return np.where(d <= -radius, -128, np.where(d >= radius, 127, inner))


@register("LOGISTIC")
class Logistic(Q4Activation):
    output_scale, output_zp, output_shift = 1 / 256, -128, 23

    def function(self, q4):
        return fp.logistic(q4, INPUT_INTEGER_BITS)
