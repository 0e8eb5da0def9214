"""A conv run a strip of rows at a time inside its only consumer's call (passes/fuse_strips.py): the fused
kernels' calls, one builder per consumer's opcode (FUSIONS).

A CONV_2D on the six-positions family (or a one-channel DEPTHWISE_CONV_2D lowered as one) computes a few
output rows into a small tile, and the consumer uses them at once: a FULLY_CONNECTED accumulates them into
its units, an ADD adds them to the residual's rows, a DEPTHWISE_CONV_2D keeps the few rows its next output
row reads. An ADD whose conv reads a conv that only it reads runs both (Call.fuses), the first's rows held
as the second's input: a ResNet block's two convs and its residual.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from mcugen import ops
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, Struct, dims, layer_name, reads, writes
from mcugen.kernels.conv import (CONV_BLOCK, LayerOf, X6Args, conv_scratch_bytes, s4_quads_args, s4_x6_args, twin_args,
                                 w16_args, x6_args)
from mcugen.kernels.depthwise import X4Parts, window_bytes
from mcugen.kernels.fully_connected import folded_bias_and_channels
from mcugen.ops._conv import ConvData, ConvLayer, FullyConnectedData
from mcugen.ops.add import add_params
from mcugen.ops.conv_2d import conv_layer
from mcugen.ops.depthwise_conv_2d import DepthwiseData, one_channel_layer
from mcugen.ops.fully_connected import fc_layer_params
from mcugen.runtime import c_define

# the layer's kernel -> the args its strips run on (a layer on its live channels alone, or on split kernel rows,
# runs its strips as the dense conv: the rows kernel computes every channel with taps in their own order), and
# the filter's bits mcu_conv2d_rows_s8_x6 takes (FILTER_TWIN: twin words, FILTER_S4_QUADS: INT4 quads)
FILTER_TWIN, FILTER_S4_QUADS = c_define("MCU_FILTER_TWIN"), c_define("MCU_FILTER_S4_QUADS")
_STRIP_ARGS: dict[str, tuple[Callable[[ConvLayer], X6Args], int]] = {
    "mcu_conv2d_s8_x6": (x6_args, 8), "mcu_conv2d_s8_w16": (w16_args, 16), "mcu_conv2d_live_s8_w16": (w16_args, 16),
    "mcu_conv2d_split_s8_w16": (w16_args, 16), "mcu_conv2d_live_s8_x6": (x6_args, 8),
    "mcu_conv2d_split_s8_x6": (x6_args, 8), "mcu_conv2d_s4_x6": (s4_x6_args, 4),
    "mcu_conv2d_live_s4_x6": (s4_x6_args, 4), "mcu_conv2d_s8_twin": (twin_args, FILTER_TWIN),
    "mcu_conv2d_live_s8_twin": (twin_args, FILTER_TWIN), "mcu_conv2d_split_s8_twin": (twin_args, FILTER_TWIN),
    "mcu_conv2d_s4_quads": (s4_quads_args, FILTER_S4_QUADS)}
_LAYER_OF: dict[str, LayerOf] = {"CONV_2D": conv_layer, "DEPTHWISE_CONV_2D": one_channel_layer}


@dataclass(frozen=True)
class Strips:
    """A conv run a strip of rows at a time: its arguments (constants named after the conv), its filter's
    bits, its whole output's dims, and the tile."""

    conv: X6Args
    filter_bits: int
    output_dims: Struct  # the conv's whole output
    rows: int  # output rows per strip: the fewest whose positions fill whole blocks of CONV_BLOCK
    tile_bytes: int  # one strip of output
    scratch: Scratch  # the conv kernel's own
    kernels: tuple[str, ...]

    def args(self) -> tuple[object, ...]:
        """mcu_conv2d_rows_s8_x6's arguments before its rows, which every fused kernel starts with."""
        c = self.conv
        return (c.conv, c.channels, c.input_dims, c.input, c.filter_dims, c.filter, self.filter_bits, c.bias,
                self.output_dims)

    def second(self) -> tuple[object, ...]:
        """The arguments of a second conv run on the held rows of a first (conv2 ... output_dims)."""
        c = self.conv
        return (c.conv, c.channels, c.filter_dims, c.filter, self.filter_bits, c.bias, self.output_dims)


def strips_of(g: Graph, conv_op: Op) -> Strips | None:
    """How conv_op runs in strips, or None when it can't: only the DSP conv of one image does."""
    y = conv_op.output(g)
    if conv_op.call is None or conv_op.call.kernel not in _STRIP_ARGS or len(y.shape) != 4 or y.shape[0] != 1:
        return None
    make, bits = _STRIP_ARGS[conv_op.call.kernel]
    layer = _LAYER_OF[conv_op.opcode](g, conv_op)
    named = make(layer).named(layer_name(g, conv_op))
    _, out_h, out_w, out_c = y.shape
    rows = min(CONV_BLOCK // math.gcd(out_w, CONV_BLOCK), out_h)
    # the rows kernel's references are weak: the kernel of the filter's form, linked by naming it
    form = {4: "mcu_conv2d_s4_x6", 8: "mcu_conv2d_s8_x6", 16: "mcu_conv2d_s8_w16", FILTER_TWIN: "mcu_conv2d_s8_twin",
            FILTER_S4_QUADS: "mcu_conv2d_s4_quads"}
    kernels = ("mcu_conv2d_rows_s8_x6", form[bits])
    return Strips(named, bits, dataclasses.replace(dims("output_dims", y.shape), layer=layer_name(g, conv_op)), rows,
                  rows * out_w * out_c, Scratch(conv_scratch_bytes(layer.taps)), kernels)


def written_in_strips(g: Graph, op: Op, k: int) -> tuple[Op, Strips] | None:
    """The conv that writes op's input k, when only op reads it (no view between) and it runs in strips: op
    may run it inside its own call (a conv's input: a chain, Call.fuses)."""
    t = op.inputs[k]
    writer = next((w for w in g.ops if t in w.outputs), None)
    if writer is None or t in g.outputs or sum(o.inputs.count(t) for o in g.ops) != 1:
        return None
    strips = strips_of(g, writer)
    return None if strips is None else (writer, strips)


def rows_read(g: Graph, conv_op: Op) -> tuple[int, int, int]:
    """conv_op's input rows as one output row reads them: (stride, leading pad, span)."""
    window = conv_op.prepared(ConvData).window
    return window.stride[0], window.pad[0], (conv_op.input(g, 1).shape[1] - 1) * window.dilation[0] + 1


def into_fully_connected(g: Graph, op: Op, conv: Op, operand: int) -> Call | None:
    """Each strip accumulated into the FC's units: the conv's output is the FC's one row."""
    x, w = op.input(g, 0), op.input(g, 1)
    units, depth = w.shape
    strips = strips_of(g, conv)
    p = op.prepared(FullyConnectedData)
    if strips is None or operand != 0 or p.filter_zp != 0 or math.prod(x.shape) != depth:
        return None
    folded, channels, _ = folded_bias_and_channels(g, op)
    return Call("mcu_conv2d_fc_s8_x6", (
        *strips.args(), strips.rows, fc_layer_params(p), channels, Const("filter", w.values),
        Const("bias_folded", folded), Struct("mcu_dims", "output_dims", dict(n=1, h=1, w=1, c=units)),
        writes(op), strips.scratch, Scratch(strips.tile_bytes, "int8_t"), Scratch(4 * units, "int32_t")),
        note=f"with layer {conv.index} ({conv.opcode}) run {strips.rows} rows at a time, each strip's "
             f"{strips.tile_bytes} values accumulated into the {units} units; input offset folded into the bias",
        extra_kernels=strips.kernels, widened=strips.filter_bits == 16)


def into_depthwise(g: Graph, op: Op, conv: Op, operand: int) -> Call | None:
    """MobileNet's pointwise layers, whose outputs are the largest tensors of its early layers: a few of the
    conv's rows at a time into a buffer of the rows one depthwise output row reads, on the four-channel
    kernel."""
    strips = strips_of(g, conv)
    fused = {"mcu_depthwise_conv2d_s8_x4": "mcu_conv2d_depthwise_s8_x4",
             "mcu_depthwise_conv2d_s4_x4": "mcu_conv2d_depthwise_s4_x4"}
    # an output row a call: the channel-at-a-time kernel's set-up per channel and row outweighs its taps'
    # gain there (ds_cnn_m's 5-wide rows: 3.80 M -> 4.25 M cycles; VWW's 24-wide even), so a stride-2
    # layer fused takes the four-channel kernel, as it did before the channel-at-a-time one took stride 2
    # (stride-1 layers on that one stay unfused, as they were)
    kernel = op.call.kernel if op.call is not None else None
    p = op.prepared(DepthwiseData)
    if kernel == "mcu_depthwise_conv2d_s8_x2" and p.window.stride[0] == 2:
        kernel = "mcu_depthwise_conv2d_s8_x4"
    if strips is None or operand != 0 or kernel not in fused:
        return None
    parts = X4Parts.of(g, op, int4=kernel == "mcu_depthwise_conv2d_s4_x4")
    x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
    span, cols = (w.shape[1] - 1) * p.window.dilation[0] + 1, p.window.span((w.shape[1], w.shape[2]))[1]
    held = span * x.shape[2] * x.shape[3]
    return Call(fused[kernel], (
        *strips.args(), parts.dw, parts.channels, parts.filter_dims, parts.filter, parts.bias_folded,
        dims("output_dims", y.shape), writes(op), strips.scratch,
        Scratch(held, "int8_t"), Scratch(window_bytes(span * cols * 4, w, kernel), "int8_t")),
        note=f"with layer {conv.index} ({conv.opcode}) run into a buffer of the {span} rows each output row "
             f"reads ({held} bytes); " + parts.note,
        extra_kernels=(*strips.kernels, "mcu_conv2d_hold_rows_s8_x6", kernel, *parts.extra_kernels),
        widened=strips.filter_bits == 16)


def into_add(g: Graph, op: Op, conv: Op, operand: int) -> Call | None:
    """The residual of a ResNet block: the conv's strips go into a tile and are added to the residual's rows,
    in its place when it dies here. ADD's arithmetic is symmetric, so the conv's side becomes input 1 (its
    offset, multiplier and shift with it)."""
    strips = strips_of(g, conv)
    a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
    if strips is None or op.opcode != "ADD" or not tuple(a.shape) == tuple(b.shape) == tuple(y.shape):
        return None
    residual = 1 - operand
    chain = written_in_strips(g, conv, 0)
    if chain is not None:
        return _chain_call(g, op, conv, operand, strips, *chain)
    # a block whose shortcut conv comes first in the file: the other side, a chain, takes this conv along
    other = written_in_strips(g, op, residual)
    other_chain = None if other is None else written_in_strips(g, other[0], 0)
    if other is not None and other_chain is not None and _shortcut(g, op, other_chain[0], operand):
        return into_add(g, op, other[0], residual)
    return Call("mcu_conv2d_add_s8_x6", (
        *strips.args(), strips.rows, add_params(op, swap=operand == 1, lookups=math.prod(op.output(g).shape)),
        reads(op, residual), writes(op), strips.scratch, Scratch(strips.tile_bytes, "int8_t")),
        note=f"with layer {conv.index} ({conv.opcode}) run {strips.rows} rows at a time, each strip added "
             "to the residual's rows",
        in_place=None if op.input(g, residual).is_const else residual,
        extra_kernels=(*strips.kernels, "mcu_add_s8_x4", "mcu_add"), widened=strips.filter_bits == 16)


def _shortcut(g: Graph, op: Op, first_op: Op, k: int) -> tuple[Op, Strips] | None:
    """The conv writing the ADD's input k (a projection shortcut) when it runs in strips on the block's input,
    the first conv's, and only the ADD reads it: the chain's call computes it strip by strip too."""
    found = written_in_strips(g, op, k)
    return found if found is not None and found[0].inputs[0] == first_op.inputs[0] else None


def _chain_call(g: Graph, op: Op, conv: Op, operand: int, second: Strips, first_op: Op, first: Strips) -> Call:
    """A ResNet block whole: the first conv's rows held as the second's input, the second's strips (the
    fewest output rows that fill whole blocks of its positions) computed from them, each added to the
    residual's rows. Where the residual is the first conv's own input it is passed once (NULL) and
    overwritten in place only if no row the first conv reads later has been written over by then; where it
    is a conv of that input (a projection shortcut), that conv runs strip by strip too."""
    _, mid_h, mid_w, mid_c = first_op.output(g).shape
    _, out_h, out_w, out_c = op.output(g).shape
    stride, pad, span = rows_read(g, conv)
    held = min((second.rows - 1) * stride + span, mid_h)
    residual = 1 - operand
    block = (first.args(), second.second(), second.rows,
             add_params(op, swap=operand == 1, lookups=math.prod(op.output(g).shape)))
    scratch = (Scratch(held * mid_w * mid_c, "int8_t"), Scratch(second.rows * out_w * out_c, "int8_t"))
    note = (f"with layers {first_op.index} and {conv.index} ({first_op.opcode}, {conv.opcode}): the first's "
            f"output held {held} rows at a time, the second's {second.rows} rows at a time, each strip added to ")
    kernels = (*first.kernels, "mcu_conv2d_hold_rows_s8_x6", "mcu_add_s8_x4", "mcu_add")
    x = g.tensors[first_op.inputs[0]]
    shortcut = _shortcut(g, op, first_op, residual)
    if shortcut is not None:
        short_op, short = shortcut
        over = _written_behind(rows_read(g, first_op), (stride, pad, span), mid_h, out_h, second.rows,
                               rows_read(g, short_op), x.nbytes // x.shape[1], out_w * out_c)
        return Call("mcu_conv2d_conv2d_add_shortcut_s8_x6", (
            *block[0], *block[1], block[2], *short.second()[:-1], block[3], writes(op),
            Scratch(max(first.scratch.bytes, second.scratch.bytes, short.scratch.bytes)), *scratch,
            Scratch(short.tile_bytes, "int8_t")),
            note=note + f"layer {short_op.index}'s ({short_op.opcode}, the shortcut: {short.rows} rows at a time"
                        + (", the output written over the block's input behind its reads)" if over else ")"),
            over=first_op.inputs[0] if over and not x.is_const else None,
            fuses=(first_op.index, conv.index, short_op.index),
            extra_kernels=(*kernels, *short.kernels), widened=16 in (first.filter_bits, second.filter_bits,
                                                                     short.filter_bits))
    own = op.inputs[residual] == first_op.inputs[0]
    behind = own and _written_behind(rows_read(g, first_op), (stride, pad, span), mid_h, out_h, second.rows)
    in_place = None if op.input(g, residual).is_const or (own and not behind) else residual
    return Call("mcu_conv2d_conv2d_add_s8_x6", (
        *block[0], *block[1], block[2], block[3], None if behind else reads(op, residual), writes(op),
        Scratch(max(first.scratch.bytes, second.scratch.bytes)), *scratch),
        note=note + "the residual's rows" + (" (the first conv's input, overwritten behind its reads)" if behind
                                             else ""),
        in_place=in_place, fuses=(first_op.index,), extra_kernels=kernels,
        widened=16 in (first.filter_bits, second.filter_bits))


def _written_behind(first: tuple[int, int, int], second: tuple[int, int, int], mid_h: int, out_h: int,
                    strip: int, shortcut: tuple[int, int, int] | None = None, in_row: int = 1,
                    out_row: int = 1) -> bool:
    """Whether a fused block writing its output strips [r, r + strip) over its input (in_row and out_row bytes
    a row) has by then read every input byte it writes over: after the strip, the first conv's next row (the
    first not held) reads from input row next * stride - pad, and the shortcut conv's next strip from its
    first row times its stride less its pad."""
    (s1, p1, _), (s2, p2, span2) = first, second
    held = 0
    for r in range(0, out_h, strip):
        last = min(r + strip, out_h) - 1
        held = max(held, min(last * s2 - p2 + span2, mid_h))
        written = (last + 1) * out_row
        if held < mid_h and (held * s1 - p1) * in_row < written:
            return False
        if shortcut is not None and last + 1 < out_h and ((last + 1) * shortcut[0] - shortcut[1]) * in_row < written:
            return False
    return True


# the consumer's opcode -> its call with `conv` run inside it (None where it can't take it)
FUSIONS: dict[str, Callable[[Graph, Op, Op, int], Call | None]] = {
    "FULLY_CONNECTED": into_fully_connected, "DEPTHWISE_CONV_2D": into_depthwise, "ADD": into_add}


def fused_call(g: Graph, consumer: Op, conv: Op, operand: int) -> Call | None:
    """The consumer's call with `conv` (whose output only it reads, as input `operand`) run inside it a strip
    of rows at a time; None where it can't (a float32 or int32 layer's kernel never fuses)."""
    fuse = FUSIONS.get(consumer.opcode)
    if fuse is None or ops.definition(g, consumer) is not ops.lookup(consumer.opcode):
        return None
    return fuse(g, consumer, conv, operand)
