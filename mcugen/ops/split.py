"""SPLIT, SPLIT_V and UNPACK: one tensor cut along an axis into several outputs, values copied as
they are (TFLM's kernels copy raw bytes). UNPACK cuts into slices of one and drops the axis."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Slice, Struct, reads
from mcugen.ir.options import UnpackOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import const_ints, require_axis, require_const

# where each op keeps its data input and its axis (a constant tensor, or an attribute)
DATA_INPUT = {"SPLIT": 1, "SPLIT_V": 0, "UNPACK": 0}


def _axis(g: Graph, op: Op) -> int | None:
    """The axis as stored (UNPACK: an option; SPLIT, SPLIT_V: a constant tensor), None if not constant."""
    if op.opcode == "UNPACK":
        return op.options_as(UnpackOptions).axis
    values = const_ints(op.input(g, 0 if op.opcode == "SPLIT" else 2))
    return values[0] if values else None


@dataclass(frozen=True)
class SplitData:
    axis: int
    sizes: tuple[int, ...]  # each output's extent along the axis


@register("SPLIT", "SPLIT_V", "UNPACK")
class Split(OpDef):
    arity = {"SPLIT": ((2, 2), (1, 65536)), "SPLIT_V": ((3, 3), (1, 65536)), "UNPACK": ((1, 1), (1, 65536))}
    parameters = {"SPLIT": {0: ("int32",)}, "SPLIT_V": {1: ("int32",), 2: ("int32",)}, "UNPACK": {}}
    input_types = output_types = ("int8", "int16", "float32")
    copies_values = foldable = True
    options_unread = ("SPLIT", "SPLIT_V")  # UNPACK's axis is an option

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        """One shape per output. TFLM's kernels copy by the declared output shapes (the split sizes
        tensor and num_splits are not read), so those must cut the input exactly."""
        shape, axis = op.input(g, DATA_INPUT[op.opcode]).shape, _axis(g, op)
        if axis is None:
            return None
        k = require_axis(axis, len(shape))
        if op.opcode == "UNPACK":
            num = op.options_as(UnpackOptions).num
            if num != len(op.outputs) or shape[k] != len(op.outputs):
                raise ValueError(f"unpacks axis {k} of {list(shape)} into {len(op.outputs)} outputs, num {num}")
            return [shape[:k] + shape[k + 1:]] * len(op.outputs)
        if op.opcode == "SPLIT":
            if shape[k] % len(op.outputs):
                raise ValueError(f"axis {k} of {list(shape)} does not split into {len(op.outputs)} equal parts")
            sizes = [shape[k] // len(op.outputs)] * len(op.outputs)
        else:
            declared = [op.output(g, i).shape for i in range(len(op.outputs))]
            sizes = [d[k] if len(d) == len(shape) else 0 for d in declared]
            if sum(sizes) != shape[k]:
                raise ValueError(f"outputs {[list(d) for d in declared]} do not cut axis {k} of {list(shape)}")
        return [shape[:k] + (n,) + shape[k + 1:] for n in sizes]

    def check(self, g: Graph, op: Op) -> list[str]:
        what = {"SPLIT": {0: "the axis"}, "SPLIT_V": {1: "the split sizes", 2: "the axis"}, "UNPACK": {}}
        return require_const(g, op, what[op.opcode])  # output_shape checked the rest

    def prepare(self, g: Graph, op: Op) -> object:
        given = _axis(g, op)
        assert given is not None  # check() made sure it is constant
        axis = require_axis(given, len(op.input(g, DATA_INPUT[op.opcode]).shape))
        sizes = [op.output(g, k).shape[axis] if op.opcode != "UNPACK" else 1 for k in range(len(op.outputs))]
        return SplitData(axis, tuple(sizes))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(SplitData)
        parts = np.split(xs[DATA_INPUT[op.opcode]], np.cumsum(p.sizes)[:-1], axis=p.axis)
        return [part.reshape(op.output(g, k).shape) for k, part in enumerate(parts)]

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(SplitData)
        shape = op.input(g, DATA_INPUT[op.opcode]).shape
        inner = int(np.prod(shape[p.axis + 1:])) * op.input(g, DATA_INPUT[op.opcode]).itemsize
        split = Struct("mcu_concat_params", "params", dict(
            outer=int(np.prod(shape[:p.axis])), count=len(p.sizes),
            inner=Const("inner", np.array([n * inner for n in p.sizes], dtype=np.int32))))
        return Call("mcu_split", (split, reads(op, DATA_INPUT[op.opcode]),
                                     Slice(tuple(op.outputs), writable=True, as_array=True)),
                    note=f"axis {p.axis} into {list(p.sizes)}")
