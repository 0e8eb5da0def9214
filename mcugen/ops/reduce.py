"""MEAN (TFLM QuantizedMeanOrSum, int8 or int16) and REDUCE_MAX (int8, values copied, no rescale).

MEAN folds 1/N into the output multiplier: with k = floor(log2 N) (capped so the
shift stays valid), m' = (m << k) // N and shift' = shift - k, then the
zero-point-corrected sum is requantized once with (m', shift').
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, merge_axes, padded, reads, strides_of, writes
from mcugen.ir.options import ReducerOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import const_ints, fused_range, ints, require_axis, require_const, require_same_quant
from mcugen.numerics.requant import Requant, quantize_multiplier, requantize_clamp


@dataclass(frozen=True)
class MeanRescale:
    """MEAN's one requantize of the zero-point-corrected sum, 1/count folded into it."""

    multiplier: int
    shift: int
    input_zp: int
    output_zp: int


@dataclass(frozen=True)
class ReduceData:
    axes: tuple[int, ...]  # sorted, in [0, rank)
    count: int  # values reduced into each output
    mean: MeanRescale | None = None
    golden: Requant | None = field(default=None, compare=False, repr=False)  # host-only: MEAN's, made once


class _Reduce(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        shape, given = op.input(g, 0).shape, const_ints(op.input(g, 1))
        if given is None:
            return None
        axes = {require_axis(a, len(shape)) for a in given}
        if op.options_as(ReducerOptions).keep_dims:
            return tuple(1 if k in axes else d for k, d in enumerate(shape))
        return tuple(d for k, d in enumerate(shape) if k not in axes)

    def check(self, g: Graph, op: Op) -> list[str]:
        return require_const(g, op, {1: "the reduction axes"})

    def prepare(self, g: Graph, op: Op) -> object:
        x = op.input(g, 0)
        rank = len(x.shape)
        axes = tuple(sorted({require_axis(a, rank) for a in ints(op.input(g, 1))}))
        return ReduceData(axes, int(np.prod([x.shape[a] for a in axes], dtype=np.int64)))

    def lower(self, g: Graph, op: Op) -> Call | None:
        kernel = "mcu_mean" if op.opcode == "MEAN" else "mcu_reduce_max_s8"
        return Call(kernel, (reduce_params(g, op), reads(op), writes(op)),
                    note=f"over axes {list(op.prepared(ReduceData).axes)}")


def reduce_params(g: Graph, op: Op) -> Struct:
    """mcu_reduce_params: the kept and the reduced axes (each merged where contiguous), MEAN's rescale."""
    p = op.prepared(ReduceData)
    shape = op.input(g, 0).shape
    stride = strides_of(shape)
    kept = [k for k in range(len(shape)) if k not in p.axes]
    kept_shape, (kept_stride, _) = merge_axes([shape[k] for k in kept], [stride[k] for k in kept],
                                              strides_of([shape[k] for k in kept]))
    red_shape, (red_stride,) = merge_axes([shape[k] for k in p.axes], [stride[k] for k in p.axes])
    mean = p.mean or MeanRescale(0, 0, 0, 0)
    return Struct("mcu_reduce_params", "params", dict(
        kept_rank=len(kept_shape), kept_shape=padded(kept_shape), kept_stride=padded(kept_stride),
        reduced_rank=len(red_shape), reduced_shape=padded(red_shape), reduced_stride=padded(red_stride),
        input_offset=-mean.input_zp, output_offset=mean.output_zp, multiplier=mean.multiplier, shift=mean.shift,
        bits=8 * op.input(g, 0).itemsize))


@register("MEAN")
class Mean(_Reduce):
    input_types = output_types = ("int8", "int16")
    # an unquantized input's scale 0 (over any output scale, or 0 / 0: NaN, which TFLM's QuantizeMultiplier
    # turns into 0 on x86 and Arm alike) makes the multiplier 0: every output is the output zero point
    unquantized_as_zero = True

    def check(self, g: Graph, op: Op) -> list[str]:
        x, y = op.input(g, 0), op.output(g)
        if y.quant is None and x.quant is not None:
            return [f"output '{y.name}' has no quantization parameters: TFLM divides the input scale by its "
                    "scale 0, and converts the infinity to an integer, which C leaves undefined"]
        return super().check(g, op)

    def prepare(self, g: Graph, op: Op) -> object:
        p = super().prepare(g, op)
        assert isinstance(p, ReduceData)
        x, y = op.input(g, 0), op.output(g)
        if x.quant is None:
            info = np.iinfo(y.dtype)
            zp_out, bounds = ((y.q.zp, fused_range(g, op)) if y.quant is not None
                              else (0, (int(info.min), int(info.max))))
            return dataclasses.replace(p, mean=MeanRescale(0, 0, 0, zp_out), golden=Requant.of(0, 0, zp_out, *bounds))
        m, s = quantize_multiplier(float(x.q.s) / float(y.q.s))
        k = min(p.count.bit_length() - 1, 32, 31 + s)
        multiplier, shift = (m << k) // p.count, s - k
        return dataclasses.replace(p, mean=MeanRescale(multiplier, shift, x.q.zp, y.q.zp),
                                   golden=Requant.of(multiplier, shift, y.q.zp, *fused_range(g, op)))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(ReduceData)
        assert p.mean is not None and p.golden is not None
        total = xs[0].astype(np.int64).sum(axis=p.axes) - p.mean.input_zp * p.count
        # TFLM's sum is an int32 that wraps
        y = op.output(g)
        return requantize_clamp(total.astype(np.int32), p.golden, y.dtype).reshape(y.shape)


@register("REDUCE_MAX")
class ReduceMax(_Reduce):
    def check(self, g: Graph, op: Op) -> list[str]:
        return super().check(g, op) + require_same_quant(g, op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return xs[0].max(axis=op.prepared(ReduceData).axes).reshape(op.output(g).shape)
