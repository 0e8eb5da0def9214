"""LOGISTIC int8: TFLM reference_integer_ops::Logistic (gemmlowp logistic on Q4.27)."""
from __future__ import annotations

import math

import numpy as np

from mcugen import fixedpoint as fp
from mcugen.ops import register
from mcugen.ops._quant import LutOp
from mcugen.requant import requantize, round_half_away, rounding_divide_by_pot, wrap_int32

INPUT_INTEGER_BITS = 4


def q4_input_scaling(scale: float) -> tuple[int, int, int]:
    """(multiplier, left_shift, radius) that map x - zp onto Q4.27, as TFLM's Prepare."""
    q, left_shift = math.frexp(float(scale) * (1 << (31 - INPUT_INTEGER_BITS)))
    multiplier = int(wrap_int32(round_half_away(q * (1 << 31))))
    radius = math.floor(((1 << INPUT_INTEGER_BITS) - 1) * (1 << (31 - INPUT_INTEGER_BITS))
                        / 2.0 ** left_shift)
    return multiplier, left_shift, radius


def saturating_table(d, radius, inner):
    return np.where(d <= -radius, -128, np.where(d >= radius, 127, inner))


@register("LOGISTIC")
class Logistic(LutOp):
    def check(self, g, op):
        y = op.output(g)
        if y.quant.zp != -128 or y.quant.s != np.float32(1 / 256):
            return ["output quantization must be scale 1/256, zero point -128"]
        return []

    def table(self, g, op, x):
        xt = op.input(g, 0)
        multiplier, shift, radius = q4_input_scaling(xt.quant.s)
        d = x - xt.quant.zp
        q0 = fp.logistic(requantize(d, multiplier, shift), INPUT_INTEGER_BITS)
        return saturating_table(d, radius, rounding_divide_by_pot(q0, 23) - 128)
