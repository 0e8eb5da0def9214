"""TANH: TFLM reference_integer_ops::Tanh, int8 (gemmlowp tanh on Q4.27) and int16 (mcugen.numerics.sigmoid16)."""
from __future__ import annotations

import numpy as np

from mcugen.numerics import fixedpoint as fp
from mcugen.ops import register
from mcugen.ops.logistic import INPUT_INTEGER_BITS, Q4Activation
from mcugen.numerics.sigmoid16 import tanh_s16


@register("TANH")
class Tanh(Q4Activation):
    output_scale, output_zp, output_shift = 1 / 128, 0, 24
    function16 = staticmethod(tanh_s16)
    power_of_two_shifts = (0, 1)

    def function(self, q4: np.ndarray) -> np.ndarray:
        return fp.tanh(q4, INPUT_INTEGER_BITS)
