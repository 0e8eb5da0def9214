"""CAST as TFLM's kernel computes it: static_cast of every value, whatever the quantization, between
int8, int16, int32, uint32 and float32.

Integers narrow by wrapping (two's complement, as the oracle's compiler does) and widen exactly;
integers to float32 round to nearest even. float32 to an integer truncates toward zero and saturates
at the type's ends, NaN giving 0: C++ leaves out-of-range values undefined, and this is what the
oracle's build answers (measured: +-inf and 3e9 give the type's largest and smallest, NaN 0, 300.7
into int8 127), and what a Cortex-M's VCVT does for int32.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, register

TYPES = ("int8", "int16", "int32", "uint32", "float32")


@dataclass(frozen=True)
class CastTypes:
    source: str
    target: str


def _float_to_int(x: np.ndarray, target: str) -> np.ndarray:
    info = np.iinfo(target)
    with np.errstate(invalid="ignore"):
        clipped = np.clip(np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0)), info.min, info.max)
    return clipped.astype(target)


@register("CAST")
class Cast(OpDef):
    input_types = output_types = TYPES
    converts = copies_values = True  # TFLM's CAST never reads a scale
    options_unread = ("CAST",)  # nor its options: the types are the tensors'

    def check(self, g: Graph, op: Op) -> list[str]:
        x, y = op.input(g, 0), op.output(g)
        if int(np.prod(x.shape)) != int(np.prod(y.shape)):
            return [f"input {list(x.shape)} and output {list(y.shape)} differ in size (TFLM's MatchingFlatSize "
                    "fails)"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return CastTypes(op.input(g, 0).dtype, op.output(g).dtype)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(CastTypes)
        x = xs[0].reshape(op.output(g).shape)
        if p.source == "float32" and p.target != "float32":
            return _float_to_int(x, p.target)
        if p.target == "float32":
            return x.astype(np.float32)  # rounds once, to nearest even
        return x.astype(np.int64).astype(np.uint64).astype(p.target)  # integers wrap

    def defined(self, g: Graph, op: Op, k: int, given: list[np.ndarray | None]) -> np.ndarray | None:
        return None if given[0] is None else given[0].reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(CastTypes)
        params = Struct("mcu_cast_params", "params", dict(
            source=f"MCU_TYPE_{p.source.upper()}", target=f"MCU_TYPE_{p.target.upper()}"))
        return Call("mcu_cast", (params, int(np.prod(op.output(g).shape)), reads(op), writes(op)),
                    note=f"{p.source} -> {p.target}")
