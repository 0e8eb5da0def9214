"""SHAPE: with static shapes it is a constant, made at build time (passes/fold_constants.py)."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ops import OpDef, Shapes, register


@register("SHAPE")
class Shape(OpDef):
    input_types = ("int8", "uint8", "int16", "int32", "float32")
    output_types = ("int32", "int64")
    options_unread = ("SHAPE",)  # TFLM takes the index type from the output tensor
    converts = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        return (len(op.input(g, 0).shape),)

    def check(self, g: Graph, op: Op) -> list[str]:
        return ["SHAPE runs only at build time, on a tensor of static shape"]

    def fold(self, g: Graph, op: Op) -> list[np.ndarray] | None:
        return [np.array(op.input(g, 0).shape, dtype=op.output(g).dtype)]
