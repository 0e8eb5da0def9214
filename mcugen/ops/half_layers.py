"""FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D computed in fp16: the layers a precision plan made fp16, on
a core with half-precision arithmetic (passes/compute_fp16.py). Input, weights, bias and output are float16.

No TFLite kernel computes in fp16, so no oracle judges these layers: mcugen states the order of operations
here, the golden model computes it in numpy float16 and every C kernel (the reference one in portable C,
Helium's eight lanes) follows it bit for bit. Every product and every sum is rounded to float16 on its own
(to nearest even; numpy rounds a float16 product or sum computed in float32 once more, which for a product
is exact and for a sum gives the correctly rounded result: 24 bits hold twice 11 plus 2), never fused.

- FULLY_CONNECTED and CONV_2D, each output: eight lane sums from +0, lane l taking input channel c + l of each
  run of eight channels c = 0, 8, ... of each in-image tap in filter row, column order (a fully connected
  layer is one tap of `depth` channels); lanes past the channel count add nothing. Then the lanes in pairs,
  ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)), then the bias (none: nothing added).
- DEPTHWISE_CONV_2D, each output: one sum from +0 over the in-image taps in filter row, column order, then the
  bias.
- The fused activation's clamp as float32 TFLM does it (std::min(std::max(x, lo), hi): a NaN stays NaN), its
  result a float16 again (the bounds are float16 values; an unclamped layer's +-FLT_MAX round back to the
  infinities they clamped).
Taps in the padding are skipped. Helium computes NaNs as the default NaN, x86 as its own: NaNs compare equal.
"""
from __future__ import annotations

import math

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, writes
from mcugen.ir.options import Windowed
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FloatActivation
from mcugen.ops.float_conv import FloatConv2D, FloatConvData, FloatDepthwiseConv2D, _params
from mcugen.ops.float_fully_connected import FloatFullyConnected

F16 = np.float16
LANES = 8  # Helium's float16 lanes
HALF_OPS = ("FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D")  # the ops this module computes in fp16
SUFFIX = "/fp16"  # a float16 twin's name: its float32 tensor's and this (passes/compute_fp16.py)


def lane_sums(cols: np.ndarray, valid: np.ndarray, w: np.ndarray) -> np.ndarray:
    """[N, P, OC]: the eight lane sums of cols [N, P, T, C] by w [OC, T, C], tap t counted where valid [P, T],
    folded in pairs."""
    n, p, taps, depth = cols.shape
    acc = np.zeros((n, p, w.shape[0], LANES), F16)
    with np.errstate(all="ignore"):
        for t in range(taps):
            for c in range(0, depth, LANES):
                k = min(LANES, depth - c)
                products = cols[:, :, t, None, c:c + k] * w[None, None, :, t, c:c + k]  # [N, P, OC, k]
                total = acc[..., :k] + products
                acc[..., :k] = np.where(valid[None, :, t, None, None], total, acc[..., :k])
        pairs = acc[..., 0::2] + acc[..., 1::2]  # l0 + l1, l2 + l3, l4 + l5, l6 + l7
        return (pairs[..., 0] + pairs[..., 1]) + (pairs[..., 2] + pairs[..., 3])


def refused(g: Graph, op: Op) -> list[str]:
    """A file's float16 activations: no TFLite kernel computes them (fp16 layers are a precision plan's)."""
    return [f"tensor '{op.input(g, 0).name}' is a float16 activation: TFLite computes float16 weights in float32, "
            "and mcugen computes fp16 only where a precision plan (mcugen quantize --plan) asks for it"]


def finish(activation: FloatActivation, total: np.ndarray, bias: np.ndarray | None,
           shape: tuple[int, ...]) -> np.ndarray:
    with np.errstate(all="ignore"):
        if bias is not None:
            total = total + bias.reshape(-1).astype(F16)
        return activation.clamp(total.astype(F32)).astype(F16).reshape(shape)  # +-FLT_MAX back to infinities


@register("FULLY_CONNECTED", dtype="float16")
class HalfFullyConnected(FloatFullyConnected):
    def check(self, g: Graph, op: Op) -> list[str]:
        return refused(g, op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        w, b = xs[1], xs[2] if len(xs) > 2 else None
        x = xs[0].reshape(-1, 1, 1, w.shape[1])
        total = lane_sums(x, np.ones((1, 1), bool), w[:, None, :])
        return finish(op.prepared(FloatActivation), total, b, op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x, w, b = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2)
        units, depth = w.shape
        batches = math.prod(x.shape) // depth
        return Call("mcu_fully_connected_f16", (
            Struct("mcu_float_activation", "activation", op.prepared(FloatActivation).fields()), batches, depth, units,
            reads(op, 0), Const("filter", w.values), Const("bias", b.values.reshape(-1)) if b is not None else None,
            writes(op)), note=f"{batches} x {depth} -> {units} units in fp16")


def _call(kernel: str, g: Graph, op: Op) -> Call:
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    p = op.prepared(FloatConvData)
    return Call(kernel, (_params(p), dims("input_dims", x.shape), reads(op, 0), dims("filter_dims", w.shape),
                         Const("filter", w.values), Const("bias", b.values.reshape(-1)) if b is not None else None,
                         dims("output_dims", y.shape), writes(op)),
                note=p.window.describe(w.shape[1:3], op.options_as(Windowed).padding) + " in fp16")


@register("CONV_2D", dtype="float16")
class HalfConv2D(FloatConv2D):
    def check(self, g: Graph, op: Op) -> list[str]:
        return refused(g, op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w, b = xs[0], xs[1], xs[2] if len(xs) > 2 else None
        p = op.prepared(FloatConvData)
        cout, kh, kw, depth = w.shape
        valid = p.taps.pixel != x.shape[1] * x.shape[2]  # [P, T]
        total = lane_sums(p.taps.gather(x, 0), valid, w.reshape(cout, kh * kw, depth))
        return finish(p.activation, total, b, op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return _call("mcu_conv2d_f16", g, op)


@register("DEPTHWISE_CONV_2D", dtype="float16")
class HalfDepthwiseConv2D(FloatDepthwiseConv2D):
    def check(self, g: Graph, op: Op) -> list[str]:
        return refused(g, op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w, b = xs[0], xs[1], xs[2] if len(xs) > 2 else None
        p = op.prepared(FloatConvData)
        _, kh, kw, cout = w.shape
        cols = p.taps.gather(x, 0)[..., np.arange(cout) // p.depth_multiplier]  # [N, P, T, OC]
        valid = p.taps.pixel != x.shape[1] * x.shape[2]
        taps = w.reshape(kh * kw, cout)
        total = np.zeros((x.shape[0], cols.shape[1], cout), F16)
        with np.errstate(all="ignore"):
            for t in range(kh * kw):
                total = np.where(valid[None, :, t, None], total + cols[:, :, t, :] * taps[t], total)
        return finish(p.activation, total, b, op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return _call("mcu_depthwise_conv2d_f16", g, op)
