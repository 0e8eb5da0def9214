"""BATCH_MATMUL in float32: TFLM's reference_ops::BatchMatMul, each output a float sum from 0.0f of
its depth products in order (no bias, no clamp); batches broadcast as in the integer op.

With a constant int8 right-hand side (a dynamic-range model) it is LiteRT's hybrid kernel (EvalHybrid,
reference_ops::BatchMatMul on int8): each row of the left-hand side (transposed first where adj_x) is
quantized as a hybrid FULLY_CONNECTED's input rows are (ops/_hybrid.py); each output's int32 dot
product with its column of R is taken back through float32, `(float)dot - (float)row_sum x zero point`
truncated to int32 (x86's conversion: INT32_MIN outside int32), then 0.0f + scale x (float)that, where
scale is the row's factor times the weights' one scale (folded into the factor first) or times the
column's scale (per channel, along R's columns). No bias, no activation. Where the left operand has two
batch dimensions above 1, the kernel reads the factors of another batch's rows than the rows it
quantized (_blocks), and the right operand's column sums likewise: computed so here, as the oracle does."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, Struct, reads, writes
from mcugen.ir.options import BatchMatMulOptions
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, truncate_to_int32_x86
from mcugen.ops._hybrid import quantize_rows
from mcugen.ops.batch_matmul import BatchMatmul, matmul_call, matmul_params, matrix_index
from mcugen.numerics.requant import wrap_int32


@dataclass(frozen=True)
class HybridMatmul:
    """What the hybrid kernel reads besides the data: R's scales (one, or one a column) and each of its
    matrices' column sums (for asymmetric rows)."""

    asymmetric: bool
    scales: np.ndarray  # float32
    column_sums: np.ndarray  # int32 [matrices, cols]


def _columns(op: Op, rhs: np.ndarray) -> np.ndarray:
    """R as [..., cols, depth]: the rows the hybrid kernel takes its dot products with."""
    return rhs if op.options_as(BatchMatMulOptions).adj_y else np.swapaxes(rhs, -1, -2)


def _blocks(lead: tuple[int, ...], batches: tuple[int, ...]) -> np.ndarray:
    """The matrix whose row factors (the left operand's) or column sums (the right's) LiteRT's kernel takes
    for each output batch: it steps them by one matrix along every batch dimension the operand does not
    broadcast, not by that dimension's stride (matrix_index's matrix where at most one such dimension
    exceeds 1)."""
    if not batches:
        return np.zeros(1, np.int64)
    steps = np.array([d != 1 for d in (1,) * (len(batches) - len(lead)) + tuple(lead)], np.int64)
    return (np.indices(batches).reshape(len(batches), -1) * steps[:, None]).sum(axis=0)


@register("BATCH_MATMUL", dtype="float32")
class FloatBatchMatmul(BatchMatmul):
    parameters = {1: ("float32", "int8")}  # int8: dynamic-range weights

    def check(self, g: Graph, op: Op) -> list[str]:
        rhs = op.input(g, 1)
        if rhs.dtype != "int8":
            return []
        if not rhs.is_const or rhs.quant is None:
            return [f"int8 right-hand side '{rhs.name}' of a dynamic-range BATCH_MATMUL is not a constant with a "
                    "scale (LiteRT's hybrid kernel takes its weights so)"]
        axis = len(rhs.shape) - (2 if op.options_as(BatchMatMulOptions).adj_y else 1)
        if rhs.q.per_channel and rhs.q.axis != axis:
            return [f"a dynamic-range BATCH_MATMUL whose scales run along dimension {rhs.q.axis}: LiteRT's kernel "
                    f"reads one per output column (dimension {axis})"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        rhs = op.input(g, 1)
        if rhs.dtype != "int8":
            return None
        cols = _columns(op, rhs.values.astype(np.int32))
        sums = cols.sum(axis=-1, dtype=np.int64).reshape(-1, cols.shape[-2])
        return HybridMatmul(op.options_as(BatchMatMulOptions).asymmetric_quantize_inputs,
                            np.asarray(rhs.q.scale, F32).reshape(-1), wrap_int32(sums).astype(np.int32))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        lhs, rhs = xs[0], xs[1]
        if op.options_as(BatchMatMulOptions).adj_x:
            lhs = np.swapaxes(lhs, -1, -2)
        if rhs.dtype == np.int8:
            return self._hybrid(g, op, np.ascontiguousarray(lhs), rhs)
        if not op.options_as(BatchMatMulOptions).adj_y:
            rhs = np.swapaxes(rhs, -1, -2)  # [..., cols, depth]
        with np.errstate(all="ignore"):
            products = lhs[..., :, None, :] * rhs[..., None, :, :]  # [..., rows, cols, depth]
            start = np.zeros((*products.shape[:-1], 1), F32)
            total = np.add.accumulate(np.concatenate([start, products], axis=-1), axis=-1)[..., -1]
        return total.astype(F32).reshape(op.output(g).shape)

    def _hybrid(self, g: Graph, op: Op, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
        """lhs [..., rows, depth] float32 (adj_x applied), rhs int8 as the file holds it."""
        q, y = op.prepared(HybridMatmul), op.output(g)
        batches, (rows, depth) = tuple(y.shape[:-2]), lhs.shape[-2:]
        values, factors, offsets = quantize_rows(lhs.reshape(-1, depth), q.asymmetric)
        if q.scales.size == 1:
            factors = (factors * q.scales[0]).astype(F32)
        values = values.reshape(-1, rows, depth).astype(np.int64)
        cols = _columns(op, rhs.astype(np.int64))
        matrices = cols.reshape(-1, *cols.shape[-2:])
        out = np.empty((int(np.prod(batches, dtype=np.int64)), rows, cols.shape[-2]), F32)
        for k, (li, ri, fb, sb) in enumerate(zip(matrix_index(lhs.shape[:-2], batches),
                                                 matrix_index(cols.shape[:-2], batches),
                                                 _blocks(lhs.shape[:-2], batches), _blocks(cols.shape[:-2], batches))):
            dots = wrap_int32(values[li] @ matrices[ri].T)  # [rows, cols]
            factor, offset = factors[fb * rows:(fb + 1) * rows, None], offsets[fb * rows:(fb + 1) * rows, None]
            with np.errstate(all="ignore"):
                total = truncate_to_int32_x86(dots.astype(F32) - q.column_sums[sb][None, :].astype(F32) * offset.astype(F32))
                scale = factor * q.scales[None, :] if q.scales.size > 1 else factor
                out[k] = F32(0.0) + scale * total.astype(F32)
        return out.reshape(y.shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        if op.input(g, 1).dtype != "int8":
            return matmul_call(g, op, "mcu_batch_matmul_f32", {})
        q, rhs = op.prepared(HybridMatmul), op.input(g, 1)
        params, note = matmul_params(g, op, {})
        lhs, y = op.input(g, 0), op.output(g)
        batches, rows, cols = tuple(y.shape[:-2]), y.shape[-2], y.shape[-1]
        depth = lhs.shape[-2] if op.options_as(BatchMatMulOptions).adj_x else lhs.shape[-1]
        lhs_lead, rhs_lead = tuple(lhs.shape[:-2]), tuple(rhs.shape[:-2])
        return Call("mcu_batch_matmul_hybrid_s8", (
            params, Struct("mcu_hybrid_params", "hybrid", dict(asymmetric=int(q.asymmetric), activation=0,
                                                                filter_scale=float(q.scales[0]))),
            reads(op, 0), Const("filter", rhs.values), Const("scales", q.scales) if q.scales.size > 1 else None,
            Const("column_sums", q.column_sums.reshape(-1)) if q.asymmetric else None,
            Const("factor_offsets", (_blocks(lhs_lead, batches) * rows * depth).astype(np.int32)),
            Const("sum_offsets", (_blocks(rhs_lead, batches) * cols).astype(np.int32)),
            Scratch(depth * 5, "int8_t"), writes(op)), extra_kernels=("mcu_hybrid_quantize_row",),
            note=f"{note}, int8 weights, rows quantized {'asymmetrically' if q.asymmetric else 'symmetrically'}")
