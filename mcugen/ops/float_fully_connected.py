"""FULLY_CONNECTED in float32: TFLM's reference_ops::FullyConnected.

Each unit's products are rounded to float32 one by one and summed from 0.0f in input order
(np.add.accumulate is strictly left to right), then the bias is added and the sum clamped.
With int8 weights (a dynamic-range model) it is LiteRT's hybrid kernel (ops/_hybrid.py).
"""
from __future__ import annotations

import math

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, Struct, reads, writes
from mcugen.ir.options import FullyConnectedOptions
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FloatActivation
from mcugen.ops._hybrid import ACTIVATIONS, HybridQuant, quantize_rows
from mcugen.ops._quant import weight_problems
from mcugen.ops.fully_connected import FullyConnected


@register("FULLY_CONNECTED", dtype="float32")
class FloatFullyConnected(FullyConnected):
    parameters = {1: ("float32", "int8"), 2: ("float32",)}  # int8: dynamic-range weights

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op)
        if op.options_as(FullyConnectedOptions).weights_format != 0:
            problems.append("shuffled weights format is not supported")
        w = op.input(g, 1)
        if w.dtype == "int8":
            if w.quant is None:
                problems.append(f"int8 weights '{w.name}' carry no scale")
            activation = op.activation
            if activation not in ACTIVATIONS:
                problems.append(f"a dynamic-range layer with fused activation {activation}: mcugen computes "
                                f"{', '.join(ACTIVATIONS)}")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        w = op.input(g, 1)
        if w.dtype == "int8":
            return HybridQuant.of(op, w.q.scale, w.values)
        return FloatActivation.of(op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        w, b = xs[1], xs[2] if len(xs) > 2 else None
        x = xs[0].reshape(-1, w.shape[1])
        if w.dtype == np.int8:
            return hybrid_dense(op.prepared(HybridQuant), x, w, b).reshape(op.output(g).shape)
        total = dense(x, w, b)
        return op.prepared(FloatActivation).clamp(total).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x, w, b = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2)
        units, depth = w.shape
        batches = math.prod(x.shape) // depth
        if w.dtype == "int8":
            q = op.prepared(HybridQuant)
            return Call("mcu_fully_connected_hybrid_s8", (
                Struct("mcu_hybrid_params", "params", q.fields()), batches, depth, units, reads(op, 0),
                Const("filter", w.values), Const("scales", q.scales) if q.scales.size > 1 else None,
                Const("row_sums", q.row_sums) if q.asymmetric else None,
                Const("bias", b.values.reshape(-1)) if b is not None else None, Scratch(depth, "int8_t"),
                writes(op)), extra_kernels=("mcu_hybrid_quantize_row",),
                note=f"{batches} x {depth} -> {units} units, int8 weights, inputs quantized "
                                  f"{'asymmetrically' if q.asymmetric else 'symmetrically'} per batch")
        return Call("mcu_fully_connected_f32", (
            Struct("mcu_float_activation", "activation", op.prepared(FloatActivation).fields()), batches, depth, units,
            reads(op, 0), Const("filter", w.values), Const("bias", b.values.reshape(-1)) if b is not None else None,
            writes(op)), note=f"{batches} x {depth} -> {units} units")


def hybrid_dense(q: HybridQuant, x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """LiteRT's EvalHybridDense: [batches, depth] float32 by [units, depth] int8."""
    out = np.zeros((x.shape[0], w.shape[0]), F32) + (b.reshape(-1).astype(F32) if b is not None else F32(0.0))
    if not x.any():  # all zero: the bias alone (LiteRT skips the products)
        return q.activate(out)
    values, factors, offsets = quantize_rows(x, q.asymmetric)
    dots = values.astype(np.int64) @ w.astype(np.int64).T
    return q.activate(q.accumulate(out, dots, factors, offsets))


def dense(x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """[batches, depth] x [units, depth]^T + bias, unclamped: TFLM's sums from 0.0f in input order."""
    with np.errstate(all="ignore"):
        products = x[:, None, :] * w[None, :, :]  # [batches, units, depth], each rounded to float32
        start = np.zeros((*products.shape[:2], 1), F32)
        total = np.add.accumulate(np.concatenate([start, products], axis=-1), axis=-1)[..., -1]
        return total + (b.reshape(-1).astype(F32) if b is not None else F32(0.0))
