"""RESHAPE, SQUEEZE, EXPAND_DIMS: the bytes stay, the shape comes from the model."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, copy, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, register


@register("RESHAPE", "SQUEEZE", "EXPAND_DIMS")
class Reshape(OpDef):
    arity = {"RESHAPE": ((1, 2), (1, 1)), "SQUEEZE": ((1, 1), (1, 1)), "EXPAND_DIMS": ((2, 2), (1, 1))}
    parameters = {"RESHAPE": {1: ("int32",)}, "SQUEEZE": {}, "EXPAND_DIMS": {1: ("int32",)}}
    input_types = output_types = ("int8", "int16", "int32", "uint32", "float32")
    copies_values = foldable = True
    options_unread = ("RESHAPE",)  # TFLM's SQUEEZE reads its squeeze_dims

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x, y = op.input(g, 0), op.output(g)
        if np.prod(x.shape, dtype=np.int64) != np.prod(y.shape, dtype=np.int64):
            raise ValueError(f"reshapes {list(x.shape)} into {list(y.shape)}, another number of elements")
        return tuple(y.shape)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return xs[0].reshape(op.output(g).shape)

    def defined(self, g: Graph, op: Op, k: int, given: list[np.ndarray | None]) -> np.ndarray | None:
        return None if given[0] is None else given[0].reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x = op.input(g, 0)
        if not x.is_const:
            return None  # the output is the input's bytes under another shape
        n = x.nbytes
        return Call("mcu_copy_strided", (Struct("mcu_copy_params", "params", copy([n], [1], [1])),
                                            reads(op), writes(op)), note="a constant, copied into the arena")
