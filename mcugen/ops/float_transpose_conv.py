"""TRANSPOSE_CONV in float32: TFLM's reference_ops::TransposeConv.

TFLM scatters: the output is zeroed, then each input value (row, column, channel in order) adds its
products with every filter tap into the outputs they land on; the bias is added after (nothing
without one) and the fused activation clamps. So an output's float sum runs from +0.0 over the input
pixels and channels that reach it in that order. The golden model adds one input value's products
at a time over the whole canvas (numpy rounds each product, then each sum), which keeps the order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, tile, writes
from mcugen.ir.options import TransposeConvOptions
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FloatActivation
from mcugen.ops._quant import weight_problems
from mcugen.ops._window import Pair
from mcugen.ops.transpose_conv import BIAS, FILTER, INPUT, TransposeConv, geometry


@dataclass(frozen=True)
class FloatTransposeConvData:
    stride: Pair
    pad: Pair
    activation: FloatActivation


@register("TRANSPOSE_CONV", dtype="float32")
class FloatTransposeConv(TransposeConv):
    parameters = {0: ("int32",), FILTER: ("float32",), BIAS: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        x, w = op.input(g, INPUT), op.input(g, FILTER)
        problems = weight_problems(g, op, FILTER, BIAS)
        if x.shape[3] != w.shape[3]:
            problems.append(f"input has {x.shape[3]} channels, the filter {w.shape[3]}")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        return FloatTransposeConvData(*geometry(g, op), FloatActivation.of(op))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p, x, w, b = op.prepared(FloatTransposeConvData), xs[INPUT], xs[FILTER], xs[BIAS] if len(xs) > BIAS else None
        n, h, wd, depth = x.shape
        kh, kw = w.shape[1:3]
        (sh, sw), (ph, pw), (oh, ow) = p.stride, p.pad, op.output(g).shape[1:3]
        canvas = np.zeros((n, max((h - 1) * sh + kh, ph + oh), max((wd - 1) * sw + kw, pw + ow), w.shape[0]), F32)
        taps = w.transpose(3, 1, 2, 0)  # [IC, KH, KW, OC]
        with np.errstate(all="ignore"):  # infinities and NaNs go through as in C
            for iy in range(h):
                for ix in range(wd):
                    window = canvas[:, iy * sh:iy * sh + kh, ix * sw:ix * sw + kw]
                    for c in range(depth):
                        window += x[:, iy, ix, c, None, None, None] * taps[c]
            out = canvas[:, ph:ph + oh, pw:pw + ow]
            if b is not None:
                out = out + b.reshape(-1).astype(F32)
        return p.activation.clamp(out.astype(F32))

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(FloatTransposeConvData)
        x, w, b, y = op.input(g, INPUT), op.input(g, FILTER), op.optional_input(g, BIAS), op.output(g)
        params = Struct("mcu_float_conv_params", "params", dict(
            stride=tile(p.stride), padding=tile(p.pad), dilation=tile((1, 1)), depth_multiplier=1,
            activation=p.activation.fields()))
        return Call("mcu_transpose_conv_f32", (
            params, dims("input_dims", x.shape), reads(op, INPUT), dims("filter_dims", w.shape),
            Const("filter", w.values), Const("bias", b.values.reshape(-1)) if b is not None else None,
            dims("output_dims", y.shape), writes(op)),
            note=f"stride {p.stride[0]}x{p.stride[1]}, pad {p.pad[0]},{p.pad[1]}, {op.options_as(TransposeConvOptions).padding}")
