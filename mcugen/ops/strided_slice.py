"""STRIDED_SLICE, int8 or int16, with constant begin/end/strides (TF's StartForAxis/StopForAxis rules)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, copy, reads, strides_of, writes
from mcugen.ir.options import StridedSliceOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import const_ints, ints, require_const


def _clamp(v: int, stride: int, dim: int) -> int:
    return min(max(v, 0), dim) if stride > 0 else min(max(v, -1), dim - 1)


def axis_indices(begin: int, end: int, stride: int, dim: int, begin_masked: int, end_masked: int, shrink: int
                 ) -> list[int]:
    """The indices TF's strided-slice reads along one axis."""
    if begin_masked:
        start = 0 if stride > 0 else dim - 1
    else:
        start = _clamp(begin + dim if begin < 0 else begin, stride, dim)
    if shrink:
        return [start]
    if end_masked:
        stop = dim if stride > 0 else -1
    else:
        stop = _clamp(end + dim if end < 0 else end, stride, dim)
    return list(range(start, stop, stride))


@dataclass(frozen=True)
class Indices:
    per_axis: tuple[list[int], ...]  # the input indices each axis keeps, in order


def _indices(g: Graph, op: Op) -> Indices:
    begin, end, strides = (ints(op.input(g, i)) for i in (1, 2, 3))
    o = op.options_as(StridedSliceOptions)
    indices = []
    for axis, dim in enumerate(op.input(g, 0).shape):
        bit = 1 << axis
        indices.append(axis_indices(begin[axis], end[axis], strides[axis], dim, o.begin_mask & bit,
                                    o.end_mask & bit, o.shrink_axis_mask & bit))
    return Indices(tuple(indices))


@register("STRIDED_SLICE")
class StridedSlice(OpDef):
    arity = ((4, 4), (1, 1))
    parameters = {1: ("int32",), 2: ("int32",), 3: ("int32",)}
    input_types = output_types = ("int8", "int16", "int32", "float32")
    copies_values = foldable = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        """TFLM reads rank-many begin/end/stride values (whatever their tensors hold) and checks the
        declared shape against them; its kernel is 4-D at most and ignores the `offset` option."""
        rank = len(op.input(g, 0).shape)
        given = [const_ints(op.input(g, i)) for i in (1, 2, 3)]
        values = [v for v in given if v is not None]
        if len(values) < 3:
            return None
        if any(len(v) != rank for v in values) or rank > 4:
            raise ValueError(f"begin/end/strides of {[len(v) for v in values]} values for an input of rank {rank} "
                             "(TFLM slices ranks 1 to 4, one value per axis)")
        if 0 in values[2]:
            raise ValueError(f"strides {values[2]} (a stride must be non-zero)")
        if op.options_as(StridedSliceOptions).offset:
            raise ValueError("the offset option is set (TFLM ignores it; the model means another slice)")
        shrink = op.options_as(StridedSliceOptions).shrink_axis_mask
        indices = _indices(g, op).per_axis
        return tuple(len(i) for k, i in enumerate(indices) if not shrink & (1 << k))

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = require_const(g, op, {1: "begin", 2: "end", 3: "strides"})
        o = op.options_as(StridedSliceOptions)
        if o.ellipsis_mask or o.new_axis_mask:
            problems.append("ellipsis_mask and new_axis_mask are not supported (as in TFLM)")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        return _indices(g, op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        out = xs[0][np.ix_(*op.prepared(Indices).per_axis)]
        return out.reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        stride = strides_of(op.input(g, 0).shape)
        idx = op.prepared(Indices).per_axis
        shape = [len(i) for i in idx]
        step = [(i[1] - i[0]) * s if len(i) > 1 else s for i, s in zip(idx, stride)]
        offset = sum(i[0] * s for i, s in zip(idx, stride) if i)
        params = Struct("mcu_copy_params", "params", copy(shape, step, strides_of(shape), in_offset=offset,
                                                          itemsize=np.dtype(op.output(g).dtype).itemsize))
        return Call("mcu_copy_strided", (params, reads(op), writes(op)))
