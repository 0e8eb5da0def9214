"""TANH int8: TFLM reference_integer_ops::Tanh (gemmlowp tanh on Q4.27)."""
from __future__ import annotations

from mcugen import fixedpoint as fp
from mcugen.ops import register
from mcugen.ops.logistic import INPUT_INTEGER_BITS, Q4Activation


@register("TANH")
class Tanh(Q4Activation):
    output_scale, output_zp, output_shift = 1 / 128, 0, 24

    def function(self, q4):
        return fp.tanh(q4, INPUT_INTEGER_BITS)
