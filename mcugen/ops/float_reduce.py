"""MEAN, SUM, REDUCE_MAX and REDUCE_MIN in float32: TFLM's reference Mean and ReduceGeneric. Each output
takes its values in the input's row-major order: sums from 0.0f (np.add.accumulate, left to right), MEAN
then divided by their count as a float; REDUCE_MAX from the lowest float, each value taken where it is
greater (`in > current ? in : current`: a NaN is passed over), REDUCE_MIN from the largest where less."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, reads, writes
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FLT_MAX
from mcugen.ops.reduce import ReduceData, _Reduce, reduce_params


def _reduced(xs: list[np.ndarray], p: ReduceData) -> np.ndarray:
    """[kept..., the reduced values in row-major order]."""
    x = np.moveaxis(xs[0], p.axes, range(-len(p.axes), 0))
    return x.reshape(*x.shape[:x.ndim - len(p.axes)], -1)


@register("MEAN", "SUM", dtype="float32")
class FloatReduce(_Reduce):
    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(ReduceData)
        values = _reduced(xs, p)
        start = np.zeros((*values.shape[:-1], 1), F32)
        total = np.add.accumulate(np.concatenate([start, values], axis=-1), axis=-1)[..., -1]
        if op.opcode == "MEAN":
            total = total / F32(p.count)
        return total.astype(F32).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return Call("mcu_reduce_sum_f32", (reduce_params(g, op), int(op.opcode == "MEAN"), reads(op), writes(op)),
                    note=f"{'mean' if op.opcode == 'MEAN' else 'sum'} over axes {list(op.prepared(ReduceData).axes)}")


@register("REDUCE_MAX", "REDUCE_MIN", dtype="float32")
class FloatReduceMaxMin(_Reduce):
    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        values = _reduced(xs, op.prepared(ReduceData))
        minimum = op.opcode == "REDUCE_MIN"
        best = np.full(values.shape[:-1], FLT_MAX if minimum else -FLT_MAX, F32)
        for k in range(values.shape[-1]):
            v = values[..., k]
            best = np.where(v < best if minimum else v > best, v, best)
        return best.astype(F32).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return Call("mcu_reduce_max_f32", (reduce_params(g, op), int(op.opcode == "REDUCE_MIN"), reads(op), writes(op)),
                    note=f"{op.opcode.lower()[7:]} over axes {list(op.prepared(ReduceData).axes)}")
