"""LOGISTIC: TFLM reference_integer_ops::Logistic, int8 (gemmlowp logistic on Q4.27) and int16.

Q4Activation is shared with TANH. int8: both rescale x - zp onto Q4.27, saturate outside TFLM's
input radius, evaluate a gemmlowp function and round the Q0.31 result down to the fixed int8
output scale, tabulated for the 256 inputs. int16: TFLM's table interpolation (mcugen.numerics.sigmoid16)
after its input scaling, zero points 0, output scale 2^-15; computed, not tabulated.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from collections.abc import Callable

from mcugen.numerics import fixedpoint as fp
from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Struct, reads, writes
from mcugen.ops import Outputs, register
from mcugen.ops._quant import LutOp, require_zero_points
from mcugen.numerics.requant import requantize, round_half_away, rounding_divide_by_pot, wrap_int32
from mcugen.numerics.sigmoid16 import SIGMOID_TABLE, checked_log2, input_scaling, prepare_scaling, sigmoid_s16

INPUT_INTEGER_BITS = 4


@dataclass(frozen=True)
class InputScaling:
    """int16: TFLM's input rescale before its table (sigmoid16.prepare_scaling)."""

    multiplier: int
    shift: int


class Q4Activation(LutOp):
    input_types = output_types = ("int8", "int16")
    output_scale: float
    output_zp: int
    output_shift: int  # Q0.31 -> int8: divide by 2^output_shift
    function16: Callable[[np.ndarray, int, int], np.ndarray]  # the int16 function: sigmoid16.sigmoid_s16 or tanh_s16
    power_of_two_shifts: tuple[int, ...]  # int16 input shifts TFLM scales by 3 << shift

    def function(self, q4: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def check(self, g: Graph, op: Op) -> list[str]:
        x, y = op.input(g, 0), op.output(g)
        if y.dtype == "int16":
            return self._int16_problems(x, y)
        if y.q.zp != self.output_zp or y.q.s != np.float32(self.output_scale):
            return [f"output quantization must be scale {self.output_scale:g}, "
                    f"zero point {self.output_zp}"]
        left_shift = math.frexp(float(x.q.s) * (1 << (31 - INPUT_INTEGER_BITS)))[1]
        if not 0 <= left_shift < 63:  # TFLM's CalculateInputRadius shifts 1LL by it: undefined outside that
            return [f"input scale {float(x.q.s):g} is outside [2^-28, 2^35): TFLM's Prepare shifts by "
                    f"{left_shift} bits there, which C leaves undefined"]
        return []

    def _int16_problems(self, x: Tensor, y: Tensor) -> list[str]:
        zero_points = require_zero_points((x, y), "kernel")
        if zero_points:
            return zero_points
        power_of_two, log2 = checked_log2(float(y.q.s))
        if not power_of_two or log2 != -15:
            return [f"int16 output scale {float(y.q.s):g}: TFLM's int16 kernel writes Q0.15 (scale 2^-15)"]
        if float(x.q.s) * 4096 * 3 >= 2 ** 31:
            return [f"int16 input scale {float(x.q.s):g}: TFLM's Prepare converts scale x 12288 to int32, "
                    "past its range there"]
        multiplier, shift = prepare_scaling(float(x.q.s), self.power_of_two_shifts)
        if multiplier == 0 and shift not in self.power_of_two_shifts:
            return [f"int16 input scale {float(x.q.s):g} is below what TFLM's int16 kernel rescales: its "
                    f"multiplier rounds to 0 and the kernel then scales by 3 << {shift}, past int32"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        if op.input(g, 0).dtype != "int16":
            return super().prepare(g, op)
        return InputScaling(*prepare_scaling(float(op.input(g, 0).q.s), self.power_of_two_shifts))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        if xs[0].dtype != np.int16:
            return super().run(g, op, xs)
        p = op.prepared(InputScaling)
        return self.function16(xs[0], p.multiplier, p.shift)

    def lower(self, g: Graph, op: Op) -> Call | None:
        if op.input(g, 0).dtype != "int16":
            return super().lower(g, op)
        p = op.prepared(InputScaling)
        multiplier, shift, round_ = input_scaling(p.multiplier, p.shift)
        params = Struct("mcu_sigmoid_params", "params", dict(
            multiplier=p.multiplier, shift=p.shift, tanh=int(op.opcode == "TANH"),
            sigmoid_table=Const("sigmoid_table", SIGMOID_TABLE.astype(np.uint16).view(np.int16))))
        return Call("mcu_sigmoid_s16_array", (params, int(np.prod(op.input(g, 0).shape)), reads(op), writes(op)),
                    note=f"input scaled by (x * {multiplier} + {round_}) >> {shift}, then TFLM's sigmoid table",
                    in_place=0)

    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        xt = op.input(g, 0)
        # TFLM's Prepare: frexp without QuantizeMultiplier's 2^31 correction.
        q, left_shift = math.frexp(float(xt.q.s) * (1 << (31 - INPUT_INTEGER_BITS)))
        multiplier = int(wrap_int32(round_half_away(q * (1 << 31))))
        radius = math.floor(((1 << INPUT_INTEGER_BITS) - 1) * (1 << (31 - INPUT_INTEGER_BITS))
                            / 2.0 ** left_shift)
        d = x - xt.q.zp
        q0 = self.function(requantize(d, multiplier, left_shift))
        inner = rounding_divide_by_pot(q0, self.output_shift) + self.output_zp
        return np.where(d <= -radius, -128, np.where(d >= radius, 127, inner))


@register("LOGISTIC")
class Logistic(Q4Activation):
    output_scale, output_zp, output_shift = 1 / 256, -128, 23
    function16 = staticmethod(sigmoid_s16)
    power_of_two_shifts = (0,)

    def function(self, q4: np.ndarray) -> np.ndarray:
        return fp.logistic(q4, INPUT_INTEGER_BITS)
