"""BROADCAST_TO with a constant shape (int32 or int64, up to 5-D): the input's values copied as they
are (TFLM copies raw bytes) to every position of the output whose broadcast they are."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, copy, reads, strides_of, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import const_ints, require_const

MAX_DIMS = 5  # TFLM's kMaxDims


@dataclass(frozen=True)
class Target:
    shape: tuple[int, ...]


@register("BROADCAST_TO")
class BroadcastTo(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32", "int64")}
    input_types = output_types = ("int8", "int16", "float32")
    copies_values = foldable = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        shape, target = op.input(g, 0).shape, const_ints(op.input(g, 1))
        if target is None:
            return None
        lead = len(target) - len(shape)
        if len(op.input(g, 1).shape) != 1 or not 0 <= lead or len(target) > MAX_DIMS \
                or any(d not in (1, target[lead + k]) for k, d in enumerate(shape)):
            raise ValueError(f"shape {target} is not a broadcast of the input's {list(shape)} (TFLM takes up to 5-D)")
        return tuple(target)

    def check(self, g: Graph, op: Op) -> list[str]:
        return require_const(g, op, {1: "the shape"})

    def prepare(self, g: Graph, op: Op) -> object:
        return Target(tuple(op.output(g).shape))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return np.broadcast_to(xs[0], op.prepared(Target).shape).copy()

    def lower(self, g: Graph, op: Op) -> Call | None:
        x, y = op.input(g, 0), op.output(g)
        lead = len(y.shape) - len(x.shape)
        # an input axis of 1 (or one the input lacks) is read again for every output position along it
        x_strides = strides_of(x.shape)
        in_stride = [0] * lead + [0 if d == 1 else s for d, s in zip(x.shape, x_strides)]
        params = Struct("mcu_copy_params", "params", copy(y.shape, in_stride, strides_of(y.shape), itemsize=y.itemsize))
        return Call("mcu_copy_strided", (params, reads(op), writes(op)), note=f"{list(x.shape)} to {list(y.shape)}")
