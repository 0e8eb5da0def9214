"""CONV_2D: TFLM reference_integer_ops::ConvPerChannel, as im2col + one matmul; int8 or 16x8
(int16 activations, int32 or int64 bias: mcugen.ops._int16)."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call
from mcugen.ir.options import Windowed
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._conv import ConvData, ConvLayer, Golden, conv_call, wide_problems
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import (Rescale, int4_problems, problems_fused_activation,
                               require_bias_length, weight_problems)
from mcugen.ops._window import Taps, declared_hw, geometry, window_shape

@register("CONV_2D")
class Conv2D(OpDef):
    arity = ((2, 3), (1, 1))
    bias_input = 2
    # weights (INT4 with int8 activations), bias
    parameters: Mapping[int, tuple[str, ...]] = {1: ("int8", "int4"), 2: ("int32", "int64")}
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        w = op.input(g, 1)
        if len(w.shape) != 4:
            raise ValueError(f"filter {list(w.shape)} is not 4-D [OC, KH, KW, IC]")
        require_bias_length(op.optional_input(g, 2), w.shape[0])
        return window_shape(op.options_as(Windowed), op.input(g, 0).shape, w.shape[1:3], w.shape[0], op.output(g).shape)
    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op) + problems_fused_activation(op)
        x, w = op.input(g, 0), op.input(g, 1)
        if not problems and x.shape[3] != w.shape[3]:  # what passes/expand_groups.py left grouped
            depth, groups = w.shape[3], x.shape[3] // w.shape[3]
            problems.append(f"a filter of depth {depth} for {x.shape[3]} input channels that another op reads too "
                            "(mcugen widens a grouped filter only where the conv alone reads it)"
                            if x.shape[3] % depth == 0 and w.shape[0] % groups == 0 else
                            f"grouped convolution ({x.shape[3]} input channels, filter depth {depth}, {w.shape[0]} "
                            "output channels): TFLM's kernel reads past its groups unless the filter depth divides "
                            "the input channels and the groups the output channels")
        if w.quant is not None and np.any(w.q.zero_point != 0):
            problems.append("filter zero point is not 0")
        return problems + wide_problems(g, op) + int4_problems(g, op)

    def prepare(self, g: Graph, op: Op) -> object:
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        wide = x.dtype == "int16"  # no zero points: TFLM's int16 kernel takes them as 0
        q = Rescale.of(g, op, x, w, y, w.shape[0], zero_points=not wide)
        window = geometry(op.options_as(Windowed), x.shape[1:3], w.shape[1:3], declared_hw(y.shape), op.facts.folded_pad)
        wide_data = Wide.of(g, op, 2, w.shape[0]) if wide else None
        weights = w.values.reshape(w.shape[0], -1).astype(np.float64).T.copy()
        return ConvData(window, q, wide_data, Golden.of(g, op, weights, Taps.of(window, x.shape[1:3], w.shape[1:3]),
                                                         q, wide_data, w.shape[0]))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w = xs[0], xs[1]
        p = op.prepared(ConvData)
        n = x.shape[0]
        cout, kh, kw, cin = w.shape
        oh, ow = p.window.out_hw
        assert p.golden.taps is not None
        cols = p.golden.taps.gather(x, p.quant.input_zp).reshape(n * oh * ow, kh * kw * cin)
        # float64 matmul is exact here: every partial sum is an integer below 2^53.
        acc = np.dot(cols.astype(np.float64), p.golden.weights)
        return p.output(acc).reshape(n, oh, ow, cout)

    def macs(self, g: Graph, op: Op) -> int:
        w, y = op.input(g, 1), op.output(g)  # a grouped conv's: its filter's own depth, not the widened one
        return int(np.prod(y.shape)) * int(np.prod(w.shape[1:])) // (op.facts.groups or 1)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return conv_call(g, conv_layer(g, op))


def conv_layer(g: Graph, op: Op) -> ConvLayer:
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    return ConvLayer(op, op.prepared(ConvData), x.shape, w.values, b.values if b is not None else None, y.shape,
                     conv_note(op, w.shape))


def conv_note(op: Op, filter_shape: tuple[int, ...]) -> str:
    return op.prepared(ConvData).window.describe(filter_shape[1:3], op.options_as(Windowed).padding)

