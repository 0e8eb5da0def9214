"""BATCH_MATMUL in float32: TFLM's reference_ops::BatchMatMul, each output a float sum from 0.0f of
its depth products in order (no bias, no clamp); batches broadcast as in the integer op."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32
from mcugen.ops.batch_matmul import BatchMatmul, matmul_call


@register("BATCH_MATMUL", dtype="float32")
class FloatBatchMatmul(BatchMatmul):
    def check(self, g: Graph, op: Op) -> list[str]:
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return None

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        lhs, rhs = xs[0], xs[1]
        if op.attrs.get("adj_x"):
            lhs = np.swapaxes(lhs, -1, -2)
        if not op.attrs.get("adj_y"):
            rhs = np.swapaxes(rhs, -1, -2)  # [..., cols, depth]
        with np.errstate(all="ignore"):
            products = lhs[..., :, None, :] * rhs[..., None, :, :]  # [..., rows, cols, depth]
            start = np.zeros((*products.shape[:-1], 1), F32)
            total = np.add.accumulate(np.concatenate([start, products], axis=-1), axis=-1)[..., -1]
        return total.astype(F32).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return matmul_call(g, op, "mcu_batch_matmul_f32", {})
