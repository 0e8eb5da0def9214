"""The conv kernels: six output positions at a time on the DSP extension (mcu_conv2d_*_x6, _twin, _w16: weights
int8, twinned int8, INT4 packed, or widened to int16 pairs), patches through Helium (mcu_conv2d_*_mve), and a conv
that is a FULLY_CONNECTED on the FC kernels. CONV_2D's table; a depthwise layer on one input channel
runs these too (kernels/depthwise.py)."""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, Slice, Struct, dims, reads, writes
from mcugen.kernels.conv_mve import conv_mve_call, conv_s4_mve_call, conv_s16_mve_call, pointwise_as_rows
from mcugen.kernels.layouts import (interleave4, s4_interleave4, s4_pairs, s4_quads_filter, s4_quads_fit, twin4,
                                    twin_filter, twin_fits, twin_pairs_fit, w16_filter, widen4, x6_filter)
from mcugen.kernels.variant import Build, Variant, When, int4_weights, int8, int16, sums_fit, when
from mcugen.ops._conv import ConvData, ConvLayer, conv_params, fc_params
from mcugen.ops._quant import Rescale, channel_table, folded_bias, pruned_channels, settle_dead_channels
from mcugen.ops._window import Window
from mcugen.ops.conv_2d import conv_layer, conv_note
from mcugen.runtime import c_define

CONV_BLOCK = c_define("MCU_CONV_BLOCK")
HALF_BLOCK = c_define("MCU_HALF_BLOCK")


def conv_scratch_bytes(taps: int) -> int:
    """The optimized kernel's scratch: CONV_BLOCK widened patches of K8 int16, and one K8-byte patch."""
    k8 = (taps + 7) // 8 * 8
    return CONV_BLOCK * k8 * 2 + k8


def pointwise_in_place(window: Window, filter_shape: tuple[int, ...]) -> bool:
    """The optimized kernel widens a block's patches into scratch before writing the block's outputs;
    for a 1x1 kernel without padding, output position q's bytes end where input position q's end
    (or before, when out_c <= in_c), and input position q is at or after q: nothing unread is overwritten."""
    out_c, kh, kw, in_c = filter_shape
    return (kh, kw) == (1, 1) and tuple(window.pad) == (0, 0) and out_c <= in_c


@dataclass(frozen=True)
class X6Args:
    """The arguments the six-positions family (mcu_conv2d_{s8_x6, s8_twin, s4_x6, s8_w16, and their live and
    split forms}) starts with, in its prototypes' order; a fused kernel starts with them too (kernels/strips.py)."""

    conv: Struct
    channels: Const
    input_dims: Struct
    input: Slice
    filter_dims: Struct
    filter: Const
    bias: Const

    def values(self) -> tuple[object, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))

    def named(self, layer: str) -> X6Args:
        """The same, their constants named after `layer` (a fused call passes a conv's under the conv's name)."""
        return dataclasses.replace(
            self, conv=dataclasses.replace(self.conv, layer=layer),
            channels=dataclasses.replace(self.channels, layer=layer),
            input_dims=dataclasses.replace(self.input_dims, layer=layer),
            filter_dims=dataclasses.replace(self.filter_dims, layer=layer),
            filter=dataclasses.replace(self.filter, layer=layer), bias=dataclasses.replace(self.bias, layer=layer))


def _x6_args(layer: ConvLayer, channels: Const, filter_arg: Const, bias_arg: Const,
             filter_shape: tuple[int, ...] | None = None) -> X6Args:
    p = layer.p
    # the channel pairs' loop reads every pair's weights, constants and bias once a half-block of positions
    passes = -(-math.prod(layer.y_shape[:3]) // HALF_BLOCK)
    channels, filter_arg, bias_arg = (dataclasses.replace(c, passes=passes) for c in (channels, filter_arg, bias_arg))
    return X6Args(conv_params(p.window, p.quant), channels, dims("input_dims", layer.x_shape), reads(layer.op),
                  dims("filter_dims", filter_shape or layer.filter.shape), filter_arg, bias_arg)


def _x6_family(layer: ConvLayer, kernel: str, args: X6Args, how: str, live: tuple[Const, ...] = ()) -> Call:
    """A call of the six-positions family: `args`, the live kernels' two tables, the output and scratch."""
    return Call(kernel, (*args.values(), *live, dims("output_dims", layer.y_shape), writes(layer.op),
                         Scratch(conv_scratch_bytes(layer.taps))),
                note=layer.note + ", six positions at a time" + how,
                in_place=0 if pointwise_in_place(layer.p.window, layer.filter.shape) else None)


def x6_args(layer: ConvLayer, split: bool = False, twin: bool = False) -> X6Args:
    """mcu_conv2d_s8_x6's: a channel table and the filter laid out for it (x6_filter); `split`:
    mcu_conv2d_split_s8_x6's, its taps in patch_order; `twin`: mcu_conv2d_s8_twin's (twin_filter)."""
    quant, bias = settle_dead_channels(layer.p.quant, layer.filter, layer.bias)
    filter_arg = (Const("filter_twins", twin_filter(layer.filter, split=split)) if twin
                  else Const("filter", x6_filter(layer.filter, split=split)))
    return _x6_args(layer, channel_table(quant, bias, layer.taps), filter_arg,
                    Const("bias", folded_bias(layer.filter, bias, quant.input_zp)))


def twin_args(layer: ConvLayer, split: bool = False) -> X6Args:
    """mcu_conv2d_s8_twin's: x6_args with the filter as twin words (twin_filter)."""
    return x6_args(layer, split, twin=True)


def w16_args(layer: ConvLayer, split: bool = False) -> X6Args:
    """mcu_conv2d_s8_w16's: the filter widened (w16_constants); `split`: mcu_conv2d_split_s8_w16's, the widened
    filter's taps in patch_order."""
    quant, bias = settle_dead_channels(layer.p.quant, layer.filter, layer.bias)
    return _x6_args(layer, *w16_constants(quant, layer.filter, bias, layer.taps, split))


def s4_x6_args(layer: ConvLayer, quads: bool = False) -> X6Args:
    """mcu_conv2d_s4_x6's: its weights packed (s4_x6_filter); `quads`: mcu_conv2d_s4_quads' (s4_quads_filter, the
    bias doubled: every channel is fast, its folded bias under 2^30)."""
    quant, bias = settle_dead_channels(layer.p.quant, layer.filter, layer.bias)
    packed = s4_quads_filter(layer.filter) if quads else s4_x6_filter(layer.filter)
    folded = folded_bias(layer.filter, bias, layer.p.quant.input_zp)
    return _x6_args(layer, channel_table(quant, bias, layer.taps), Const("packed_filter", packed),
                    Const("bias", (folded.astype(np.int64) * (2 if quads else 1)).astype(np.int32)))


def s4_quads_args(layer: ConvLayer) -> X6Args:
    return s4_x6_args(layer, quads=True)


TWIN_HOW = "a channel pair's int8 weights in a halfword a tap"
# the weights' forms of the dense and split convs: their args and the note's words
_FORMS: dict[str, tuple[Callable[[ConvLayer, bool], X6Args], str]] = {
    "s8_x6": (x6_args, ""), "s8_w16": (w16_args, ", weights widened to int16 pairs"),
    "s8_twin": (twin_args, ", " + TWIN_HOW)}


def conv_x6_call(layer: ConvLayer, weights: str = "s8_x6", split: bool = False) -> Call:
    """mcu_conv2d_<weights> (s8_x6, s8_twin or s8_w16), or with `split` mcu_conv2d_split_<weights>."""
    if split:
        layer = dataclasses.replace(layer, note=layer.note + SPLIT_NOTE)
    make, how = _FORMS[weights]
    return _x6_family(layer, f"mcu_conv2d_{'split_' if split else ''}{weights}", make(layer, split), how)


SPLIT_NOTE = ", kernel rows split into whole words and tails"


def w16_constants(quant: Rescale, filter_data: np.ndarray, bias: np.ndarray | None, taps: int,
                  split: bool = False) -> tuple[Const, Const, Const]:
    """mcu_conv2d_s8_w16's channel table, widened filter (w16_filter) and folded bias, with every fast
    channel's weights and bias doubled (marked fast = 2): its sums then come out as the 2 x accumulator the
    fast requantization's high multiply takes, and the channel pairs' loop skips the shift that doubled
    each (one instruction of five an output). A fast channel's accumulator stays below 2^30, so the doubled
    one fits. Not where every weight lies in [-8, 7] (an INT4 filter's): doubled, they would lose the
    packing passes/pack_int4.py gives them."""
    table = channel_table(quant, bias, taps)
    folded = folded_bias(filter_data, bias, quant.input_zp)
    fast = table.data["fast"] == 1
    if -8 <= filter_data.min() <= filter_data.max() <= 7:
        fast = np.zeros_like(fast)
    factor = np.where(fast, 2, 1)
    marked = table.data.copy()
    marked["fast"] = np.where(fast, 2, marked["fast"])
    doubled = filter_data.astype(np.int16) * factor.reshape(-1, *[1] * (filter_data.ndim - 1)).astype(np.int16)
    return (dataclasses.replace(table, data=marked), Const("filter_pairs", w16_filter(doubled, split=split)),
            Const("bias", (folded.astype(np.int64) * factor).astype(np.int32)))


def s4_x6_filter(filter_data: np.ndarray) -> np.ndarray:
    """mcu_conv2d_s4_x6's packed filter: s4_pairs of x6_filter's order, an odd last channel paired with zeros."""
    even = np.concatenate([filter_data, np.zeros((filter_data.shape[0] % 2, *filter_data.shape[1:]), np.int8)])
    return s4_pairs(x6_filter(even))


def conv_s4_x6_call(layer: ConvLayer, quads: bool = False) -> Call:
    if quads:
        return _x6_family(layer, "mcu_conv2d_s4_quads", s4_quads_args(layer), ", INT4 weights four channels a word")
    return _x6_family(layer, "mcu_conv2d_s4_x6", s4_x6_args(layer), ", INT4 weights read packed")


def conv_live_call(layer: ConvLayer, weights: str = "s8_w16") -> Call:
    """mcu_conv2d_live_<weights> (s8_w16, s8_twin, s8_x6 or s4_x6) on the channels whose weights are not all zero, where
    some are (pruned: MLPerf's MobileNet has 4-234 of 64-256 in its last nine pointwise layers); the others'
    one value each is written from a row of them."""
    p = layer.p
    dead, values = pruned_channels(p.quant, layer.filter, layer.bias)
    live = np.flatnonzero(~dead)
    quant = dataclasses.replace(p.quant, multiplier=p.quant.multiplier[live], shift=p.quant.shift[live])
    kept = layer.filter[live]
    kept_bias = layer.bias[live] if layer.bias is not None else np.zeros(len(live), np.int32)
    kernel = f"mcu_conv2d_live_{weights}"
    if weights == "s8_w16":
        how = "weights widened to int16 pairs"
        channels, filter_arg, bias_arg = w16_constants(quant, kept, kept_bias, layer.taps)
    else:
        how, filter_arg = {"s4_x6": ("INT4 weights read packed", Const("packed_filter", s4_x6_filter(kept))),
                           "s8_twin": (TWIN_HOW, Const("filter_twins", twin_filter(kept))),
                           "s8_x6": ("int8 weights", Const("filter", x6_filter(kept)))}[weights]
        channels = channel_table(quant, kept_bias, layer.taps)
        bias_arg = Const("bias", folded_bias(kept, kept_bias, quant.input_zp))
    tables = (Const("live", live.astype(np.int16)), Const("pruned", np.where(dead, values, 0).astype(np.int8)))
    return _x6_family(layer, kernel, _x6_args(layer, channels, filter_arg, bias_arg, kept.shape),
                      f", {how}, {len(live)} of {len(dead)} channels computed (the others' weights are all zero)",
                      tables)


def conv_s16_x6_call(layer: ConvLayer) -> Call:
    """A 16x8 layer on mcu_conv2d_s16_x6 (DSP)."""
    p = layer.p
    assert p.wide is not None
    k8 = -(-layer.taps // 8) * 8
    return Call("mcu_conv2d_s16_x6", (
        conv_params(p.window, p.quant), p.quant.per_channel(), p.wide.bits, dims("input_dims", layer.x_shape),
        reads(layer.op), dims("filter_dims", layer.filter.shape),
        Const("filter", x6_filter(layer.filter, int16_inputs=True)), Const("bias", p.wide.bias),
        dims("output_dims", layer.y_shape), writes(layer.op), Scratch(CONV_BLOCK * k8 * 2 + k8 * 2)),
        note=layer.note + f", int16 activations, int{p.wide.bits} accumulator, six positions at a time",
        in_place=0 if pointwise_in_place(p.window, layer.filter.shape) else None)


# What the rows of the conv tables ask of a layer, as a ConvLayer sees it (a conv's, or a one-channel depthwise's)
LayerOf = Callable[[Graph, Op], ConvLayer]


def conditions(layer_of: LayerOf) -> tuple[When, When, When, When, When]:
    """(some_pruned, split_rows, s4_x6_fits, s16_fits, twins_hold) for the layers `layer_of` makes."""
    def some_pruned(g: Graph, op: Op) -> bool:
        """Some output channels' weights are all zero, not every channel's."""
        layer = layer_of(g, op)
        dead, _ = pruned_channels(layer.p.quant, layer.filter, layer.bias)
        return bool(dead.any() and not dead.all())

    def split_rows(g: Graph, op: Op) -> bool:
        """Kernel rows (KW * IC values) longer than a word and not whole words (a 3x3 first layer on 3 channels)."""
        _, _, kw, depth = layer_of(g, op).filter.shape
        return kw * depth > 4 and kw * depth % 4 != 0

    def taps(g: Graph, op: Op) -> int:
        return layer_of(g, op).taps

    def packed_taps(g: Graph, op: Op) -> int:
        return -(-taps(g, op) // 8) * 8

    def twins_hold(g: Graph, op: Op) -> bool:
        """twin_filter holds the layer's channel pairs, all of them and its live ones (a live layer run in strips
        computes every channel)."""
        layer = layer_of(g, op)
        quant, bias = settle_dead_channels(layer.p.quant, layer.filter, layer.bias)
        rows, folded = layer.filter.reshape(layer.filter.shape[0], -1), folded_bias(layer.filter, bias, quant.input_zp)
        live = ~pruned_channels(layer.p.quant, layer.filter, layer.bias)[0]
        return twin_pairs_fit(rows, folded) and twin_pairs_fit(rows[live], folded[live])

    return (when(some_pruned), when(split_rows), sums_fit(packed_taps, 255 * 8 * 16), sums_fit(taps, 32768 * 128),
            when(twins_hold))


def on(build: Callable[[ConvLayer], Call], layer_of: LayerOf = conv_layer) -> Build:
    """A row's build: `build` on the layer `layer_of` makes."""
    return lambda g, op: build(layer_of(g, op))


def live_row(weights: str) -> Build:
    """A live-channel row's build: conv_live_call on `weights`."""
    return on(partial(conv_live_call, weights=weights))


def x6_row(weights: str = "s8_x6", split: bool = False, layer_of: LayerOf = conv_layer) -> Build:
    """A six-positions row's build: conv_x6_call on `weights` (and `split`) for the layer `layer_of` makes."""
    return on(partial(conv_x6_call, weights=weights, split=split), layer_of)


@when
def pointwise(g: Graph, op: Op) -> bool:
    """A 1x1 conv at stride 1 without padding."""
    window = op.prepared(ConvData).window
    return op.input(g, 1).shape[1:3] == (1, 1) and window.stride == (1, 1) and window.pad == (0, 0)


@when
def few_rows(g: Graph, op: Op) -> bool:
    """A FULLY_CONNECTED with fewer positions than a block of mcu_conv2d_s8_x6, which would compute its unused
    positions: a 1x1 conv at stride 1 without padding (positions as rows), or one whose kernel covers its
    unpadded input (an output of 1x1, the flattened image as the row; streaming models are made of these)."""
    x, w, y, window = op.input(g, 0), op.input(g, 1), op.output(g), op.prepared(ConvData).window
    if window.pad != (0, 0) or window.dilation != (1, 1):
        return False
    whole = tuple(w.shape[1:3]) == tuple(x.shape[1:3]) and tuple(y.shape[1:3]) == (1, 1)
    return (pointwise(g, op) or whole) and int(np.prod(y.shape[:3])) < CONV_BLOCK


def as_rows(kernel: str, name: str, layout: Callable[[np.ndarray], np.ndarray], how: str) -> Build:
    """A few_rows conv on the DSP FC kernel `kernel`, its filter (`name`) as `layout` lays it out."""
    def build(g: Graph, op: Op) -> Call:
        w, b, y = op.input(g, 1), op.optional_input(g, 2), op.output(g)
        p = op.prepared(ConvData)
        rows = int(np.prod(y.shape[:3]))
        units, depth = w.shape[0], int(np.prod(w.shape[1:]))
        folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
        return Call(kernel, (
            fc_params(p.quant, 0), channel_table(p.quant, folded, 2 * depth),
            Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)), reads(op),
            Const(name, layout(w.values.reshape(units, depth))), Const("bias_folded", np.pad(folded, (0, -units % 4))),
            Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
            note=conv_note(op, w.shape) + f", {rows} position(s) as the rows of a FULLY_CONNECTED, {how}")
    return build


# The bytes of FULLY_CONNECTED weights (a few-rows conv's count too) a model needs for the twin kernel to pay for its
# code: 4.2 KB on the M4, 1.9 KB more than the int8 layout's kernel, which runs smaller layers a few percent slower
# (KWS's, VWW's and ResNet-8's last FCs: 512-768 B, under 0.1% of their cycles, for 1-2 KB of firmware each)
TWIN_WORTH = 8192


@when
def twins_pay(g: Graph, op: Op) -> bool:
    """Twin words hold the layer's sums (twin_fits), and the model's FULLY_CONNECTED weights, TWIN_WORTH bytes or
    more, are worth the kernel's code."""
    w = op.input(g, 1)
    if not twin_fits(w.values.reshape(w.shape[0], -1)):
        return False
    rows = (o.input(g, 1) for o in g.ops if o.opcode == "FULLY_CONNECTED" or o.opcode == "CONV_2D" and few_rows(g, o))
    return sum(t.nbytes for t in rows if t.is_const) >= TWIN_WORTH


def _fc_sums_taps(g: Graph, op: Op) -> int:
    return int(np.prod(op.input(g, 1).shape[1:]))


some_pruned, split_rows, s4_x6_fits, s16_fits, twins_hold = conditions(conv_layer)
s4 = int8 & int4_weights
# The taps under which the channel pairs' loop runs a pointwise conv at stride 1 faster than quads, widening its
# pixels itself: VWW's layers of 8 taps took 18% more cycles in quads on the M4, those of 32 the same
QUADS_TAPS = 24


@when
def quads_hold(g: Graph, op: Op) -> bool:
    """s4_quads_filter holds the layer's channels (s4_quads_fit), every one fast (the loop requantizes them so), and
    it is not a pointwise conv at stride 1 of fewer than QUADS_TAPS taps."""
    layer = conv_layer(g, op)
    if layer.taps < QUADS_TAPS and pointwise(g, op) or not s4_quads_fit(layer.filter):
        return False
    quant, bias = settle_dead_channels(layer.p.quant, layer.filter, layer.bias)
    return bool((channel_table(quant, bias, layer.taps).data["fast"] == 1).all())


TABLES = {"CONV_2D": (
    Variant("mcu_fully_connected_s4_mve", "mve", s4 & pointwise, lambda g, op: pointwise_as_rows(g, op, int4=True)),
    Variant("mcu_fully_connected_s8_mve", "mve", int8 & pointwise, lambda g, op: pointwise_as_rows(g, op, int4=False)),
    Variant("mcu_conv2d_s4_mve", "mve", s4, on(conv_s4_mve_call)),
    Variant("mcu_conv2d_s8_mve", "mve", int8, on(conv_mve_call)),
    Variant("mcu_conv2d_s16_mve", "mve", int16 & s16_fits, on(conv_s16_mve_call)),
    Variant("mcu_fully_connected_s4_x4", "dsp", s4 & few_rows & sums_fit(_fc_sums_taps, 128 * 128),
            as_rows("mcu_fully_connected_s4_x4", "packed_filter", s4_interleave4,
                    "four units at a time, INT4 weights read packed")),
    Variant("mcu_conv2d_live_s4_x6", "dsp", s4 & s4_x6_fits & some_pruned, live_row("s4_x6")),
    Variant("mcu_conv2d_s4_quads", "dsp", s4 & quads_hold, on(partial(conv_s4_x6_call, quads=True))),
    Variant("mcu_conv2d_s4_x6", "dsp", s4 & s4_x6_fits, on(conv_s4_x6_call)),
    Variant("mcu_fully_connected_s8_twin", "dsp", int8 & ~int4_weights & few_rows & twins_pay,
            as_rows("mcu_fully_connected_s8_twin", "filter_twins", twin4, "four units at a time, two a halfword")),
    Variant("mcu_fully_connected_s8_w16", "dsp", int8 & few_rows,
            as_rows("mcu_fully_connected_s8_w16", "filter_pairs", widen4,
                    "four units at a time, weights widened to int16 pairs"), widens=True),
    Variant("mcu_fully_connected_s8_x4", "dsp", int8 & few_rows,
            as_rows("mcu_fully_connected_s8_x4", "filter", interleave4, "four units at a time")),
    Variant("mcu_conv2d_live_s8_w16", "dsp", int8 & some_pruned, live_row("s8_w16"), widens=True),
    Variant("mcu_conv2d_live_s8_twin", "dsp", int8 & some_pruned & twins_hold, live_row("s8_twin")),
    Variant("mcu_conv2d_live_s8_x6", "dsp", int8 & some_pruned, live_row("s8_x6")),
    Variant("mcu_conv2d_split_s8_w16", "dsp", int8 & split_rows, x6_row("s8_w16", split=True), widens=True),
    Variant("mcu_conv2d_split_s8_twin", "dsp", int8 & split_rows & twins_hold, x6_row("s8_twin", split=True)),
    Variant("mcu_conv2d_split_s8_x6", "dsp", int8 & split_rows, x6_row(split=True)),
    Variant("mcu_conv2d_s8_w16", "dsp", int8, x6_row("s8_w16"), widens=True),
    Variant("mcu_conv2d_s8_twin", "dsp", int8 & twins_hold, x6_row("s8_twin")),
    Variant("mcu_conv2d_s8_x6", "dsp", int8, x6_row()),
    Variant("mcu_conv2d_s16_x6", "dsp", int16 & s16_fits, on(conv_s16_x6_call)),
)}
