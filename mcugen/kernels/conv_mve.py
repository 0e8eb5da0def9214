"""The Helium conv calls: each CONV_2D kernel of the M55 (int8, INT4 read packed, 16x8), and a pointwise conv
run as the rows of a FULLY_CONNECTED; kernels/conv.py's table holds their rows."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, Struct, dims, reads, writes
from mcugen.kernels.layouts import s4_blocks, units4_blocks
from mcugen.ops._conv import ConvData, ConvLayer, conv_params, fc_params
from mcugen.ops._quant import folded_bias
from mcugen.ops.conv_2d import conv_note


def conv_s16_mve_call(layer: ConvLayer) -> Call:
    """A 16x8 layer on mcu_conv2d_s16_mve (Helium)."""
    p = layer.p
    assert p.wide is not None
    return Call("mcu_conv2d_s16_mve", (
        conv_params(p.window, p.quant), p.quant.per_channel(), p.wide.bits, dims("input_dims", layer.x_shape),
        reads(layer.op), dims("filter_dims", layer.filter.shape), Const("filter", layer.filter),
        Const("bias", p.wide.bias), dims("output_dims", layer.y_shape), writes(layer.op),
        Scratch(layer.taps * 2, "int16_t")),
        note=layer.note + f", int16 activations, int{p.wide.bits} accumulator, Helium: eight products per instruction")


def helium_filter(kernel: str, rows: np.ndarray, int4: bool) -> tuple[str, Const, str]:
    """A Helium row kernel (`kernel`, the int8 one), its filter argument for weights [units, depth] and the
    note's words: with `int4`, the _s4 twin on s4_blocks."""
    if int4:
        return kernel.replace("_s8", "_s4"), Const("packed_filter", s4_blocks(rows)), ", INT4 weights read packed"
    return kernel, Const("filter", units4_blocks(rows)), ""


def conv_mve_call(layer: ConvLayer, int4: bool = False) -> Call:
    """mcu_conv2d_s8_mve (Helium), or with `int4` mcu_conv2d_s4_mve, its weights packed (s4_blocks): the input
    offset folded into the bias, and scratch for two patches, each rounded up to whole chunks of 16 values."""
    p = layer.p
    folded = folded_bias(layer.filter, layer.bias, p.quant.input_zp)
    rows = layer.filter.reshape(layer.filter.shape[0], -1)
    kernel, filter_arg, how = helium_filter("mcu_conv2d_s8_mve", rows, int4)
    return Call(kernel, (
        conv_params(p.window, p.quant), p.quant.per_channel(), dims("input_dims", layer.x_shape), reads(layer.op),
        dims("filter_dims", layer.filter.shape), filter_arg, Const("bias_folded", folded),
        dims("output_dims", layer.y_shape), writes(layer.op), Scratch(2 * -(-rows.shape[1] // 16) * 16, "int8_t")),
        note=layer.note + f", Helium: patches gathered two at a time, then 16 products per instruction{how}, input "
        "offset folded into the bias")


def conv_s4_mve_call(layer: ConvLayer) -> Call:
    return conv_mve_call(layer, int4=True)


def pointwise_as_rows(g: Graph, op: Op, int4: bool) -> Call:
    """A 1x1 conv at stride 1 without padding as a FULLY_CONNECTED over its N*H*W positions on Helium."""
    w, b, y = op.input(g, 1), op.optional_input(g, 2), op.output(g)
    p = op.prepared(ConvData)
    units, depth = w.shape[0], w.shape[3]
    rows = int(np.prod(y.shape[:3]))
    folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
    kernel, filter_arg, how = helium_filter("mcu_fully_connected_s8_mve", w.values.reshape(units, depth), int4)
    return Call(kernel, (
        fc_params(p.quant, 0), p.quant.per_channel(), Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)),
        reads(op), filter_arg, Const("bias_folded", folded),
        Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
        note=conv_note(op, w.shape) + f", {rows} positions as the rows of a FULLY_CONNECTED on Helium{how}, input "
        "offset folded into the bias")
