"""MUL, int8 and int16: (a - za) * (b - zb) rescaled by s_a * s_b / s_out (TFLM MulElementwise).
TFLM's int16 MUL takes zero points of 0 only; the product of two int16 values fits int32."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, activation, broadcast, reads, writes
from mcugen.ops import register
from mcugen.ops._quant import (PairOp, Paired, fused_range, problems_fused_activation, require_zero_points)
from mcugen.numerics.requant import Requant, quantize_multiplier, requantize_clamp


@dataclass(frozen=True)
class MulData(Paired):
    input1_zp: int
    input2_zp: int
    output_zp: int
    multiplier: int
    shift: int
    act_min: int
    act_max: int


@register("MUL")
class Mul(PairOp):
    arity = ((2, 2), (1, 1))
    input_types = output_types = ("int8", "int16")

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = problems_fused_activation(op)
        if op.output(g).dtype == "int16":
            problems += require_zero_points((op.input(g, 0), op.input(g, 1), op.output(g)), "MUL")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        m, s = quantize_multiplier(float(a.q.s) * float(b.q.s) / float(y.q.s))
        return self.tabulated(g, op, MulData(a.q.zp, b.q.zp, y.q.zp, m, s, *fused_range(g, op)))

    def arithmetic(self, p: MulData, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
        rq = Requant.of(p.multiplier, p.shift, p.output_zp, p.act_min, p.act_max)
        return requantize_clamp((x1 - p.input1_zp) * (x2 - p.input2_zp), rq, np.int64)

    def lower(self, g: Graph, op: Op) -> Call | None:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        return Call("mcu_mul", (mul_params(op), broadcast(a.shape, b.shape, y.shape, y.dtype), reads(op, 0),
                                reads(op, 1), writes(op)), in_place=0 if tuple(a.shape) == tuple(y.shape) else None)


def mul_params(op: Op) -> Struct:
    p = op.prepared(MulData)
    return Struct("mcu_mul_params", "params", dict(
        input1_offset=-p.input1_zp, input2_offset=-p.input2_zp, output_offset=p.output_zp,
        multiplier=p.multiplier, shift=p.shift, activation=activation(p.act_min, p.act_max)))


