"""MAXIMUM and MINIMUM, int8 or int16, with broadcasting: TFLM compares the raw values and copies the winner,
whatever the two inputs' quantization (it checks only that the types agree), so mcugen does the same."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, broadcast, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import broadcast_shape


@register("MAXIMUM", "MINIMUM")
class MaximumMinimum(OpDef):
    arity = ((2, 2), (1, 1))
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        return broadcast_shape(op.input(g, 0).shape, op.input(g, 1).shape)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        pick = np.minimum if op.opcode == "MINIMUM" else np.maximum
        return pick(xs[0], xs[1]).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        return Call("mcu_max_min", (int(op.opcode == "MINIMUM"), broadcast(a.shape, b.shape, y.shape, y.dtype),
                                    reads(op, 0), reads(op, 1), writes(op)),
                    note="the smaller of each pair" if op.opcode == "MINIMUM" else "the larger of each pair",
                    in_place=0 if tuple(a.shape) == tuple(y.shape) else None)
