"""CONV_2D: TFLM reference_integer_ops::ConvPerChannel, as im2col + one matmul; int8 or 16x8
(int16 activations, int32 or int64 bias: mcugen.ops._int16)."""
from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, int4_filter, register
from mcugen.ops._conv import (CONV_BLOCK, ConvData, Golden, conv_call, conv_live_call, conv_mve_call, conv_s4_live_call,
                              conv_s4_mve_call, conv_s4_x6_call, conv_s16_mve_call, conv_s16_x6_call, conv_split_call,
                              conv_w16_call, conv_x6_call, fc_params, helium_filter, wide_problems)
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import (Rescale, channel_table, folded_bias, int4_problems, problems_fused_activation,
                               require_bias_length, weight_problems)
from mcugen.ops._window import Taps, declared_hw, geometry, window_shape
from mcugen.ops.fully_connected import interleave4, s4_interleave4, widen4
from mcugen.ops.variants import Lowering, variant

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
        return window_shape(op.attrs, op.input(g, 0).shape, w.shape[1:3], w.shape[0], op.output(g).shape)
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
        window = geometry(op.attrs, x.shape[1:3], w.shape[1:3], declared_hw(y.shape))
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
        return int(np.prod(y.shape)) * int(np.prod(w.shape[1:])) // op.attrs.get("groups", 1)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
        return conv_call(g, op, op.prepared(ConvData), x.shape, w.values, b.values if b is not None else None, y.shape,
                         _note(op, w.shape))


def _note(op: Op, filter_shape: tuple[int, ...]) -> str:
    return op.prepared(ConvData).window.describe(filter_shape[1:3], op.attrs.get("padding", "VALID"))


@variant("CONV_2D", kernel="mcu_fully_connected_s4_x4", needs="dsp")
def _as_fully_connected_s4(g: Graph, op: Op) -> Call | None:
    if not int4_filter(g, op) or int(np.prod(op.input(g, 1).shape[1:])) * 128 * 128 >= 2 ** 31:
        return None
    return _as_fully_connected(g, op, "mcu_fully_connected_s4_x4", "packed_filter", s4_interleave4,
                               "four units at a time, INT4 weights read packed")


@variant("CONV_2D", kernel="mcu_conv2d_live_s4_x6", needs="dsp")
def _conv_live_s4(g: Graph, op: Op) -> Call | None:
    return _int8_conv(conv_s4_live_call)(g, op) if int4_filter(g, op) else None


@variant("CONV_2D", kernel="mcu_conv2d_s4_x6", needs="dsp")
def _conv_s4_x6(g: Graph, op: Op) -> Call | None:
    return _int8_conv(conv_s4_x6_call)(g, op) if int4_filter(g, op) else None


@variant("CONV_2D", kernel="mcu_fully_connected_s4_mve", needs="mve")
def _pointwise_s4_mve(g: Graph, op: Op) -> Call | None:
    return _pointwise_on_helium(g, op, int4=True) if int4_filter(g, op) else None


@variant("CONV_2D", kernel="mcu_fully_connected_s8_mve", needs="mve")
def _pointwise_mve(g: Graph, op: Op) -> Call | None:
    return _pointwise_on_helium(g, op, int4=False)


def _pointwise_on_helium(g: Graph, op: Op, int4: bool) -> Call | None:
    """A 1x1 conv at stride 1 without padding is a FULLY_CONNECTED over its N*H*W positions as rows (`int4`:
    its INT4 weights read packed)."""
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    p = op.prepared(ConvData)
    if x.dtype != "int8" or w.shape[1:3] != (1, 1) or p.window.stride != (1, 1) or p.window.pad != (0, 0):
        return None
    units, depth = w.shape[0], w.shape[3]
    rows = int(np.prod(y.shape[:3]))
    folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
    kernel, filter_arg, how = helium_filter("mcu_fully_connected_s8_mve", w.values.reshape(units, depth), int4)
    return Call(kernel, (
        fc_params(p.quant, 0), p.quant.per_channel(), Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)),
        reads(op), filter_arg, Const("bias_folded", folded),
        Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
        note=_note(op, w.shape) + f", {rows} positions as the rows of a FULLY_CONNECTED on Helium{how}, input offset "
        "folded into the bias")


@variant("CONV_2D", kernel="mcu_conv2d_s4_mve", needs="mve")
def _conv_s4_mve(g: Graph, op: Op) -> Call | None:
    return _int8_conv(conv_s4_mve_call)(g, op) if int4_filter(g, op) else None


@variant("CONV_2D", kernel="mcu_fully_connected_s8_w16", needs="dsp", widens=True)
def _as_fully_connected_w16(g: Graph, op: Op) -> Call | None:
    return _as_fully_connected(g, op, "mcu_fully_connected_s8_w16", "filter_pairs", widen4,
                               "four units at a time, weights widened to int16 pairs")


@variant("CONV_2D", kernel="mcu_fully_connected_s8_x4", needs="dsp")
def _as_fully_connected_x4(g: Graph, op: Op) -> Call | None:
    return _as_fully_connected(g, op, "mcu_fully_connected_s8_x4", "filter", interleave4, "four units at a time")


def _as_fully_connected(g: Graph, op: Op, kernel: str, name: str, layout: Callable[[np.ndarray], np.ndarray],
                        how: str) -> Call | None:
    """A conv that is a FULLY_CONNECTED and has fewer positions than a block of mcu_conv2d_s8_x6, which would
    compute its unused positions: a 1x1 conv at stride 1 without padding (positions as rows), or one whose
    kernel covers its unpadded input (an output of 1x1, the flattened image as the row; streaming models
    are made of these). On an FC kernel whose filter `layout` lays out."""
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
    p = op.prepared(ConvData)
    if x.dtype != "int8" or p.window.pad != (0, 0) or p.window.dilation != (1, 1):
        return None
    pointwise = w.shape[1:3] == (1, 1) and p.window.stride == (1, 1)
    whole = tuple(w.shape[1:3]) == tuple(x.shape[1:3]) and tuple(y.shape[1:3]) == (1, 1)
    rows = int(np.prod(y.shape[:3]))
    if not (pointwise or whole) or rows >= CONV_BLOCK:
        return None
    units, depth = w.shape[0], int(np.prod(w.shape[1:]))
    folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
    return Call(kernel, (
        fc_params(p.quant, 0), channel_table(p.quant, folded, 2 * depth),
        Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)), reads(op),
        Const(name, layout(w.values.reshape(units, depth))),
        Const("bias_folded", np.pad(folded, (0, -units % 4))),
        Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
        note=_note(op, w.shape) + f", {rows} position(s) as the rows of a FULLY_CONNECTED, {how}")


def _int8_conv(call: Callable[..., Call | None]) -> Lowering:
    """A variant lowering for int8 CONV_2D layers: `call` (conv_mve_call, conv_x6_call, ...) on the op's own filter."""
    def lower(g: Graph, op: Op) -> Call | None:
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
        if x.dtype != "int8":
            return None
        return call(op, op.prepared(ConvData), x.shape, w.values, b.values if b is not None else None, y.shape,
                    _note(op, w.shape))
    return lower


variant("CONV_2D", kernel="mcu_conv2d_s8_mve", needs="mve")(_int8_conv(conv_mve_call))
variant("CONV_2D", kernel="mcu_conv2d_live_s8_w16", needs="dsp", widens=True)(_int8_conv(conv_live_call))
variant("CONV_2D", kernel="mcu_conv2d_split_s8_w16", needs="dsp", widens=True)(_int8_conv(conv_split_call))
variant("CONV_2D", kernel="mcu_conv2d_s8_w16", needs="dsp", widens=True)(_int8_conv(conv_w16_call))
variant("CONV_2D", kernel="mcu_conv2d_s8_x6", needs="dsp")(_int8_conv(conv_x6_call))


def _int16_conv(call: Callable[..., Call | None]) -> Lowering:
    """A variant lowering for 16x8 CONV_2D layers: `call` (conv_s16_x6_call, conv_s16_mve_call)."""
    def lower(g: Graph, op: Op) -> Call | None:
        x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(ConvData)
        if p.wide is None:
            return None
        return call(op, p, x.shape, w.values, y.shape, _note(op, w.shape))
    return lower


variant("CONV_2D", kernel="mcu_conv2d_s16_x6", needs="dsp")(_int16_conv(conv_s16_x6_call))
variant("CONV_2D", kernel="mcu_conv2d_s16_mve", needs="mve")(_int16_conv(conv_s16_mve_call))
