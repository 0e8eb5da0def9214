"""CONV_2D and DEPTHWISE_CONV_2D in float32: TFLM's reference_ops::Conv and DepthwiseConv.

Each output is a float32 sum from 0.0f of its in-image taps' products in filter row, filter column,
input channel order, plus the bias, then clamped. The golden model keeps that order: products are
rounded to float32 one by one and summed with np.add.accumulate (strictly left to right), a tap at a
time behind the running totals; taps in the padding add +0.0, which leaves a sum unchanged (a running
float sum from +0.0 is never -0.0), and their products are masked so an infinite weight makes no NaN.
Grouped convolutions run as they are (no widening: that would add products TFLM does not).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, tile, writes
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FloatActivation
from mcugen.ops._quant import weight_problems
from mcugen.ops._window import Taps, Window, declared_hw, geometry
from mcugen.ops.conv_2d import Conv2D
from mcugen.ops.depthwise_conv_2d import DepthwiseConv2D, omitted_bias_problems


@dataclass(frozen=True)
class FloatConvData:
    window: Window
    activation: FloatActivation
    depth_multiplier: int
    taps: Taps = field(compare=False, repr=False)  # the golden model's gather


def _prepare(g: Graph, op: Op, kernel_hw: tuple[int, ...], depth_multiplier: int) -> FloatConvData:
    x = op.input(g, 0)
    window = geometry(op.attrs, x.shape[1:3], kernel_hw, declared_hw(op.output(g).shape))
    return FloatConvData(window, FloatActivation.of(op), depth_multiplier, Taps.of(window, x.shape[1:3], kernel_hw))


def _finish(p: FloatConvData, total: np.ndarray, bias: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    """The bias added (TFLM adds 0.0f without one) and the fused activation's clamp."""
    total = total + (bias.reshape(-1).astype(F32) if bias is not None else F32(0.0))
    return p.activation.clamp(total.astype(F32)).reshape(shape)


def _call(kernel: str, g: Graph, op: Op, p: FloatConvData, filter_shape: tuple[int, ...]) -> Call:
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    params = Struct("mcu_float_conv_params", "params", dict(
        stride=tile(p.window.stride), padding=tile(p.window.pad), dilation=tile(p.window.dilation),
        depth_multiplier=p.depth_multiplier, activation=p.activation.fields()))
    return Call(kernel, (params, dims("input_dims", x.shape), reads(op, 0), dims("filter_dims", filter_shape),
                         Const("filter", w.values), Const("bias", b.values.reshape(-1)) if b is not None else None,
                         dims("output_dims", y.shape), writes(op)),
                note=p.window.describe(w.shape[1:3], op.attrs.get("padding", "VALID")))


@register("CONV_2D", dtype="float32")
class FloatConv2D(Conv2D):
    parameters = {1: ("float32",), 2: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op)
        x, w = op.input(g, 0), op.input(g, 1)
        if not problems and (x.shape[3] % w.shape[3] or w.shape[0] % (x.shape[3] // w.shape[3])):
            problems.append(f"grouped convolution ({x.shape[3]} input channels, filter depth {w.shape[3]}, "
                            f"{w.shape[0]} output channels): TFLM's kernel reads past its groups unless the filter "
                            "depth divides the input channels and the groups the output channels")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        return _prepare(g, op, op.input(g, 1).shape[1:3], 1)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w, b = xs[0], xs[1], xs[2] if len(xs) > 2 else None
        p = op.prepared(FloatConvData)
        cout, kh, kw, depth = w.shape
        per_group = cout // (x.shape[3] // depth)
        cols = p.taps.gather(x, 0)  # [N, P, T, C]
        valid = p.taps.pixel != x.shape[1] * x.shape[2]  # [P, T]
        channels = (np.arange(cout)[:, None] // per_group) * depth + np.arange(depth)[None, :]  # [OC, depth]
        taps = w.reshape(cout, kh * kw, depth)
        total = np.zeros((x.shape[0], cols.shape[1], cout), F32)
        for t in range(kh * kw):
            products = cols[:, :, t, channels] * taps[:, t, :]  # [N, P, OC, depth], each rounded
            if not valid[:, t].all():
                products = np.where(valid[None, :, t, None, None], products, F32(0.0))
            total = np.add.accumulate(np.concatenate([total[..., None], products], axis=-1), axis=-1)[..., -1]
        return _finish(p, total, b, op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return _call("mcu_conv2d_f32", g, op, op.prepared(FloatConvData), op.input(g, 1).shape)


@register("DEPTHWISE_CONV_2D", dtype="float32")
class FloatDepthwiseConv2D(DepthwiseConv2D):
    parameters = {1: ("float32",), 2: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        return weight_problems(g, op) + omitted_bias_problems(g, op)

    def prepare(self, g: Graph, op: Op) -> object:
        x, w = op.input(g, 0), op.input(g, 1)
        return _prepare(g, op, w.shape[1:3], w.shape[3] // x.shape[3])

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w, b = xs[0], xs[1], xs[2] if len(xs) > 2 else None
        p = op.prepared(FloatConvData)
        _, kh, kw, cout = w.shape
        cols = p.taps.gather(x, 0)[..., np.arange(cout) // p.depth_multiplier]  # [N, P, T, OC]
        valid = p.taps.pixel != x.shape[1] * x.shape[2]
        taps = w.reshape(kh * kw, cout)
        total = np.zeros((x.shape[0], cols.shape[1], cout), F32)
        for t in range(kh * kw):
            products = cols[:, :, t, :] * taps[t]
            if not valid[:, t].all():
                products = np.where(valid[None, :, t, None], products, F32(0.0))
            total = total + products
        return _finish(p, total, b, op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return _call("mcu_depthwise_conv2d_f32", g, op, op.prepared(FloatConvData), op.input(g, 1).shape)
