"""TRANSPOSE with a constant permutation, int8 or int16 values copied as they are."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, copy, reads, strides_of, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import const_ints, ints, require_const


@dataclass(frozen=True)
class Permutation:
    perm: tuple[int, ...]


@register("TRANSPOSE")
class Transpose(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}
    input_types = output_types = ("int8", "int16", "float32")
    copies_values = foldable = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        shape, perm = op.input(g, 0).shape, const_ints(op.input(g, 1))
        if perm is None:
            return None
        if sorted(perm) != list(range(len(shape))):
            raise ValueError(f"permutation {perm} for an input of rank {len(shape)}")
        return tuple(shape[k] for k in perm)

    def check(self, g: Graph, op: Op) -> list[str]:
        return require_const(g, op, {1: "the permutation"})

    def prepare(self, g: Graph, op: Op) -> object:
        return Permutation(tuple(ints(op.input(g, 1))))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return np.transpose(xs[0], op.prepared(Permutation).perm)

    def lower(self, g: Graph, op: Op) -> Call | None:
        perm, shape = list(op.prepared(Permutation).perm), op.input(g, 0).shape
        out_shape = [shape[k] for k in perm]
        in_stride = [strides_of(shape)[k] for k in perm]
        params = Struct("mcu_copy_params", "params", copy(out_shape, in_stride, strides_of(out_shape),
                                                                  itemsize=op.input(g, 0).itemsize))
        return Call("mcu_copy_strided", (params, reads(op), writes(op)), note=f"permutation {perm}")
