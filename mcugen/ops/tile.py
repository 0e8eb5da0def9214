"""TILE with constant multiples (neither oracle has an int8 kernel: numpy's np.tile is the definition)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, copy, reads, strides_of, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import const_ints, ints, require_const, require_same_quant


@dataclass(frozen=True)
class Multiples:
    multiples: tuple[int, ...]


@register("TILE")
class Tile(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}
    input_types = output_types = ("int8", "float32")
    foldable = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        shape, multiples = op.input(g, 0).shape, const_ints(op.input(g, 1))
        if multiples is None:
            return None
        if len(multiples) != len(shape) or min(multiples, default=1) < 1:
            raise ValueError(f"multiples {multiples} for an input of shape {list(shape)}")
        return tuple(d * m for d, m in zip(shape, multiples))

    def check(self, g: Graph, op: Op) -> list[str]:
        return require_same_quant(g, op) + require_const(g, op, {1: "the multiples"})

    def prepare(self, g: Graph, op: Op) -> object:
        return Multiples(tuple(ints(op.input(g, 1))))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return np.tile(xs[0], op.prepared(Multiples).multiples)

    def lower(self, g: Graph, op: Op) -> Call | None:
        # Output axis k of size reps * n splits into (reps, n): the input repeats along the first.
        x_shape, y_shape = op.input(g, 0).shape, op.output(g).shape
        in_stride, out_stride = strides_of(x_shape), strides_of(y_shape)
        shape, si, so = [], [], []
        for n, reps, s_in, s_out in zip(x_shape, op.prepared(Multiples).multiples, in_stride, out_stride):
            shape += [reps, n]
            si += [0, s_in]
            so += [n * s_out, s_out]
        params = Struct("mcu_copy_params", "params", copy(shape, si, so, itemsize=op.input(g, 0).itemsize))
        return Call("mcu_copy_strided", (params, reads(op), writes(op)),
                    note=f"multiples {list(op.prepared(Multiples).multiples)}")
