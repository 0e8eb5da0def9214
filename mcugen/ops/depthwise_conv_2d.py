"""DEPTHWISE_CONV_2D: TFLM reference_integer_ops::DepthwiseConvPerChannel.

Output channel oc = ic * depth_multiplier + m reads input channel ic only, so
the op is one small matmul per input channel: windows [P, KH*KW] times that
channel's filters [KH*KW, depth_multiplier], batched over channels.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.calls import nibbles
from mcugen.ir.lowering import Call, Const, Scratch, Struct, dims, reads, tile, writes
from mcugen.ops import OpDef, Outputs, Shapes, int4_filter, register
from mcugen.ops._conv import (ConvData, Golden, conv_call, conv_mve_call, conv_s4_mve_call, conv_s4_x6_call,
                              conv_w16_call, conv_x6_call, reference_filter, strips_of, wide_problems)
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import (Rescale, channel_table, fold_input_offset, int4_problems, problems_fused_activation,
                               require_bias_length, weight_problems)
from mcugen.ops._window import Taps, declared_hw, geometry, window_shape
from mcugen.runtime import c_define
from mcugen.ops.variants import Lowering, variant


DW3_CHUNK = c_define("MCU_DW3_CHUNK")  # int32 sums per pass of the x2 kernels, less the pairs they may add
DW3_GROUP_BYTES = c_define("MCU_DW3_GROUP_BYTES")  # what four windows of mcu_depthwise_conv2d_s8_x2 may take


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
        multiplier = op.attrs.get("depth_multiplier", 1)
        if len(x.shape) == 4 and multiplier * x.shape[3] != w.shape[3]:  # TFLM loops over the option
            raise ValueError(f"depth_multiplier {multiplier} with {x.shape[3]} input channels "
                             f"and {w.shape[3]} filter channels")
        require_bias_length(op.optional_input(g, 2), w.shape[3])
        return window_shape(op.attrs, x.shape, w.shape[1:3], w.shape[3], op.output(g).shape)
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
        window = geometry(op.attrs, x.shape[1:3], w.shape[1:3], declared_hw(y.shape))
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
            return conv_call(g, op, p, x.shape, *_as_conv(op, w, b, y))
        shapes = (dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape))
        if p.wide is not None:
            return Call("mcu_depthwise_conv2d_s16", (_dw_params(p), p.quant.per_channel(), *shapes,
                                                     Const("filter", w.values), Const("bias", p.wide.bias),
                                                     dims("output_dims", y.shape), writes(op)),
                        note=_note(op, w) + ", int16 activations")
        kernel, filter_arg = reference_filter(g, op, "mcu_depthwise_conv2d_s8", w.values)
        return Call(kernel, (_dw_params(p), p.quant.per_channel(), *shapes, filter_arg,
                             Const("bias", b.values) if b is not None else None, dims("output_dims", y.shape),
                             writes(op)), note=_note(op, w))

    def lower_fused(self, g: Graph, op: Op, conv: Op, operand: int) -> Call | None:
        """A conv whose output only this layer reads (MobileNet's pointwise layers, whose outputs are the
        largest tensors of its early layers): run a few of the conv's rows at a time into a buffer of the
        rows one depthwise output row reads, on the four-channel kernel."""
        strips = strips_of(g, conv)
        kernels = {"mcu_depthwise_conv2d_s8_x4": "mcu_conv2d_depthwise_s8_x4",
                   "mcu_depthwise_conv2d_s4_x4": "mcu_conv2d_depthwise_s4_x4"}
        # an output row a call: the channel-at-a-time kernel's set-up per channel and row outweighs its taps'
        # gain there (ds_cnn_m's 5-wide rows: 3.80 M -> 4.25 M cycles; VWW's 24-wide even), so a stride-2
        # layer fused takes the four-channel kernel, as it did before the channel-at-a-time one took stride 2
        # (stride-1 layers on that one stay unfused, as they were)
        row_call = op.call
        if row_call is not None and row_call.kernel == "mcu_depthwise_conv2d_s8_x2" and \
                op.prepared(DepthwiseData).window.stride[0] == 2:
            row_call = _depthwise_x4_call(g, op, int4=False, any_width=True)
        if strips is None or operand != 0 or row_call is None or row_call.kernel not in kernels:
            return None
        params, channels, _, _, filter_dims, filter_x4, bias_folded, output_dims, output, _ = row_call.args
        x, w, p = op.input(g, 0), op.input(g, 1), op.prepared(DepthwiseData)
        span, cols = (w.shape[1] - 1) * p.window.dilation[0] + 1, p.window.span((w.shape[1], w.shape[2]))[1]
        held = span * x.shape[2] * x.shape[3]
        return Call(kernels[row_call.kernel], (
            *strips.args, params, channels, filter_dims, filter_x4, bias_folded, output_dims, output, strips.scratch,
            Scratch(held, "int8_t"), Scratch(_window_bytes(span * cols * 4, w, row_call.kernel), "int8_t")),
            note=f"with layer {conv.index} ({conv.opcode}) run into a buffer of the {span} rows each output row "
                 f"reads ({held} bytes); " + row_call.note.replace(", in place", ""),
            extra_kernels=(*strips.kernels, "mcu_conv2d_hold_rows_s8_x6", row_call.kernel, *row_call.extra_kernels))


def _note(op: Op, w: Tensor) -> str:
    p = op.prepared(DepthwiseData)
    return p.window.describe(w.shape[1:3], op.attrs.get("padding", "VALID")) + f", depth multiplier {p.depth_multiplier}"


def _dw_params(p: DepthwiseData) -> Struct:
    q, window = p.quant, p.window
    return Struct("mcu_dw_conv_params", "params", dict(
        input_offset=-q.input_zp, output_offset=q.output_zp, depth_multiplier=p.depth_multiplier,
        stride=tile(window.stride), padding=tile(window.pad), dilation=tile(window.dilation),
        activation=q.activation()))


def _as_conv(op: Op, w: Tensor, b: Tensor | None, y: Tensor) -> tuple[np.ndarray, np.ndarray | None, tuple[int, ...], str]:
    """Every output channel reads the one input channel: the same sums as a CONV_2D whose filter
    [OC, KH, KW, 1] is this one transposed, which runs on the faster kernel. conv_call's arguments
    after the input shape."""
    return (w.values.transpose(3, 1, 2, 0), b.values if b is not None else None, y.shape,
            _note(op, w) + " on one input channel: run as CONV_2D")


@dataclass(frozen=True)
class Grouped:
    """What both four-channel depthwise variants (DSP and Helium) take: the bias with the input offset
    folded in, padded to whole groups of four, and the scratch for one group's padded window."""

    bias_folded: np.ndarray
    window: Scratch


def _grouped(g: Graph, op: Op) -> Grouped | None:
    """None for the layers they don't take: 16x8, one input channel (a conv does it), depth multiplier > 1."""
    x, w, b = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2)
    p = op.prepared(DepthwiseData)
    if x.dtype != "int8" or x.shape[3] == 1 or p.depth_multiplier != 1:
        return None
    rows, cols = p.window.span((w.shape[1], w.shape[2]))
    folded = fold_input_offset(b.values if b is not None else None,
                               w.values.reshape(-1, w.shape[3]).astype(np.int64).sum(axis=0), p.quant.input_zp)
    return Grouped(np.pad(folded, (0, -len(folded) % 4)), Scratch(rows * cols * 4, "int8_t"))


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s4_mve", needs="mve")
def _depthwise_s4_mve(g: Graph, op: Op) -> Call | None:
    return _depthwise_mve_call(g, op, int4=True) if int4_filter(g, op) else None


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s8_mve", needs="mve")
def _depthwise_mve(g: Graph, op: Op) -> Call | None:
    return _depthwise_mve_call(g, op, int4=False)


def _depthwise_mve_call(g: Graph, op: Op, int4: bool) -> Call | None:
    """Four channels per vector on Helium, int8 weights or (`int4`) INT4 ones read packed, a group's
    unpacked into the scratch past the window before its outputs."""
    grouped = _grouped(g, op)
    if grouped is None:
        return None
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    kernel, filter_arg, window, how = ("mcu_depthwise_conv2d_s8_mve", Const("filter_x4", group4(w.values)),
                                       grouped.window, "")
    if int4:
        kernel, filter_arg, how = ("mcu_depthwise_conv2d_s4_mve", Const("packed_filter", nibbles(group4(w.values))),
                                   ", INT4 weights read packed")
        window = Scratch(_window_bytes(window.bytes, w, kernel), "int8_t")
    return Call(kernel, (
        _dw_params(p), p.quant.per_channel(), dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape),
        filter_arg, Const("bias_folded", grouped.bias_folded), dims("output_dims", y.shape), writes(op), window),
        note=_note(op, w) + ", Helium: four channels per vector from a padded window, four outputs sharing each "
        "weight load" + how + ", input offset folded into the bias, in place", in_place=0,
        extra_kernels=("mcu_unpack_s4",) if int4 else ())


def _one_channel(call: Callable[..., Call | None]) -> Lowering:
    """A variant lowering for int8 depthwise layers on one input channel: `call` (a conv variant's call
    builder) on the transposed filter (_as_conv)."""
    def lower(g: Graph, op: Op) -> Call | None:
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
        if x.dtype != "int8" or x.shape[3] != 1:
            return None
        return call(op, op.prepared(DepthwiseData), x.shape, *_as_conv(op, w, b, y))
    return lower


@variant("DEPTHWISE_CONV_2D", kernel="mcu_conv2d_s4_mve", needs="mve")
def _one_channel_s4_mve(g: Graph, op: Op) -> Call | None:
    return _one_channel(conv_s4_mve_call)(g, op) if int4_filter(g, op) else None


@variant("DEPTHWISE_CONV_2D", kernel="mcu_conv2d_s4_x6", needs="dsp")
def _one_channel_s4(g: Graph, op: Op) -> Call | None:
    return _one_channel(conv_s4_x6_call)(g, op) if int4_filter(g, op) else None


variant("DEPTHWISE_CONV_2D", kernel="mcu_conv2d_s8_mve", needs="mve")(_one_channel(conv_mve_call))
variant("DEPTHWISE_CONV_2D", kernel="mcu_conv2d_s8_w16", needs="dsp", widens=True)(_one_channel(conv_w16_call))
variant("DEPTHWISE_CONV_2D", kernel="mcu_conv2d_s8_x6", needs="dsp")(_one_channel(conv_x6_call))


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s4_x4", needs="dsp")
def _depthwise_s4_x4(g: Graph, op: Op) -> Call | None:
    return _depthwise_x4_call(g, op, int4=True) if int4_filter(g, op) else None


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s8_x4", needs="dsp")
def _depthwise_x4(g: Graph, op: Op) -> Call | None:
    return _depthwise_x4_call(g, op, int4=False)


# the four-channel kernels on INT4 weights: the bytes of an unpacked weight (int16 on the DSP, int8 on Helium)
_UNPACKED_BYTES = {"mcu_depthwise_conv2d_s4_x4": 2, "mcu_depthwise_conv2d_s4_mve": 1}


def _window_bytes(window: int, w: Tensor, kernel: str) -> int:
    """A four-channel kernel's scratch: its window, then for INT4 weights, from a word, a group's unpacked."""
    if kernel not in _UNPACKED_BYTES:
        return window
    return -(-window // 4) * 4 + w.shape[1] * w.shape[2] * 4 * _UNPACKED_BYTES[kernel]


def _depthwise_x4_call(g: Graph, op: Op, int4: bool, any_width: bool = False) -> Call | None:
    """Four channels at a time on the DSP, the weights widened to int16 or (`int4`) INT4 read packed, a
    group's unpacked into the scratch past the window before its outputs; `any_width`: also where the
    channel-at-a-time kernel would take the layer (a fused layer's rows)."""
    grouped = _grouped(g, op)
    if grouped is None or (not any_width and _x2_takes(g, op) and max(op.output(g).shape[1:3]) >= WIDE):
        return None  # the channel-at-a-time kernel below is faster there
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    taps = w.shape[1] * w.shape[2]
    window = grouped.window
    kernel, filter_arg, how = "mcu_depthwise_conv2d_s8_x4", Const("filter_x4", widen4(w.values)), ""
    if int4:
        kernel, filter_arg, how = ("mcu_depthwise_conv2d_s4_x4", Const("packed_filter", nibbles(widen4(w.values))),
                                   ", INT4 weights read packed")
        window = Scratch(_window_bytes(window.bytes, w, kernel), "int8_t")
    return Call(kernel, (
        _dw_params(p), channel_table(p.quant, grouped.bias_folded[:w.shape[3]], taps, groups_of=4),
        dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape), filter_arg,
        Const("bias_folded", grouped.bias_folded), dims("output_dims", y.shape), writes(op), window),
        note=_note(op, w) + ", four channels at a time from a padded window" + how +
        ", input offset folded into the bias, in place", in_place=0,
        extra_kernels=("mcu_unpack_s4_s16",) if int4 else ())


# Output width (or height, when taller: the kernel then runs down the columns) from which the channel-at-
# a-time 3x3 kernel beats the four-channel one on the M4 (estimated cycles per layer, VWW and KWS: 6 x 6 3%
# faster, 25 x 5 30%, 12 to 48 wide more; 3 x 3 38% slower: its per-row and per-channel work is paid for
# by long rows); --tune measures both below it.
WIDE = 6


def _three_by_three(w: Tensor, p: DepthwiseData, strides: tuple[tuple[int, int], ...] = ((1, 1),)) -> bool:
    return w.shape[1:3] == (3, 3) and tuple(p.window.stride) in strides and p.window.dilation == (1, 1)


def _x2_takes(g: Graph, op: Op) -> bool:
    """The 3x3 layers mcu_depthwise_conv2d_s8_x2 runs: stride 1 (mcu_dw3_sums_x2) or 2 (mcu_dw3_sums_stride2_x2);
    INT4 weights at stride 2 stay packed on the four-channel kernel (its pairs would be int16)."""
    strides = ((1, 1),) if int4_filter(g, op) else ((1, 1), (2, 2))
    return _three_by_three(op.input(g, 1), op.prepared(DepthwiseData), strides)


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s16_x2", needs="dsp")
def _depthwise_s16_x2(g: Graph, op: Op) -> Call | None:
    """16x8, 3x3, stride 1, no dilation, depth multiplier 1: a channel at a time (the reference kernel
    is the only other one for 16x8, so every width takes it)."""
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    if p.wide is None or x.shape[3] == 1 or p.depth_multiplier != 1 or not _three_by_three(w, p):
        return None
    return Call("mcu_depthwise_conv2d_s16_x2", (
        _dw_params(p), p.quant.per_channel(), dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape),
        Const("filter_pairs", pairs3x3(w.values, _transposed(p))), Const("bias", p.wide.bias),
        dims("output_dims", y.shape), writes(op), _x2_scratch(p, x.shape[3], four=False)),
        note=_note(op, w) + ", int16 activations, a channel at a time from its window, two outputs per load, in place",
        in_place=0)


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s16_mve", needs="mve")
def _depthwise_s16_mve(g: Graph, op: Op) -> Call | None:
    """16x8, depth multiplier 1, sums within int32: four channels per vector. Not the 3x3 stride-1 layers:
    mcu_depthwise_conv2d_s16_x2 runs those in less on the M55 (ds_cnn_s_int16: 497 K instructions a layer
    against 815 K; its requantization constants are loaded once a channel, here once an output)."""
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    if (p.wide is None or x.shape[3] == 1 or p.depth_multiplier != 1 or _three_by_three(w, p)
            or w.shape[1] * w.shape[2] * 32768 * 128 >= 2 ** 31):
        return None
    return Call("mcu_depthwise_conv2d_s16_mve", (
        _dw_params(p), p.quant.per_channel(), dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape),
        Const("filter", w.values), Const("bias", p.wide.bias), dims("output_dims", y.shape), writes(op)),
        note=_note(op, w) + ", int16 activations, Helium: four channels per vector")


def _x2_scratch(p: DepthwiseData, channels: int, four: bool) -> Scratch:
    """The channel-at-a-time kernels' scratch: the window (window rows x stride int16, then two words of
    fill), or four where `four` (the int8 kernel fills four channels' at once where they fit
    MCU_DW3_GROUP_BYTES), then the sums of a pass. Mirrors runtime_c/include/mcu_nn_dw3_dsp.h
    (mcu_dw3_layout_of, mcu_dw3_window_int16, mcu_dw3_windows): the kernel lays out its scratch by the
    same rule."""
    (out_h, out_w), (pad_h, pad_w) = p.window.out_hw, p.window.pad
    rows, length, pad = (out_w, out_h, pad_h) if _transposed(p) else (out_h, out_w, pad_w)
    if p.window.stride[0] == 1:
        stride = length + 1 if pad == 1 and length % 2 else (length + 3) & ~1
        window_rows, sums_stride = rows + 2, stride
    else:
        sums_stride = (length + 1) & ~1
        stride, window_rows = 2 * sums_stride + 2, 2 * rows + 1
    window = window_rows * stride + 4
    windows = 4 if four and channels >= 4 and 4 * 2 * window <= DW3_GROUP_BYTES else 1
    passes = min(max(DW3_CHUNK // sums_stride, 1), rows)  # rows of sums a pass
    return Scratch(windows * window * 2 + (passes * sums_stride + 8) * 4, "int16_t")


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s8_x2", needs="dsp")
def _depthwise_x2(g: Graph, op: Op) -> Call | None:
    """3x3, stride 1 or 2, no dilation: a channel at a time, two outputs per load (stride 1) or three
    loads (stride 2) of each window row."""
    grouped = _grouped(g, op)
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    if grouped is None or not _x2_takes(g, op):
        return None
    folded = grouped.bias_folded[:w.shape[3]]
    return Call("mcu_depthwise_conv2d_s8_x2", (
        _dw_params(p), channel_table(p.quant, folded, 9), dims("input_dims", x.shape), reads(op),
        dims("filter_dims", w.shape), Const("filter_pairs", pairs3x3(w.values, _transposed(p))),
        Const("bias_folded", folded), dims("output_dims", y.shape), writes(op), _x2_scratch(p, x.shape[3], four=True)),
        note=_note(op, w) + ", a channel at a time from its widened window (four channels' filled at once where "
        "they fit), two outputs per load, input offset folded into the bias, in place", in_place=0)


def group4(w: np.ndarray) -> np.ndarray:
    """Filter [1, KH, KW, C] as int8 [ceil(C/4)][KH*KW][4], zero past C: mcu_depthwise_conv2d_s8_mve's."""
    taps = w.reshape(-1, w.shape[3])
    padded = np.zeros((taps.shape[0], (w.shape[3] + 3) // 4 * 4), dtype=np.int8)
    padded[:, :w.shape[3]] = taps
    return padded.reshape(taps.shape[0], -1, 4).transpose(1, 0, 2).copy()


def widen4(w: np.ndarray) -> np.ndarray:
    """Filter [1, KH, KW, C] as int16 [ceil(C/4)][KH*KW][4], a tap's four channels in the order
    (c, c+2, c+1, c+3) that SXTB16 unpacks an input word in, zero past C: mcu_depthwise_conv2d_s8_x4's."""
    taps = w.reshape(-1, w.shape[3]).astype(np.int16)
    padded = np.zeros((taps.shape[0], (w.shape[3] + 3) // 4 * 4), dtype=np.int16)
    padded[:, :w.shape[3]] = taps
    groups = padded.reshape(taps.shape[0], -1, 4)[:, :, [0, 2, 1, 3]]
    return groups.transpose(1, 0, 2).copy()


def _transposed(p: DepthwiseData) -> bool:
    """The channel-at-a-time kernels run their windows down the columns of an output taller than wide
    (mcu_dw3_layout_of: fewer and longer rows)."""
    out_h, out_w = p.window.out_hw
    return out_h > out_w


def pairs3x3(w: np.ndarray, transposed: bool) -> np.ndarray:
    """Filter [1, 3, 3, C] as int16 [C][3][4]: each kernel row (w0, w1, w1, w2), the two pairs
    mcu_depthwise_conv2d_s8_x2 multiplies words of adjacent inputs by; each kernel column where
    the kernel runs down the columns (`transposed`)."""
    rows = w[0].astype(np.int16).transpose(2, 1, 0) if transposed else w[0].astype(np.int16).transpose(2, 0, 1)
    return np.stack([rows[:, :, 0], rows[:, :, 1], rows[:, :, 1], rows[:, :, 2]], axis=2).copy()
