"""LEAKY_RELU: TFLM QuantizeLeakyRelu, two multipliers chosen by the input's sign; int8 tabulated for
the 256 inputs, int16 computed (mcu_leaky_relu_s16). A negative alpha is rescaled by the multiplier of
|s_in * alpha / s_out| and the rescaled value negated, as TFLM does (its requantize takes no negative
multiplier)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ir.options import LeakyReluOptions
from mcugen.ops import Outputs, register
from mcugen.ops._quant import LutOp
from mcugen.numerics.requant import quantize_multiplier, requantize


@dataclass(frozen=True)
class Leaky:
    """mcu_leaky_relu_params' fields, by name (int16: computed in C; int8: they make the table)."""

    input_offset: int
    output_offset: int
    identity_multiplier: int
    identity_shift: int
    alpha_multiplier: int
    alpha_shift: int
    alpha_negate: int

    def __call__(self, x: np.ndarray) -> np.ndarray:
        d = x + self.input_offset
        below = requantize(d, self.alpha_multiplier, self.alpha_shift)
        return self.output_offset + np.where(d >= 0, requantize(d, self.identity_multiplier, self.identity_shift),
                                             -below if self.alpha_negate else below)


@dataclass(frozen=True)
class LeakyData:
    leaky: Leaky
    lut: np.ndarray | None  # int8: the table mcu_lut reads


@register("LEAKY_RELU")
class LeakyRelu(LutOp):
    input_types = output_types = ("int8", "int16")

    def prepare(self, g: Graph, op: Op) -> object:
        tabulated = op.input(g, 0).dtype == "int8"
        return LeakyData(self.multipliers(g, op), self.tabulate(g, op) if tabulated else None)

    def lut(self, op: Op) -> np.ndarray:
        table = op.prepared(LeakyData).lut
        assert table is not None
        return table

    @staticmethod
    def multipliers(g: Graph, op: Op) -> Leaky:
        xt, y = op.input(g, 0), op.output(g)
        s_in, s_out = float(xt.q.s), float(y.q.s)
        alpha = float(np.float32(op.options_as(LeakyReluOptions).alpha))
        # in double (the oracle's TFLM; float32 ratios differ from it on int16 in 1 value of 10000)
        m_alpha, s_alpha = quantize_multiplier(abs(s_in * alpha / s_out))
        m_id, s_id = quantize_multiplier(s_in / s_out)
        return Leaky(-xt.q.zp, y.q.zp, m_id, s_id, m_alpha, s_alpha, int(alpha < 0 and m_alpha != 0))

    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        return self.multipliers(g, op)(x)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        if xs[0].dtype != np.int16:
            return super().run(g, op, xs)
        return np.clip(op.prepared(LeakyData).leaky(xs[0].astype(np.int64)), -32768, 32767).astype(np.int16)

    def lower(self, g: Graph, op: Op) -> Call | None:
        if op.input(g, 0).dtype != "int16":
            return super().lower(g, op)
        params = Struct("mcu_leaky_relu_params", "params", dataclasses.asdict(op.prepared(LeakyData).leaky))
        return Call("mcu_leaky_relu_s16", (params, int(np.prod(op.input(g, 0).shape)), reads(op), writes(op)),
                    in_place=0)
