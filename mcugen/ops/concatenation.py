"""CONCATENATION: values are copied as they are (TFLM and LiteRT alike). TFLM takes int8 inputs
quantized as the output, and int16 inputs with zero points of 0 whatever their scales (copied raw
all the same), at most 10 of them."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Slice, Struct, writes
from mcugen.ir.options import Axial
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import Axis, require_axis, require_same_quant, require_zero_points


@register("CONCATENATION")
class Concatenation(OpDef):
    arity = ((1, 10), (1, 1))  # TFLM's kMaxInputNum
    variadic = True
    input_types = output_types = ("int8", "int16", "int32", "float32")
    copies_values = foldable = True  # its quantization checks are TFLM's, in check()

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        shapes = [op.input(g, i).shape for i in range(len(op.inputs))]
        k = require_axis(op.options_as(Axial).axis, len(shapes[0]))
        for shape in shapes[1:]:
            if len(shape) != len(shapes[0]) or shape[:k] + shape[k + 1:] != shapes[0][:k] + shapes[0][k + 1:]:
                raise ValueError(f"inputs {list(shapes[0])} and {list(shape)} differ off axis {k}")
        return shapes[0][:k] + (sum(s[k] for s in shapes),) + shapes[0][k + 1:]

    def check(self, g: Graph, op: Op) -> list[str]:
        if op.output(g).dtype == "int16":
            problems = require_zero_points([op.input(g, i) for i in range(len(op.inputs))] + [op.output(g)],
                                           "CONCATENATION")
        elif op.output(g).dtype == "int8":
            problems = require_same_quant(g, op, range(len(op.inputs)))
        else:  # float32, int32: TFLM copies, whatever quantization the tensors carry
            problems = []
        if op.activation != "NONE":
            problems.append("fused activation on CONCATENATION has no int8 kernel")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        axis = op.options_as(Axial).axis
        return Axis(axis % len(op.output(g).shape))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return np.concatenate(xs, axis=op.prepared(Axis).axis)

    def lower(self, g: Graph, op: Op) -> Call | None:
        axis = op.prepared(Axis).axis
        y = op.output(g)
        size = np.dtype(y.dtype).itemsize
        inner = [int(np.prod(op.input(g, i).shape[axis:])) * size for i in range(len(op.inputs))]
        concat = Struct("mcu_concat_params", "params", dict(
            outer=int(np.prod(y.shape[:axis])), count=len(inner),
            inner=Const("inner", np.array(inner, dtype=np.int32))))
        return Call("mcu_concatenation", (concat, Slice(tuple(op.inputs), as_array=True), writes(op)),
                    note=f"axis {axis}")
