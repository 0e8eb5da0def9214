"""SOFTMAX in float32: TFLM's reference_ops::Softmax over the last axis. Per row: the maximum
(std::max from the lowest float), e^((x - max) * beta) for each value (mcu_expf's e^x), their float32
sum in order, and each divided by the sum."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, reads, writes
from mcugen.ir.options import SoftmaxOptions
from mcugen.ops import OpDef, Outputs, register
from mcugen.ops._float import F32, FLT_MAX, expf


@dataclass(frozen=True)
class FloatSoftmaxData:
    beta: float  # as float32


@register("SOFTMAX", dtype="float32")
class FloatSoftmax(OpDef):
    same_shape = True

    def prepare(self, g: Graph, op: Op) -> object:
        return FloatSoftmaxData(float(F32(op.options_as(SoftmaxOptions).beta)))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x = xs[0].reshape(-1, xs[0].shape[-1])
        best = np.full(x.shape[0], -FLT_MAX, F32)
        for c in range(x.shape[1]):
            best = np.where(best < x[:, c], x[:, c], best)
        with np.errstate(all="ignore"):
            e = expf((x - best[:, None]) * F32(op.prepared(FloatSoftmaxData).beta))
            start = np.zeros((x.shape[0], 1), F32)
            total = np.add.accumulate(np.concatenate([start, e], axis=1), axis=1)[:, -1:]
            return (e / total).astype(F32).reshape(xs[0].shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x = op.input(g, 0)
        depth = x.shape[-1] if x.shape else 1
        return Call("mcu_softmax_f32", (op.prepared(FloatSoftmaxData).beta, int(np.prod(x.shape)) // depth, depth,
                                        reads(op), writes(op)), in_place=0, extra_kernels=("mcu_expf",))
