"""TRANSPOSE_CONV, int8 or 16x8: TFLM reference_integer_ops::TransposeConv.

Inputs: the output shape (int32; TFLM never reads it, sizing the output from the output tensor, and
neither does mcugen), the filter [OC, KH, KW, IC] (int8, zero point 0, per
channel), the input [N, H, W, IC] and an optional bias (int32; int64 or int16 for 16x8, and an int32 one
read as int64 as TFLM reads it, with the file's next bytes). Input pixel (iy, ix)
tap (fy, fx) lands on output (iy * stride + fy - pad, ix * stride + fx - pad); the pads are TFLM's
ComputePaddingHeightWidth with the output size in the forward conv's input role. TFLM scatters every
input pixel's products into an output-sized int32 (int8) or int64 (16x8) scratch, then adds the bias
and requantizes per channel. mcugen's kernel gathers instead, each output summing the taps that land
on it: the same sums (int32 addition wraps alike in any order) and no scratch.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, tile, writes
from mcugen.ir.options import TransposeConvOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._conv import wide_shift_problems
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import Rescale, problems_fused_activation, require_bias_length, weight_problems
from mcugen.ops._window import MAX_SPAN, Pair, out_size, pad_before

SHAPE, FILTER, INPUT, BIAS = 0, 1, 2, 3


def geometry(g: Graph, op: Op) -> tuple[Pair, Pair]:
    """(stride, leading pad): TFLM's ComputePaddingHeightWidth with the output in the forward conv's
    input role."""
    w, y = op.input(g, FILTER), op.output(g)
    options = op.options_as(TransposeConvOptions)
    stride, padding = (options.stride_h, options.stride_w), options.padding
    pad_h, pad_w = (pad_before(y.shape[1 + k], w.shape[1 + k], stride[k], 1,
                               out_size(padding, y.shape[1 + k], w.shape[1 + k], stride[k])) for k in range(2))
    return stride, (pad_h, pad_w)


@dataclass(frozen=True)
class TransposeConvData:
    stride: Pair
    pad: Pair
    quant: Rescale
    wide: Wide  # both kernels' accumulator: int32 for int8, int64 for 16x8; the bias as int64


def read_as_int64(bias: np.ndarray, after: bytes) -> np.ndarray:
    """An int32 bias as TFLM's 16x8 kernel reads it: its bytes and as many after it in the file, taken as
    int64 (the XMOS converter writes such files; TFLM runs them, its sums offset by those values)."""
    data = np.ascontiguousarray(bias, dtype="<i4").tobytes()
    return np.frombuffer(data + after[:len(data)], dtype="<i8").astype(np.int64)


@register("TRANSPOSE_CONV")
class TransposeConv(OpDef):
    arity = ((3, 4), (1, 1))
    bias_input = BIAS
    parameters = {SHAPE: ("int32",), FILTER: ("int8",), BIAS: ("int32", "int64", "int16")}
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        """TFLM sizes the output from the output tensor (the shape input is not read at run time):
        its batch must be the input's and its channels the filter's."""
        w, x, y = op.input(g, FILTER), op.input(g, INPUT), op.output(g)
        if len(w.shape) != 4 or len(x.shape) != 4 or len(y.shape) != 4:
            raise ValueError(f"filter {list(w.shape)}, input {list(x.shape)} and output {list(y.shape)} must be 4-D")
        require_bias_length(op.optional_input(g, BIAS), w.shape[0])
        options = op.options_as(TransposeConvOptions)
        for key, value in (("stride_h", options.stride_h), ("stride_w", options.stride_w)):
            if not 1 <= value <= MAX_SPAN:
                raise ValueError(f"{key} {value} (must be in [1, {MAX_SPAN}])")
        if options.padding not in ("SAME", "VALID"):
            raise ValueError(f"padding {options.padding}")
        return (x.shape[0], y.shape[1], y.shape[2], w.shape[0])

    def check(self, g: Graph, op: Op) -> list[str]:
        x, w, b = op.input(g, INPUT), op.input(g, FILTER), op.optional_input(g, BIAS)
        problems = weight_problems(g, op, FILTER, BIAS) + problems_fused_activation(op)
        if x.shape[3] != w.shape[3]:
            problems.append(f"input has {x.shape[3]} channels, the filter {w.shape[3]}")
        if w.quant is not None and np.any(w.q.zero_point != 0):
            problems.append("filter zero point is not 0")
        # TFLM's 16x8 kernel widens an int16 bias to int64 and reads any other as int64 (an int32 one past its end)
        wanted = ("int64", "int16", "int32") if x.dtype == "int16" else ("int32",)
        if b is not None and b.dtype not in wanted:
            problems.append(f"bias '{b.name}' is {b.dtype}; TFLM's {x.dtype} kernel reads {' or '.join(wanted)} there")
        elif b is not None and x.dtype == "int16" and b.dtype == "int32" and b.data is not None \
                and len(b.after) < b.data.nbytes:
            problems.append(f"bias '{b.name}' is int32, which TFLM's 16x8 kernel reads as int64, past the end of "
                            "the file here")
        return problems + wide_shift_problems(x, w, b, op.output(g))

    def prepare(self, g: Graph, op: Op) -> object:
        x, w, y = op.input(g, INPUT), op.input(g, FILTER), op.output(g)
        wide = x.dtype == "int16"
        b = op.optional_input(g, BIAS)
        accumulator = Wide.of(g, op, BIAS, w.shape[0], bits=64 if wide else 32)
        if wide and b is not None and b.dtype == "int32" and b.data is not None:
            accumulator = Wide(64, read_as_int64(b.values, b.after))
        return TransposeConvData(*geometry(g, op), Rescale.of(g, op, x, w, y, w.shape[0], zero_points=not wide),
                                 accumulator)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p, w, y = op.prepared(TransposeConvData), xs[FILTER].astype(np.float64), op.output(g)
        x = xs[INPUT].astype(np.float64) - p.quant.input_zp
        n, h, wd, _ = x.shape
        cout, kh, kw, _ = w.shape
        (sh, sw), (ph, pw), (oh, ow) = p.stride, p.pad, y.shape[1:3]
        canvas = np.zeros((n, max((h - 1) * sh + kh, ph + oh), max((wd - 1) * sw + kw, pw + ow), cout))
        for fy in range(kh):
            for fx in range(kw):
                # float64 is exact: every sum is an integer far below 2^53
                canvas[:, fy:fy + (h - 1) * sh + 1:sh, fx:fx + (wd - 1) * sw + 1:sw] += x @ w[:, fy, fx, :].T
        acc = canvas[:, ph:ph + oh, pw:pw + ow].astype(np.int64)
        out = p.wide.output(acc, p.quant)
        return out if y.dtype == "int16" else out.astype(np.int8)

    def macs(self, g: Graph, op: Op) -> int:
        w, x = op.input(g, FILTER), op.input(g, INPUT)
        return int(np.prod(x.shape)) * int(np.prod(w.shape[:3]))

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(TransposeConvData)
        x, w, y = op.input(g, INPUT), op.input(g, FILTER), op.output(g)
        conv = Struct("mcu_conv_params", "params", dict(
            input_offset=-p.quant.input_zp, output_offset=p.quant.output_zp, stride=tile(p.stride),
            padding=tile(p.pad), dilation=tile((1, 1)), activation=p.quant.activation()))
        return Call("mcu_transpose_conv", (
            conv, p.quant.per_channel(), int(np.iinfo(x.dtype).bits), p.wide.bits, dims("input_dims", x.shape),
            reads(op, INPUT), dims("filter_dims", w.shape), Const("filter", w.values), Const("bias", p.wide.bias),
            dims("output_dims", y.shape), writes(op)),
            note=f"stride {p.stride[0]}x{p.stride[1]}, pad {p.pad[0]},{p.pad[1]}, "
                 f"{op.options_as(TransposeConvOptions).padding}")
