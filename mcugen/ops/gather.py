"""GATHER with constant indices (batch_dims 0): slices of the input along `axis`, picked by index and
copied as they are. TFLM fails at run time on an index outside the axis; mcugen refuses it at build
time. int32 gathers on constants (shape arithmetic) are folded at build time."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, reads, writes
from mcugen.ir.options import GatherOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import require_axis, require_const


@dataclass(frozen=True)
class GatherData:
    axis: int
    indices: np.ndarray  # int64, flattened


@register("GATHER")
class Gather(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}
    input_types = output_types = ("int8", "float32")  # as TFLM's GATHER: no int16 kernel
    copies_values = foldable = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x, idx = op.input(g, 0), op.input(g, 1)
        k = require_axis(op.options_as(GatherOptions).axis, len(x.shape))
        return x.shape[:k] + idx.shape + x.shape[k + 1:]

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = require_const(g, op, {1: "the indices"})
        if op.options_as(GatherOptions).batch_dims != 0:
            problems.append("batch_dims other than 0 is not supported")
        x, idx = op.input(g, 0), op.input(g, 1)
        if not problems:  # the axis is in range (validate_model)
            size = x.shape[op.options_as(GatherOptions).axis % len(x.shape)]
            bad = idx.values[(idx.values < 0) | (idx.values >= size)]
            if bad.size:
                problems.append(f"index {int(bad.flat[0])} is outside the gathered axis of {size}")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        x = op.input(g, 0)
        return GatherData(op.options_as(GatherOptions).axis % len(x.shape), op.input(g, 1).values.astype(np.int64).reshape(-1))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(GatherData)
        return np.take(xs[0], p.indices, axis=p.axis).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(GatherData)
        shape = op.input(g, 0).shape
        gather = Struct("mcu_gather_params", "params", dict(
            outer=int(np.prod(shape[:p.axis])), axis_size=int(shape[p.axis]),
            inner=int(np.prod(shape[p.axis + 1:])) * op.input(g, 0).itemsize, count=len(p.indices),
            indices=Const("indices", p.indices.astype(np.int32))))
        return Call("mcu_gather", (gather, reads(op), writes(op)), note=f"axis {p.axis}")
