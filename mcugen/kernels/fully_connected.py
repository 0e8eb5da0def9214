"""The FULLY_CONNECTED kernels: four units at a time on the DSP extension (weights int8 interleaved, INT4 packed,
or widened to int16 pairs), 16 products per instruction on Helium. FULLY_CONNECTED's table."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const
from mcugen.kernels.conv import twins_pay
from mcugen.kernels.conv_mve import helium_filter
from mcugen.kernels.layouts import interleave4, s4_interleave4, twin4, widen4
from mcugen.kernels.variant import Build, Variant, int4_weights, int8, int16, sums_fit, when
from mcugen.ops._conv import FullyConnectedData
from mcugen.ops._quant import channel_table, folded_bias
from mcugen.ops.fully_connected import fc_layer_params, fc_rows


def folded_bias_and_channels(g: Graph, op: Op, share: bool = False) -> tuple[np.ndarray, Const, bool]:
    """The DSP kernels' bias with the input offset in it, their channel table, and whether it is shared:
    with `share`, where every unit is requantized alike (a per-tensor layer, as most FULLY_CONNECTED layers
    are), one group of four rows that every group of units reads (mcu_fc_params.per_tensor), as TFLM keeps one
    multiplier and shift for the layer."""
    p, w, b = op.prepared(FullyConnectedData), op.input(g, 1), op.optional_input(g, 2)
    folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
    # The true accumulator is bias + sum (x + xo)(w + wo): |input_offset * sum(w)| <= 128 * 128
    # per value, and a factor with a filter offset lies within 255, hence twice or four times.
    taps = (4 if p.filter_zp else 2) * w.shape[1]
    table = channel_table(p.quant, folded, taps)
    if share and len(table.data) > 4 and (table.data == table.data[0]).all():
        return folded, dataclasses.replace(table, data=table.data[:4].copy()), True
    return folded, table, False


def on_dsp(kernel: str, name: str, layout: Callable[[np.ndarray], np.ndarray], how: str) -> Build:
    """A row's build on the DSP FC kernel `kernel`, its filter (`name`) as `layout` lays it out."""
    def build(g: Graph, op: Op) -> Call:
        rows_in, tail, note = fc_rows(g, op)
        w = op.input(g, 1)
        folded, channels, shared = folded_bias_and_channels(g, op, share=True)
        params = fc_layer_params(op.prepared(FullyConnectedData), shared)
        return Call(kernel, (
            params, channels, *rows_in, Const(name, layout(w.values)),
            Const("bias_folded", np.pad(folded, (0, -w.shape[0] % 4))), *tail),  # whole groups of 4 units
            note=f"{note}, {how}, input offset folded into the bias")
    return build


def on_helium(g: Graph, op: Op, int4: bool) -> Call:
    """On Helium, int8 weights or (`int4`) INT4 ones read packed (s4_blocks)."""
    p = op.prepared(FullyConnectedData)
    rows_in, tail, note = fc_rows(g, op)
    w, b = op.input(g, 1), op.optional_input(g, 2)
    folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
    kernel, filter_arg, how = helium_filter("mcu_fully_connected_s8_mve", w.values, int4)
    return Call(kernel, (fc_layer_params(p), p.quant.per_channel(), *rows_in, filter_arg,
                         Const("bias_folded", folded), *tail),
                note=note + f", Helium: 16 products per instruction{how}, input offset folded into the bias")


def s16_on_helium(g: Graph, op: Op) -> Call:
    p, w = op.prepared(FullyConnectedData), op.input(g, 1)
    assert p.wide is not None
    rows_in, tail, note = fc_rows(g, op)
    return Call("mcu_fully_connected_s16_mve", (fc_layer_params(p), p.quant.per_channel(), p.wide.bits, *rows_in,
                                                Const("filter", w.values), Const("bias", p.wide.bias), *tail),
                note=f"{note}, int16 activations, int{p.wide.bits} accumulator, Helium: eight products per instruction")


@when
def no_filter_offset(g: Graph, op: Op) -> bool:
    return op.prepared(FullyConnectedData).filter_zp == 0


@when
def no_offsets(g: Graph, op: Op) -> bool:
    p = op.prepared(FullyConnectedData)
    return p.filter_zp == 0 and p.quant.input_zp == 0


def _depth(g: Graph, op: Op) -> int:
    return int(op.input(g, 1).shape[1])


s4 = int8 & int4_weights

TABLES = {"FULLY_CONNECTED": (
    Variant("mcu_fully_connected_s4_mve", "mve", s4 & no_filter_offset, lambda g, op: on_helium(g, op, int4=True)),
    Variant("mcu_fully_connected_s8_mve", "mve", int8 & no_filter_offset, lambda g, op: on_helium(g, op, int4=False)),
    Variant("mcu_fully_connected_s16_mve", "mve", int16 & no_offsets & sums_fit(_depth, 32768 * 128), s16_on_helium),
    # the INT4 kernel's sums are its products times 16
    Variant("mcu_fully_connected_s4_x4", "dsp", s4 & sums_fit(_depth, 128 * 128),
            on_dsp("mcu_fully_connected_s4_x4", "packed_filter", s4_interleave4,
                   "INT4 weights read packed by 4 units")),
    Variant("mcu_fully_connected_s8_twin", "dsp", int8 & ~int4_weights & no_filter_offset & twins_pay,
            on_dsp("mcu_fully_connected_s8_twin", "filter_twins", twin4, "two units a halfword by 4 units")),
    Variant("mcu_fully_connected_s8_w16", "dsp", int8,
            on_dsp("mcu_fully_connected_s8_w16", "filter_pairs", widen4, "filter widened to int16 pairs by 4 units"),
            widens=True),
    Variant("mcu_fully_connected_s8_x4", "dsp", int8,
            on_dsp("mcu_fully_connected_s8_x4", "filter", interleave4, "filter interleaved by 4 units")),
)}
