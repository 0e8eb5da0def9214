"""PRELU int8, as TFLM: x - zp_in >= 0 is requantized by s_in / s_out; a negative one is multiplied
by (alpha - zp_alpha) and requantized by s_in * s_alpha / s_out. alpha broadcasts against the input
(usually one slope per channel)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, broadcast, reads, writes
from mcugen.ops import register
from mcugen.ops._quant import PairOp, Paired
from mcugen.numerics.requant import quantize_multiplier, requantize


@dataclass(frozen=True)
class PreluData(Paired):
    """mcu_prelu_params' fields, by name."""

    input_offset: int
    alpha_offset: int
    output_offset: int
    multiplier1: int
    shift1: int
    multiplier2: int
    shift2: int


@register("PRELU")
class Prelu(PairOp):
    arity = ((2, 2), (1, 1))

    def check(self, g: Graph, op: Op) -> list[str]:
        alpha = op.input(g, 1)
        if alpha.dtype != "int8" or alpha.quant is None:
            return [f"alpha '{alpha.name}' is {alpha.dtype}{'' if alpha.quant else ' without quantization'}; "
                    "TFLM's int8 PRELU takes a quantized int8 alpha"]
        if alpha.q.per_channel:
            return ["alpha has one scale per channel; TFLM's PRELU reads a single scale"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        x, alpha, y = op.input(g, 0), op.input(g, 1), op.output(g)
        m1, s1 = quantize_multiplier(float(x.q.s) / float(y.q.s))
        m2, s2 = quantize_multiplier(float(x.q.s) * float(alpha.q.s) / float(y.q.s))
        return self.tabulated(g, op, PreluData(-x.q.zp, -alpha.q.zp, y.q.zp, m1, s1, m2, s2))

    def arithmetic(self, p: PreluData, v: np.ndarray, a: np.ndarray) -> np.ndarray:
        d = v + p.input_offset
        out = np.where(d >= 0, requantize(np.maximum(d, 0), p.multiplier1, p.shift1),
                       requantize(np.minimum(d, 0) * (a + p.alpha_offset), p.multiplier2, p.shift2))
        return np.clip(out + p.output_offset, -128, 127)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(PreluData)
        x, alpha, y = op.input(g, 0), op.input(g, 1), op.output(g)
        fields = {f.name: getattr(p, f.name) for f in dataclasses.fields(p) if f.name != "pairs"}
        prelu = Struct("mcu_prelu_params", "params", fields)
        return Call("mcu_prelu_s8", (prelu, broadcast(x.shape, alpha.shape, y.shape), reads(op, 0), reads(op, 1),
                                     writes(op)), note=f"alpha {list(alpha.shape)}",
                    in_place=0 if tuple(x.shape) == tuple(y.shape) else None)
