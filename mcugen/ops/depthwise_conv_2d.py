"""DEPTHWISE_CONV_2D: TFLM reference_integer_ops::DepthwiseConvPerChannel.

Output channel oc = ic * depth_multiplier + m reads input channel ic only, so
the op is one small matmul per input channel: windows [P, KH*KW] times that
channel's filters [KH*KW, depth_multiplier], batched over channels.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, tile, writes
from mcugen.ir.options import DepthwiseConv2DOptions, Windowed
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._conv import ConvData, ConvLayer, Golden, conv_call, reference_filter, wide_problems
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import Rescale, int4_problems, problems_fused_activation, require_bias_length, weight_problems
from mcugen.ops._window import Taps, declared_hw, geometry, window_shape


@dataclass(frozen=True)
class DepthwiseData(ConvData):
    depth_multiplier: int


def omitted_bias_problems(g: Graph, op: Op) -> list[str]:
    if len(op.inputs) == 3 and op.optional_input(g, 2) is None:
        return ["input 2 (the bias) is omitted among three inputs: TFLM's kernel frees the absent "
                "bias and crashes (a model without a bias gives two inputs)"]
    return []


@register("DEPTHWISE_CONV_2D")
class DepthwiseConv2D(OpDef):
    arity = ((2, 3), (1, 1))
    bias_input = 2
    # weights (INT4 with int8 activations), bias
    parameters: Mapping[int, tuple[str, ...]] = {1: ("int8", "int4"), 2: ("int32", "int64")}
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        w = op.input(g, 1)
        if len(w.shape) != 4:
            raise ValueError(f"filter {list(w.shape)} is not 4-D [1, KH, KW, OC]")
        x = op.input(g, 0)
        multiplier = op.options_as(DepthwiseConv2DOptions).depth_multiplier
        if len(x.shape) == 4 and multiplier * x.shape[3] != w.shape[3]:  # TFLM loops over the option
            raise ValueError(f"depth_multiplier {multiplier} with {x.shape[3]} input channels "
                             f"and {w.shape[3]} filter channels")
        require_bias_length(op.optional_input(g, 2), w.shape[3])
        return window_shape(op.options_as(Windowed), x.shape, w.shape[1:3], w.shape[3], op.output(g).shape)
    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op) + problems_fused_activation(op)
        x, w = op.input(g, 0), op.input(g, 1)
        if w.shape[3] % x.shape[3]:
            problems.append(f"{w.shape[3]} output channels is not a multiple of {x.shape[3]} input channels")
        if w.quant is not None and np.any(w.q.zero_point != 0):
            problems.append("filter zero point is not 0")
        b = op.optional_input(g, 2)
        problems += omitted_bias_problems(g, op)
        if x.dtype == "int16" and b is not None and b.dtype != "int64":
            problems.append(f"{b.dtype} bias with int16 activations: TFLM's int16 kernel reads int64 there")
        return problems + wide_problems(g, op) + int4_problems(g, op)

    def prepare(self, g: Graph, op: Op) -> object:
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        wide = x.dtype == "int16"  # no zero points: TFLM's int16 kernel takes them as 0
        q = Rescale.of(g, op, x, w, y, w.shape[3], zero_points=not wide)
        window = geometry(op.options_as(Windowed), x.shape[1:3], w.shape[1:3], declared_hw(y.shape), op.facts.folded_pad)
        depth_multiplier = w.shape[3] // x.shape[3]
        _, kh, kw, _ = w.shape
        # the golden model's batched matmul operand: [IC, KH*KW, depth multiplier]
        per_channel = w.values.reshape(kh * kw, x.shape[3], depth_multiplier).transpose(1, 0, 2).astype(np.float64)
        wide_data = Wide.of(g, op, 2, w.shape[3], bits=64) if wide else None
        golden = Golden.of(g, op, per_channel.copy(), Taps.of(window, x.shape[1:3], w.shape[1:3]), q, wide_data,
                           w.shape[3], epilogue_weights=w.values.reshape(kh * kw, -1).astype(np.float64))
        return DepthwiseData(window, q, wide_data, golden, depth_multiplier)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w = xs[0], xs[1]
        p = op.prepared(DepthwiseData)
        n, _, _, cin = x.shape
        _, kh, kw, cout = w.shape
        oh, ow = p.window.out_hw
        assert p.golden.taps is not None
        cols = p.golden.taps.gather(x, p.quant.input_zp).reshape(n * oh * ow, kh * kw, cin)
        cols = cols.transpose(2, 0, 1).astype(np.float64)
        # exact in float64, as for CONV_2D
        return p.output(np.matmul(cols, p.golden.weights).transpose(1, 0, 2).reshape(n, oh, ow, cout))

    def macs(self, g: Graph, op: Op) -> int:
        w, y = op.input(g, 1), op.output(g)
        return int(np.prod(y.shape)) * w.shape[1] * w.shape[2]

    def lower(self, g: Graph, op: Op) -> Call | None:
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
        p = op.prepared(DepthwiseData)
        if x.shape[3] == 1:
            return conv_call(g, one_channel_layer(g, op))
        shapes = (dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape))
        if p.wide is not None:
            return Call("mcu_depthwise_conv2d_s16", (dw_params(p), p.quant.per_channel(), *shapes,
                                                     Const("filter", w.values), Const("bias", p.wide.bias),
                                                     dims("output_dims", y.shape), writes(op)),
                        note=dw_note(op, w) + ", int16 activations")
        kernel, filter_arg = reference_filter(g, op, "mcu_depthwise_conv2d_s8", w.values)
        return Call(kernel, (dw_params(p), p.quant.per_channel(), *shapes, filter_arg,
                             Const("bias", b.values) if b is not None else None, dims("output_dims", y.shape),
                             writes(op)), note=dw_note(op, w))


def dw_note(op: Op, w: Tensor) -> str:
    p = op.prepared(DepthwiseData)
    return p.window.describe(w.shape[1:3], op.options_as(Windowed).padding) + f", depth multiplier {p.depth_multiplier}"


def dw_params(p: DepthwiseData) -> Struct:
    q, window = p.quant, p.window
    return Struct("mcu_dw_conv_params", "params", dict(
        input_offset=-q.input_zp, output_offset=q.output_zp, depth_multiplier=p.depth_multiplier,
        stride=tile(window.stride), padding=tile(window.pad), dilation=tile(window.dilation),
        activation=q.activation()))


def one_channel_layer(g: Graph, op: Op) -> ConvLayer:
    """Every output channel reads the one input channel: the same sums as a CONV_2D whose filter
    [OC, KH, KW, 1] is this one transposed, which runs on the faster kernel."""
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    return ConvLayer(op, op.prepared(DepthwiseData), x.shape, w.values.transpose(3, 1, 2, 0),
                     b.values if b is not None else None, y.shape,
                     dw_note(op, w) + " on one input channel: run as CONV_2D")
