"""BATCH_MATMUL (attention layers), int8 and 16x8 as TFLM's reference kernel computes it: for each
batch (leading dimensions broadcast, up to 5-D), out[i, j] = clamp(requantize(sum_k (L[i, k] - zl) *
(R[k, j] - zr)) + zo), L transposed first where adj_x, R where adj_y. int8 sums in int32 (wrapping) and
requantizes as everywhere; int16 sums in int64 and takes TFLM's int64 requantize, zero points 0. The
right-hand side may be a constant or computed."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, activation, reads, writes
from mcugen.ir.options import BatchMatMulOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._int16 import requantize64
from mcugen.ops._quant import require_zero_points
from mcugen.numerics.requant import multiplier_shift, quantize_multiplier, requantize, wrap_int32


@dataclass(frozen=True)
class BatchMatmulData:
    lhs_zp: int
    rhs_zp: int
    output_zp: int
    multiplier: int
    shift: int


def _matrices(shape: tuple[int, ...], adjoint: bool) -> tuple[int, int]:
    """(rows, columns) of the matrix a tensor's last two dimensions hold, as the product uses it."""
    return (shape[-1], shape[-2]) if adjoint else (shape[-2], shape[-1])


def _batches(lhs: tuple[int, ...], rhs: tuple[int, ...]) -> tuple[int, ...]:
    rank = max(len(lhs), len(rhs))
    a, b = (1,) * (rank - len(lhs)) + lhs[:-2], (1,) * (rank - len(rhs)) + rhs[:-2]
    if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
        raise ValueError(f"batch dimensions {list(lhs[:-2])} and {list(rhs[:-2])} do not broadcast")
    return tuple(max(x, y) for x, y in zip(a, b))


def matrix_index(lead: tuple[int, ...], batches: tuple[int, ...]) -> np.ndarray:
    """Which of an operand's matrices (its batch dimensions `lead`, broadcast to `batches`) each output batch
    reads."""
    return np.broadcast_to(np.arange(int(np.prod(lead, dtype=np.int64))).reshape(lead), batches).reshape(-1)


def _offsets(shape: tuple[int, ...], batches: tuple[int, ...]) -> tuple[int, ...]:
    """The first element of each output batch's matrix in a tensor broadcast to `batches`."""
    return tuple(int(v) for v in matrix_index(tuple(shape[:-2]), batches) * shape[-2] * shape[-1])


@register("BATCH_MATMUL")
class BatchMatmul(OpDef):
    arity = ((2, 2), (1, 1))
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        lhs, rhs = op.input(g, 0).shape, op.input(g, 1).shape
        if not (2 <= len(lhs) <= 5 and 2 <= len(rhs) <= 5):
            raise ValueError(f"operands of rank {len(lhs)} and {len(rhs)} (TFLM takes 2 to 5)")
        (rows, depth), (depth2, cols) = _matrices(lhs, bool(op.options_as(BatchMatMulOptions).adj_x)), \
            _matrices(rhs, bool(op.options_as(BatchMatMulOptions).adj_y))
        if depth != depth2:
            raise ValueError(f"operands {list(lhs)} and {list(rhs)} sum over {depth} and {depth2} values")
        return (*_batches(lhs, rhs), rows, cols)

    def check(self, g: Graph, op: Op) -> list[str]:
        tensors = [op.input(g, 0), op.input(g, 1), op.output(g)]
        if any(t.q.per_channel for t in tensors):
            return ["a per-channel quantized operand: TFLM's BATCH_MATMUL reads one scale per tensor"]
        if tensors[2].dtype != "int16":
            return []
        shift = multiplier_shift(float(tensors[0].q.s) * float(tensors[1].q.s) / float(tensors[2].q.s))
        if shift > 14:  # TFLM's int64 requantize shifts by 15 - shift, rounding by 2^(14 - shift)
            return [f"a rescale of 2^{shift}: TFLM's int64 requantize shifts by a negative amount there"]
        return require_zero_points(tensors, "BATCH_MATMUL")

    def prepare(self, g: Graph, op: Op) -> object:
        lhs, rhs, y = op.input(g, 0), op.input(g, 1), op.output(g)
        multiplier, shift = quantize_multiplier(float(lhs.q.s) * float(rhs.q.s) / float(y.q.s))
        return BatchMatmulData(lhs.q.zp, rhs.q.zp, y.q.zp, multiplier, shift)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p, y = op.prepared(BatchMatmulData), op.output(g)
        lhs, rhs = xs[0].astype(np.int64) - p.lhs_zp, xs[1].astype(np.int64) - p.rhs_zp
        if op.options_as(BatchMatMulOptions).adj_x:
            lhs = np.swapaxes(lhs, -1, -2)
        if op.options_as(BatchMatMulOptions).adj_y:
            rhs = np.swapaxes(rhs, -1, -2)
        acc = np.matmul(lhs, rhs)  # int64: exact
        if y.dtype == "int16":
            out = requantize64(acc, np.array(p.multiplier), np.array(p.shift))
        else:
            out = requantize(wrap_int32(acc), p.multiplier, p.shift) + p.output_zp
        info = np.iinfo(y.dtype)
        return np.clip(out, info.min, info.max).astype(y.dtype).reshape(y.shape)

    def macs(self, g: Graph, op: Op) -> int:
        y, lhs = op.output(g), op.input(g, 0)
        depth = _matrices(lhs.shape, bool(op.options_as(BatchMatMulOptions).adj_x))[1]
        return int(np.prod(y.shape)) * depth

    def lower(self, g: Graph, op: Op) -> Call | None:
        p, y = op.prepared(BatchMatmulData), op.output(g)
        info = np.iinfo(y.dtype)
        return matmul_call(g, op, "mcu_batch_matmul", dict(
            lhs_offset=-p.lhs_zp, rhs_offset=-p.rhs_zp, output_offset=p.output_zp,
            rescale=dict(multiplier=p.multiplier, shift=p.shift), activation=activation(info.min, info.max),
            bits=info.bits))


def matmul_call(g: Graph, op: Op, kernel: str, arithmetic: dict[str, object]) -> Call:
    """The call of `kernel` on mcu_batch_matmul_params: the operands' geometry, and `arithmetic`."""
    params, note = matmul_params(g, op, arithmetic)
    return Call(kernel, (params, reads(op, 0), reads(op, 1), writes(op)), note=note)


def matmul_params(g: Graph, op: Op, arithmetic: dict[str, object]) -> tuple[Struct, str]:
    """mcu_batch_matmul_params of the layer (its operands' geometry, and `arithmetic`) and its note."""
    lhs, rhs, y = op.input(g, 0), op.input(g, 1), op.output(g)
    batches = tuple(y.shape[:-2])
    lhs_offsets, rhs_offsets = _offsets(lhs.shape, batches), _offsets(rhs.shape, batches)
    rows, cols = y.shape[-2], y.shape[-1]
    depth = _matrices(lhs.shape, bool(op.options_as(BatchMatMulOptions).adj_x))[1]
    # where element (i, k) of L and (k, j) of R lie in their matrices
    lhs_strides = (1, lhs.shape[-1]) if op.options_as(BatchMatMulOptions).adj_x else (lhs.shape[-1], 1)
    rhs_strides = (1, rhs.shape[-1]) if op.options_as(BatchMatMulOptions).adj_y else (rhs.shape[-1], 1)
    params = Struct("mcu_batch_matmul_params", "params", dict(
        batches=len(lhs_offsets), lhs_offsets=Const("lhs_offsets", np.array(lhs_offsets, np.int32)),
        rhs_offsets=Const("rhs_offsets", np.array(rhs_offsets, np.int32)),
        rows=rows, cols=cols, depth=depth, lhs_row_stride=lhs_strides[0], lhs_depth_stride=lhs_strides[1],
        rhs_depth_stride=rhs_strides[0], rhs_col_stride=rhs_strides[1], **arithmetic))
    adjoint = "".join(f", adj_{a}" for a in "xy" if getattr(op.options_as(BatchMatMulOptions), f"adj_{a}"))
    return params, f"{len(lhs_offsets)} x [{rows}, {depth}] x [{depth}, {cols}]{adjoint}"
