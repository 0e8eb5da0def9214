"""ARG_MAX and ARG_MIN: int8 or float32 in, int32 index out, over one constant axis. TFLM keeps the first
value and takes each later one that compares strictly greater (less): ties go to the first position, as
numpy's argmax and argmin, but a NaN is never taken, and one in the first position is never passed
(numpy's argmax returns the first NaN)."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import Axis, const_ints, ints, require_axis, require_const


@register("ARG_MAX", "ARG_MIN")
class ArgMinMax(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}
    input_types = ("int8", "float32")
    output_types = ("int32",)
    options_unread = ("ARG_MAX", "ARG_MIN")  # TFLM takes the index type from the output tensor
    converts = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        axis, shape = const_ints(op.input(g, 1)), op.input(g, 0).shape
        if not axis:
            return None
        k = require_axis(axis[0], len(shape))
        return shape[:k] + shape[k + 1:]

    def check(self, g: Graph, op: Op) -> list[str]:
        return require_const(g, op, {1: "the axis"})

    def prepare(self, g: Graph, op: Op) -> object:
        return Axis(require_axis(ints(op.input(g, 1))[0], len(op.input(g, 0).shape)))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        values = np.moveaxis(xs[0], op.prepared(Axis).axis, 0)
        best, index = values[0], np.zeros(values.shape[1:], np.int32)
        for k in range(1, len(values)):
            take = values[k] < best if op.opcode == "ARG_MIN" else values[k] > best
            best, index = np.where(take, values[k], best), np.where(take, k, index)
        return index.astype(np.int32).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        axis, shape = op.prepared(Axis).axis, op.input(g, 0).shape
        params = Struct("mcu_arg_params", "params", dict(
            outer=int(np.prod(shape[:axis])), axis_size=int(shape[axis]), inner=int(np.prod(shape[axis + 1:])),
            minimum=int(op.opcode == "ARG_MIN"), is_float=int(op.input(g, 0).dtype == "float32")))
        return Call("mcu_arg_min_max", (params, reads(op), writes(op)), note=f"over axis {axis}")
