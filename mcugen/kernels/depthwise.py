"""The depthwise kernels: four channels at a time from a padded window (mcu_depthwise_conv2d_*_x4 on the DSP,
_mve on Helium), a channel at a time on 3x3 windows (_x2), and a layer on one input channel as the CONV_2D
it equals (kernels/conv.py). DEPTHWISE_CONV_2D's table."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.calls import nibbles
from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Scratch, Struct, dims, reads, writes
from mcugen.kernels.conv import conditions, conv_s4_x6_call, on, x6_row
from mcugen.kernels.conv_mve import conv_mve_call, conv_s4_mve_call
from mcugen.kernels.layouts import group4, pairs3x3, taps3x3, widen4_taps
from mcugen.kernels.variant import Variant, int4_weights, int8, int16, sums_fit, when
from mcugen.ops._quant import channel_table, fold_input_offset
from mcugen.ops.depthwise_conv_2d import DepthwiseData, dw_note, dw_params, one_channel_layer
from mcugen.runtime import c_define

DW3_CHUNK = c_define("MCU_DW3_CHUNK")  # int32 sums per pass of the x2 kernels, less the pairs they may add
# what four windows of mcu_depthwise_conv2d_s8_x2 may take of its scratch as the layer is lowered
# (passes/grow_scratch.py gives it four past this where the planned arena has the bytes free at its step)
DW3_GROUP_BYTES = 8192

# Output width (or height, when taller: the kernel then runs down the columns) from which the channel-at-
# a-time 3x3 kernel beats the four-channel one on the M4 (estimated cycles per layer, VWW and KWS: 6 x 6 3%
# faster, 25 x 5 30%, 12 to 48 wide more; 3 x 3 38% slower: its per-row and per-channel work is paid for
# by long rows); --tune measures both below it.
WIDE = 6

# the four-channel kernels on INT4 weights: the bytes of an unpacked weight (int16 on the DSP, int8 on Helium)
_UNPACKED_BYTES = {"mcu_depthwise_conv2d_s4_x4": 2, "mcu_depthwise_conv2d_s4_mve": 1}


@dataclass(frozen=True)
class Grouped:
    """What both four-channel kernels (DSP and Helium) take: the bias with the input offset folded in,
    padded to whole groups of four, and the scratch for one group's padded window."""

    bias_folded: np.ndarray
    window: Scratch

    @classmethod
    def of(cls, g: Graph, op: Op) -> Grouped:
        w, b, p = op.input(g, 1), op.optional_input(g, 2), op.prepared(DepthwiseData)
        rows, cols = p.window.span((w.shape[1], w.shape[2]))
        folded = fold_input_offset(b.values if b is not None else None,
                                   w.values.reshape(-1, w.shape[3]).astype(np.int64).sum(axis=0), p.quant.input_zp)
        return cls(np.pad(folded, (0, -len(folded) % 4)), Scratch(rows * cols * 4, "int8_t"))


def window_bytes(window: int, w: Tensor, kernel: str) -> int:
    """A four-channel kernel's scratch: its window, then for INT4 weights, from a word, a group's unpacked."""
    if kernel not in _UNPACKED_BYTES:
        return window
    return -(-window // 4) * 4 + w.shape[1] * w.shape[2] * 4 * _UNPACKED_BYTES[kernel]


def depthwise_mve_call(g: Graph, op: Op, int4: bool) -> Call:
    """Four channels per vector on Helium, int8 weights or (`int4`) INT4 ones read packed, a group's
    unpacked into the scratch past the window before its outputs."""
    grouped = Grouped.of(g, op)
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    kernel, filter_arg, window, how = ("mcu_depthwise_conv2d_s8_mve", Const("filter_x4", group4(w.values)),
                                       grouped.window, "")
    if int4:
        kernel, filter_arg, how = ("mcu_depthwise_conv2d_s4_mve", Const("packed_filter", nibbles(group4(w.values))),
                                   ", INT4 weights read packed")
        window = Scratch(window_bytes(window.bytes, w, kernel), "int8_t")
    return Call(kernel, (
        dw_params(p), p.quant.per_channel(), dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape),
        filter_arg, Const("bias_folded", grouped.bias_folded), dims("output_dims", y.shape), writes(op), window),
        note=dw_note(op, w) + ", Helium: four channels per vector from a padded window, four outputs sharing each "
        "weight load" + how + ", input offset folded into the bias, in place", in_place=0,
        extra_kernels=("mcu_unpack_s4",) if int4 else ())


@dataclass(frozen=True)
class X4Parts:
    """What mcu_depthwise_conv2d_{s8,s4}_x4 takes besides the input and output, which a fused call
    (mcu_conv2d_depthwise_{s8,s4}_x4, kernels/strips.py) passes too: weights widened to int16 or INT4
    read packed (a group's unpacked into the scratch past the window before its outputs)."""

    kernel: str
    dw: Struct
    channels: Const
    filter_dims: Struct
    filter: Const
    bias_folded: Const
    window: Scratch
    note: str  # what the call does, said of the layer
    extra_kernels: tuple[str, ...]  # what it calls besides

    @classmethod
    def of(cls, g: Graph, op: Op, int4: bool) -> X4Parts:
        grouped = Grouped.of(g, op)
        w, p = op.input(g, 1), op.prepared(DepthwiseData)
        channels = channel_table(p.quant, grouped.bias_folded[:w.shape[3]], w.shape[1] * w.shape[2], groups_of=4)
        if int4:
            kernel = "mcu_depthwise_conv2d_s4_x4"
            filter_arg, how = Const("packed_filter", nibbles(widen4_taps(w.values))), ", INT4 weights read packed"
            window = Scratch(window_bytes(grouped.window.bytes, w, kernel), "int8_t")
        else:
            kernel, filter_arg, how = "mcu_depthwise_conv2d_s8_x4", Const("filter_x4", widen4_taps(w.values)), ""
            window = grouped.window
        note = dw_note(op, w) + ", four channels at a time from a padded window" + how + \
            ", input offset folded into the bias"
        return cls(kernel, dw_params(p), channels, dims("filter_dims", w.shape), filter_arg,
                   Const("bias_folded", grouped.bias_folded), window, note, ("mcu_unpack_s4_s16",) if int4 else ())


def depthwise_x4_call(g: Graph, op: Op, int4: bool) -> Call:
    """Four channels at a time on the DSP (X4Parts)."""
    parts = X4Parts.of(g, op, int4)
    x, y = op.input(g, 0), op.output(g)
    return Call(parts.kernel, (
        parts.dw, parts.channels, dims("input_dims", x.shape), reads(op), parts.filter_dims, parts.filter,
        parts.bias_folded, dims("output_dims", y.shape), writes(op), parts.window),
        note=parts.note + ", in place", in_place=0, extra_kernels=parts.extra_kernels)


def transposed(p: DepthwiseData) -> bool:
    """The channel-at-a-time kernels run their windows down the columns of an output taller than wide
    (mcu_dw3_layout_of: fewer and longer rows)."""
    out_h, out_w = p.window.out_hw
    return out_h > out_w


def x2_windows(p: DepthwiseData, x_shape: tuple[int, ...], limit: int | None = DW3_GROUP_BYTES) -> int:
    """The windows mcu_depthwise_conv2d_s8_x2 fills at once (x_shape: the input's): four (four channels' from
    one pass over the image) where there are four channels and their windows fit `limit` bytes (None: any),
    else one."""
    return 4 if x_shape[3] >= 4 and (limit is None or 4 * 2 * _x2_layout(p, x_shape)[0] <= limit) else 1


def _x2_layout(p: DepthwiseData, x_shape: tuple[int, ...]) -> tuple[int, int, int]:
    """(a channel's window in int16: window rows x stride, then two words of fill; sums_stride; output rows)
    of mcu_dw3_layout_of."""
    (out_h, out_w), (pad_h, pad_w) = p.window.out_hw, p.window.pad
    rows, length, pad, pixels = (out_w, out_h, pad_h, x_shape[1]) if transposed(p) else (out_h, out_w, pad_w,
                                                                                         x_shape[2])
    if p.window.stride[0] == 1:
        # a row's last pad is the next one's first where there is one after its pixels (pixels + pad < length + 2)
        stride = length + 1 if pad == 1 and length % 2 and pixels + pad < length + 2 else (length + 3) & ~1
        window_rows, sums_stride = rows + 2, stride
    else:
        sums_stride = (length + 1) & ~1
        stride, window_rows = 2 * sums_stride + 2, 2 * rows + 1
    return window_rows * stride + 4, sums_stride, rows


def x2_scratch(p: DepthwiseData, x_shape: tuple[int, ...], windows: int) -> Scratch:
    """The channel-at-a-time kernels' scratch: `windows` windows, then the int32 sums of a pass. Mirrors
    runtime_c/include/mcu_nn_dw3_dsp.h (mcu_dw3_layout_of, mcu_dw3_window_int16): the kernel lays out its
    scratch by the same rule."""
    window, sums_stride, rows = _x2_layout(p, x_shape)
    passes = min(max(DW3_CHUNK // sums_stride, 1), rows)  # rows of sums a pass
    return Scratch(windows * window * 2 + (passes * sums_stride + 8) * 4, "int16_t")


def depthwise_x2_call(g: Graph, op: Op, windows: int | None = None) -> Call:
    """A channel at a time, two outputs per load (stride 1) or three loads (stride 2) of each window row;
    `windows` at once (unless told, x2_windows's choice, or one in a patch stage's layer)."""
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    folded = Grouped.of(g, op).bias_folded[:w.shape[3]]
    if windows is None:  # a patch's layer (patches are run for the arena) one: grow_scratch widens it in room
        windows = 1 if op.part else x2_windows(p, x.shape)
    return Call("mcu_depthwise_conv2d_s8_x2", (
        dw_params(p), channel_table(p.quant, folded, 9), dims("input_dims", x.shape), reads(op),
        dims("filter_dims", w.shape), Const("filter", taps3x3(w.values, transposed(p))),
        Const("bias_folded", folded), dims("output_dims", y.shape), writes(op), x2_scratch(p, x.shape, windows),
        windows),
        note=x2_note(op, w, windows), in_place=0)


def x2_note(op: Op, w: Tensor, windows: int) -> str:
    """mcu_depthwise_conv2d_s8_x2's layer comment, which says how many windows it fills at once."""
    filled = "four channels' filled at once" if windows == 4 else "one filled at a time"
    return (dw_note(op, w) + f", a channel at a time from its widened window ({filled}), two outputs per load, int8 "
            "weights paired once a channel, input offset folded into the bias, in place")


def depthwise_s16_x2_call(g: Graph, op: Op) -> Call:
    """16x8 a channel at a time (the reference kernel is the only other one for 16x8, so every width takes it)."""
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    assert p.wide is not None
    return Call("mcu_depthwise_conv2d_s16_x2", (
        dw_params(p), p.quant.per_channel(), dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape),
        Const("filter_pairs", pairs3x3(w.values, transposed(p))), Const("bias", p.wide.bias),
        dims("output_dims", y.shape), writes(op), x2_scratch(p, x.shape, 1)),
        note=dw_note(op, w) + ", int16 activations, a channel at a time from its window, two outputs per load, "
        "in place",
        in_place=0)


def depthwise_s16_mve_call(g: Graph, op: Op) -> Call:
    """16x8, four channels per vector on Helium."""
    x, w, y, p = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(DepthwiseData)
    assert p.wide is not None
    return Call("mcu_depthwise_conv2d_s16_mve", (
        dw_params(p), p.quant.per_channel(), dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape),
        Const("filter", w.values), Const("bias", p.wide.bias), dims("output_dims", y.shape), writes(op)),
        note=dw_note(op, w) + ", int16 activations, Helium: four channels per vector")


@when
def one_channel(g: Graph, op: Op) -> bool:
    """One input channel: a CONV_2D of the transposed filter."""
    return op.input(g, 0).shape[3] == 1


@when
def grouped(g: Graph, op: Op) -> bool:
    """Several input channels and a depth multiplier of 1: the four-channel and channel-at-a-time kernels'."""
    return op.input(g, 0).shape[3] != 1 and op.prepared(DepthwiseData).depth_multiplier == 1


@when
def three_by_three(g: Graph, op: Op) -> bool:
    """A 3x3 window at stride 1, undilated."""
    w, window = op.input(g, 1), op.prepared(DepthwiseData).window
    return w.shape[1:3] == (3, 3) and tuple(window.stride) == (1, 1) and window.dilation == (1, 1)


@when
def x2_window(g: Graph, op: Op) -> bool:
    """The 3x3 layers mcu_depthwise_conv2d_s8_x2 runs: stride 1 (mcu_dw3_sums_x2) or 2 (mcu_dw3_sums_stride2_x2);
    INT4 weights at stride 2 stay packed on the four-channel kernel (its pairs would be int16)."""
    w, window = op.input(g, 1), op.prepared(DepthwiseData).window
    strides = ((1, 1),) if int4_weights(g, op) else ((1, 1), (2, 2))
    return w.shape[1:3] == (3, 3) and tuple(window.stride) in strides and window.dilation == (1, 1)


@when
def dw3_rows_fit(g: Graph, op: Op) -> bool:
    """Whether mcu_dw3_layout_of's window rows hold the layer's padding (the channel-at-a-time 3x3 kernels'): at
    most one pad before a row."""
    window = op.prepared(DepthwiseData).window
    return window.pad[0 if window.out_hw[0] > window.out_hw[1] else 1] <= 1  # rows run down the longer side


@when
def wide_output(g: Graph, op: Op) -> bool:
    """An output at least WIDE wide (or tall), where the channel-at-a-time kernel beats the four-channel one."""
    return max(op.output(g).shape[1:3]) >= WIDE


def _window_taps(g: Graph, op: Op) -> int:
    return op.input(g, 1).shape[1] * op.input(g, 1).shape[2]


_, _, s4_x6_fits, _, twins_hold = conditions(one_channel_layer)
s4 = int8 & int4_weights

TABLES = {"DEPTHWISE_CONV_2D": (
    Variant("mcu_depthwise_conv2d_s4_mve", "mve", s4 & grouped, lambda g, op: depthwise_mve_call(g, op, int4=True)),
    Variant("mcu_depthwise_conv2d_s8_mve", "mve", int8 & grouped, lambda g, op: depthwise_mve_call(g, op, int4=False)),
    Variant("mcu_conv2d_s4_mve", "mve", s4 & one_channel, on(conv_s4_mve_call, one_channel_layer)),
    Variant("mcu_conv2d_s8_mve", "mve", int8 & one_channel, on(conv_mve_call, one_channel_layer)),
    # mcu_depthwise_conv2d_s16_x2 runs the 3x3 stride-1 layers in less on the M55 (ds_cnn_s_int16: 497 K
    # instructions a layer against 815 K; its requantization constants are loaded once a channel, here an output)
    Variant("mcu_depthwise_conv2d_s16_mve", "mve",
            int16 & grouped & ~three_by_three & sums_fit(_window_taps, 32768 * 128),
            depthwise_s16_mve_call),
    Variant("mcu_conv2d_s4_x6", "dsp", s4 & one_channel & s4_x6_fits, on(conv_s4_x6_call, one_channel_layer)),
    Variant("mcu_conv2d_s8_w16", "dsp", int8 & one_channel, x6_row("s8_w16", layer_of=one_channel_layer), widens=True),
    Variant("mcu_conv2d_s8_twin", "dsp", int8 & one_channel & twins_hold,
            x6_row("s8_twin", layer_of=one_channel_layer)),
    Variant("mcu_conv2d_s8_x6", "dsp", int8 & one_channel, x6_row(layer_of=one_channel_layer)),
    Variant("mcu_depthwise_conv2d_s4_x4", "dsp", s4 & grouped & ~(x2_window & dw3_rows_fit & wide_output),
            lambda g, op: depthwise_x4_call(g, op, int4=True)),
    Variant("mcu_depthwise_conv2d_s8_x4", "dsp", int8 & grouped & ~(x2_window & dw3_rows_fit & wide_output),
            lambda g, op: depthwise_x4_call(g, op, int4=False)),
    Variant("mcu_depthwise_conv2d_s16_x2", "dsp", int16 & grouped & three_by_three & dw3_rows_fit,
            depthwise_s16_x2_call),
    Variant("mcu_depthwise_conv2d_s8_x2", "dsp", int8 & grouped & x2_window & dw3_rows_fit, depthwise_x2_call),
)}
