"""PACK: N tensors of one shape stacked along a new axis (int8 values copied as they are, as TFLM
does; int32 shape arithmetic is folded at build time).

Stacking along `axis` moves the same bytes as concatenating along it: each input contributes
prod(shape[axis:]) values per outer index either way, so CONCATENATION's lowering serves."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.options import PackOptions
from mcugen.ops import Outputs, Shapes, register
from mcugen.ops._quant import Axis, require_axis
from mcugen.ops.concatenation import Concatenation


@register("PACK")
class Pack(Concatenation):
    def output_shape(self, g: Graph, op: Op) -> Shapes:
        shapes = {op.input(g, i).shape for i in range(len(op.inputs))}
        if len(shapes) > 1:
            raise ValueError(f"stacks inputs of different shapes {sorted(list(s) for s in shapes)}")
        shape = shapes.pop()
        options = op.options_as(PackOptions)
        if options.values_count != len(op.inputs):
            raise ValueError(f"values_count {options.values_count} for {len(op.inputs)} inputs")
        k = require_axis(options.axis, len(shape) + 1)
        return shape[:k] + (len(op.inputs),) + shape[k:]

    def check(self, g: Graph, op: Op) -> list[str]:
        return []  # unlike CONCATENATION, TFLM's PACK compares no quantization: the values are copied

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return np.stack(xs, axis=op.prepared(Axis).axis)
