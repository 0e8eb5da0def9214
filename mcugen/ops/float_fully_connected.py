"""FULLY_CONNECTED in float32: TFLM's reference_ops::FullyConnected.

Each unit's products are rounded to float32 one by one and summed from 0.0f in input order
(np.add.accumulate is strictly left to right), then the bias is added and the sum clamped.
"""
from __future__ import annotations

import math

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, reads, writes
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FloatActivation
from mcugen.ops._quant import weight_problems
from mcugen.ops.fully_connected import FullyConnected


@register("FULLY_CONNECTED", dtype="float32")
class FloatFullyConnected(FullyConnected):
    parameters = {1: ("float32",), 2: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op)
        if op.attrs.get("weights_format", 0) != 0:
            problems.append("shuffled weights format is not supported")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        return FloatActivation.of(op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        w, b = xs[1], xs[2] if len(xs) > 2 else None
        total = dense(xs[0].reshape(-1, w.shape[1]), w, b)
        return op.prepared(FloatActivation).clamp(total).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x, w, b = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2)
        units, depth = w.shape
        batches = math.prod(x.shape) // depth
        return Call("mcu_fully_connected_f32", (
            Struct("mcu_float_activation", "activation", op.prepared(FloatActivation).fields()), batches, depth, units,
            reads(op, 0), Const("filter", w.values), Const("bias", b.values.reshape(-1)) if b is not None else None,
            writes(op)), note=f"{batches} x {depth} -> {units} units")


def dense(x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """[batches, depth] x [units, depth]^T + bias, unclamped: TFLM's sums from 0.0f in input order."""
    with np.errstate(all="ignore"):
        products = x[:, None, :] * w[None, :, :]  # [batches, units, depth], each rounded to float32
        start = np.zeros((*products.shape[:2], 1), F32)
        total = np.add.accumulate(np.concatenate([start, products], axis=-1), axis=-1)[..., -1]
        return total + (b.reshape(-1).astype(F32) if b is not None else F32(0.0))
