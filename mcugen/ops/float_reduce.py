"""MEAN and SUM in float32: TFLM's reference Mean / ReduceSum. Each output sums its values from 0.0f in
the input's row-major order (np.add.accumulate, left to right), and MEAN divides the sum by their count
as a float."""
from __future__ import annotations

import numpy as np

from mcugen.ir import Graph, Op
from mcugen.lowering import Call, reads, writes
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FloatKernel
from mcugen.ops.reduce import ReduceData, _Reduce, reduce_params


@register("MEAN", "SUM", dtype="float32")
class FloatReduce(FloatKernel, _Reduce):
    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(ReduceData)
        x = np.moveaxis(xs[0], p.axes, range(-len(p.axes), 0))
        values = x.reshape(*x.shape[:x.ndim - len(p.axes)], -1)
        start = np.zeros((*values.shape[:-1], 1), F32)
        total = np.add.accumulate(np.concatenate([start, values], axis=-1), axis=-1)[..., -1]
        if op.opcode == "MEAN":
            total = total / F32(p.count)
        return total.astype(F32).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return Call("mcu_reduce_sum_f32", (reduce_params(g, op), int(op.opcode == "MEAN"), reads(op), writes(op)),
                    note=f"{'mean' if op.opcode == 'MEAN' else 'sum'} over axes {list(op.prepared(ReduceData).axes)}")
