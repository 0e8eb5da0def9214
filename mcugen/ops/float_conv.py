"""CONV_2D and DEPTHWISE_CONV_2D in float32: TFLM's reference_ops::Conv and DepthwiseConv.

Each output is a float32 sum from 0.0f of its in-image taps' products in filter row, filter column,
input channel order, plus the bias, then clamped. The golden model keeps that order: products are
rounded to float32 one by one and summed with np.add.accumulate (strictly left to right), a tap at a
time behind the running totals; taps in the padding add +0.0, which leaves a sum unchanged (a running
float sum from +0.0 is never -0.0), and their products are masked so an infinite weight makes no NaN.
Grouped convolutions run as they are (no widening: that would add products TFLM does not).

A CONV_2D with int8 weights (a dynamic-range model) is LiteRT's hybrid conv (ops/_hybrid.py): each batch
image quantized whole, asymmetrically with per-channel weights (EvalHybridPerChannel: the reference
kernel, float(acc) x channel scale x factor, then the bias) and symmetrically with one weight scale
(EvalHybrid: float(acc) x (factor x scale), then the bias); taps in the padding add nothing; then the
clamp. LiteRT's hybrid conv sets the dilation to 1 whatever the op says: a dilated one is refused.
A DEPTHWISE_CONV_2D with int8 weights quantizes each image asymmetrically, per-channel weights only, and
scales float(acc) x (channel scale x factor) (reference DepthwiseConvHybridPerChannel).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Scratch, Struct, dims, reads, tile, writes
from mcugen.ir.options import Windowed
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FloatActivation
from mcugen.ops._hybrid import HybridQuant, centred_images, int32_sums
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
    hybrid: HybridQuant | None = field(default=None, compare=False, repr=False)  # int8 weights


def _prepare(g: Graph, op: Op, kernel_hw: tuple[int, ...], depth_multiplier: int) -> FloatConvData:
    x, w = op.input(g, 0), op.input(g, 1)
    window = geometry(op.options_as(Windowed), x.shape[1:3], kernel_hw, declared_hw(op.output(g).shape), op.facts.folded_pad)
    depthwise = op.opcode == "DEPTHWISE_CONV_2D"
    weights = np.moveaxis(w.values, 3, 0) if depthwise else w.values
    hybrid = (HybridQuant.of(op, w.q.scale, weights, asymmetric=depthwise or w.q.scale.size > 1)
              if w.dtype == "int8" else None)
    return FloatConvData(window, FloatActivation.of(op), depth_multiplier, Taps.of(window, x.shape[1:3], kernel_hw),
                         hybrid)


def _finish(p: FloatConvData, total: np.ndarray, bias: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    """The bias added (TFLM adds 0.0f without one) and the fused activation's clamp."""
    total = total + (bias.reshape(-1).astype(F32) if bias is not None else F32(0.0))
    return p.activation.clamp(total.astype(F32)).reshape(shape)


def _params(p: FloatConvData) -> Struct:
    return Struct("mcu_float_conv_params", "params", dict(
        stride=tile(p.window.stride), padding=tile(p.window.pad), dilation=tile(p.window.dilation),
        depth_multiplier=p.depth_multiplier, activation=p.activation.fields()))


def _call(kernel: str, g: Graph, op: Op, p: FloatConvData, filter_shape: tuple[int, ...]) -> Call:
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    params = _params(p)
    return Call(kernel, (params, dims("input_dims", x.shape), reads(op, 0), dims("filter_dims", filter_shape),
                         Const("filter", w.values), Const("bias", b.values.reshape(-1)) if b is not None else None,
                         dims("output_dims", y.shape), writes(op)),
                note=p.window.describe(w.shape[1:3], op.options_as(Windowed).padding))


@register("CONV_2D", dtype="float32")
class FloatConv2D(Conv2D):
    parameters = {1: ("float32", "int8"), 2: ("float32",)}  # int8: dynamic-range weights

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op)
        x, w = op.input(g, 0), op.input(g, 1)
        if w.dtype == "int8":
            return problems + _hybrid_problems(op, x, w)
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
        if p.hybrid is not None:
            return _finish(p, _hybrid_conv(p.hybrid, p.taps, x, w), b, op.output(g).shape)
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
        p = op.prepared(FloatConvData)
        if p.hybrid is not None:
            return _hybrid_call(g, op, p, p.hybrid)
        return _call("mcu_conv2d_f32", g, op, p, op.input(g, 1).shape)


def _hybrid_problems(op: Op, x: Tensor, w: Tensor) -> list[str]:
    problems = []
    if w.quant is None:
        problems.append(f"int8 weights '{w.name}' carry no scale")
    if op.options_as(Windowed).dilation != (1, 1):
        problems.append("a dilated dynamic-range CONV_2D: LiteRT's hybrid kernel (its oracle) computes it undilated")
    if w.shape[3] != x.shape[3]:
        problems.append("a grouped dynamic-range CONV_2D: LiteRT's hybrid kernel takes the whole input depth")
    return problems


def _hybrid_conv(q: HybridQuant, taps: Taps, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """[N, P, OC] float32 before the bias: the quantized image's int32 sums over the in-image taps, scaled."""
    centred, factors = centred_images(x, q.asymmetric)
    cols = taps.gather(centred, 0)  # [N, P, T, C], the padding 0: skipped taps add nothing
    acc = int32_sums(np.einsum("nptc,otc->npo", cols, w.reshape(w.shape[0], -1, w.shape[3]).astype(np.int64)))
    with np.errstate(all="ignore"):
        if q.scales.size > 1:
            return (acc * q.scales[None, None, :]) * factors[:, None, None]
        return acc * (factors * q.scales[0])[:, None, None]


def _hybrid_call(g: Graph, op: Op, p: FloatConvData, q: HybridQuant) -> Call:
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    params = Struct("mcu_hybrid_conv_params", "params", dict(
        stride=tile(p.window.stride), padding=tile(p.window.pad), activation=p.activation.fields(),
        asymmetric=int(q.asymmetric), filter_scale=float(q.scales[0])))
    return Call("mcu_conv2d_hybrid_s8", (
        params, dims("input_dims", x.shape), reads(op, 0), dims("filter_dims", w.shape), Const("filter", w.values),
        Const("scales", q.scales) if q.scales.size > 1 else None,
        Const("bias", b.values.reshape(-1)) if b is not None else None, dims("output_dims", y.shape),
        Scratch(int(np.prod(x.shape[1:])), "int8_t"), writes(op)), extra_kernels=("mcu_hybrid_quantize_row",),
        note=p.window.describe(w.shape[1:3], op.options_as(Windowed).padding) + ", int8 weights, each image "
        f"quantized {'asymmetrically' if q.asymmetric else 'symmetrically'}")


@register("DEPTHWISE_CONV_2D", dtype="float32")
class FloatDepthwiseConv2D(DepthwiseConv2D):
    parameters = {1: ("float32", "int8"), 2: ("float32",)}  # int8: named in check

    def check(self, g: Graph, op: Op) -> list[str]:
        w = op.input(g, 1)
        if w.dtype == "int8" and (w.quant is None or w.q.scale.size != w.shape[3]):
            return [f"dynamic-range DEPTHWISE_CONV_2D weights '{w.name}' without a scale per channel: LiteRT's hybrid "
                    "kernel reads one per channel"]
        return weight_problems(g, op) + omitted_bias_problems(g, op)

    def prepare(self, g: Graph, op: Op) -> object:
        x, w = op.input(g, 0), op.input(g, 1)
        return _prepare(g, op, w.shape[1:3], w.shape[3] // x.shape[3])

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w, b = xs[0], xs[1], xs[2] if len(xs) > 2 else None
        p = op.prepared(FloatConvData)
        _, kh, kw, cout = w.shape
        if p.hybrid is not None:
            centred, factors = centred_images(x, True)
            cols = p.taps.gather(centred, 0)[..., np.arange(cout) // p.depth_multiplier]  # the padding adds 0
            acc = int32_sums((cols * w.reshape(kh * kw, cout).astype(np.int64)[None, None]).sum(axis=2))
            with np.errstate(all="ignore"):
                total = acc * (p.hybrid.scales[None, None, :] * factors[:, None, None])
            return _finish(p, total, b, op.output(g).shape)
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
        p = op.prepared(FloatConvData)
        if p.hybrid is None:
            return _call("mcu_depthwise_conv2d_f32", g, op, p, op.input(g, 1).shape)
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
        return Call("mcu_depthwise_conv2d_hybrid_s8", (
            _params(p), dims("input_dims", x.shape), reads(op, 0), dims("filter_dims", w.shape),
            Const("filter", w.values), Const("scales", p.hybrid.scales),
            Const("bias", b.values.reshape(-1)) if b is not None else None, dims("output_dims", y.shape),
            Scratch(int(np.prod(x.shape[1:])), "int8_t"), writes(op)), extra_kernels=("mcu_hybrid_quantize_row",),
            note=p.window.describe(w.shape[1:3], op.options_as(Windowed).padding) + ", int8 weights, each image "
            "quantized asymmetrically")
