"""FULLY_CONNECTED: TFLM reference_integer_ops::FullyConnected (double rounding).

LiteRT's reference FC rounds once, in float, so it can differ from this by one
LSB per layer; TFLM is the target.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, Slice, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, int4_filter, register
from mcugen.ops._conv import (FullyConnectedData, Golden, fc_params, helium_filter, reference_filter, s4_pairs, strips_of,
                              wide_problems)
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import (Rescale, channel_table, folded_bias, int4_problems, problems_fused_activation,
                               require_bias_length, weight_problems)
from mcugen.ops.variants import variant


@register("FULLY_CONNECTED")
class FullyConnected(OpDef):
    arity = ((2, 3), (1, 1))
    bias_input = 2
    # weights (INT4 with int8 activations), bias
    parameters: Mapping[int, tuple[str, ...]] = {1: ("int8", "int4"), 2: ("int32", "int64")}
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x, w = op.input(g, 0), op.input(g, 1)
        if len(w.shape) != 2 or not x.shape or math.prod(x.shape) % w.shape[1]:
            raise ValueError(f"weights {list(w.shape)} do not fit input {list(x.shape)}")
        require_bias_length(op.optional_input(g, 2), w.shape[0])
        if op.attrs.get("keep_num_dims"):
            return (*x.shape[:-1], w.shape[0])
        return (math.prod(x.shape) // w.shape[1], w.shape[0])

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op) + problems_fused_activation(op)
        if op.attrs.get("weights_format", 0) != 0:
            problems.append("shuffled weights format is not supported")
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
        if w is not None and len(w.shape) != 2:
            problems.append(f"weights of rank {len(w.shape)}, expected 2")
        if b is not None and x.quant and w.quant and y.quant:
            # TFLM's Prepare (GetQuantizedConvolutionMultipler) holds the bias to the scale of the
            # products it is added to: within 2% of the output scale (an unquantized bias has scale 0)
            product = float(x.q.s) * float(w.q.scale[0])
            bias_scale = float(b.q.scale[0]) if b.quant else 0.0
            if abs(product - bias_scale) / float(y.q.s) > 0.02:
                problems.append(f"bias scale {bias_scale:.9g} is not input scale x weight scale ({product:.9g}); "
                                "TFLM refuses it")
        return problems + wide_problems(g, op) + int4_problems(g, op, per_channel=False)

    def prepare(self, g: Graph, op: Op) -> object:
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        q = Rescale.of(g, op, x, w, y, w.shape[0])  # TFLM's int16 FC adds its zero points too
        wide = Wide.of(g, op, 2, w.shape[0]) if x.dtype == "int16" else None
        weights = (w.values.astype(np.float64) - w.q.zp).T.copy()
        return FullyConnectedData(q, w.q.zp, wide, Golden.of(g, op, weights, None, q, wide, w.shape[0]))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(FullyConnectedData)
        # float64 is exact here: every partial sum is an integer below 2^53.
        # np.dot: matmul's generality costs microseconds here, and these layers are tiny
        x = xs[0].reshape(-1, xs[1].shape[1]).astype(np.float64)
        if p.wide is not None:
            return p.wide.output(np.dot(x - p.quant.input_zp, p.golden.weights), p.quant).reshape(op.output(g).shape)
        assert p.golden.output is not None
        return p.golden.output(np.dot(x, p.golden.weights)).reshape(op.output(g).shape)

    def macs(self, g: Graph, op: Op) -> int:
        w = op.input(g, 1)
        return int(np.prod(op.input(g, 0).shape)) // w.shape[1] * w.shape[0] * w.shape[1]

    def lower(self, g: Graph, op: Op) -> Call | None:
        w, b = op.input(g, 1), op.optional_input(g, 2)
        p = op.prepared(FullyConnectedData)
        rows_in, tail, note = _rows(g, op)
        if p.wide is not None:
            return Call("mcu_fully_connected_s16", (_params(p), p.quant.per_channel(), p.wide.bits, *rows_in,
                                                    Const("filter", w.values), Const("bias", p.wide.bias), *tail),
                        note=note + f", int16 activations, int{p.wide.bits} accumulator")
        kernel, filter_arg = reference_filter(g, op, "mcu_fully_connected_s8", w.values)
        return Call(kernel, (_params(p), p.quant.per_channel(), *rows_in, filter_arg,
                             Const("bias", b.values) if b is not None else None, *tail), note=note)

    def lower_fused(self, g: Graph, op: Op, conv: Op, operand: int) -> Call | None:
        x, w = op.input(g, 0), op.input(g, 1)
        units, depth = w.shape
        strips = strips_of(g, conv)
        p = op.prepared(FullyConnectedData)
        if strips is None or operand != 0 or p.filter_zp != 0 or math.prod(x.shape) != depth:
            return None
        folded, channels = _folded_bias(g, op)
        return Call("mcu_conv2d_fc_s8_x6", (
            *strips.args, strips.rows, _params(p), channels, Const("filter", w.values),
            Const("bias_folded", folded), Struct("mcu_dims", "output_dims", dict(n=1, h=1, w=1, c=units)),
            writes(op), strips.scratch, Scratch(strips.tile_bytes, "int8_t"), Scratch(4 * units, "int32_t")),
            note=f"with layer {conv.index} ({conv.opcode}) run {strips.rows} rows at a time, each strip's "
                 f"{strips.tile_bytes} values accumulated into the {units} units; input offset folded into the bias",
            extra_kernels=strips.kernels)


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s4_x4", needs="dsp")
def _fully_connected_s4(g: Graph, op: Op) -> Call | None:
    if not int4_filter(g, op) or op.input(g, 1).shape[1] * 128 * 128 >= 2 ** 31:  # its sums times 16 fit int32
        return None
    return _fully_connected_dsp(g, op, "mcu_fully_connected_s4_x4", "packed_filter", s4_interleave4,
                                "INT4 weights read packed by 4 units")


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s8_w16", needs="dsp", widens=True)
def _fully_connected_w16(g: Graph, op: Op) -> Call | None:
    return _fully_connected_dsp(g, op, "mcu_fully_connected_s8_w16", "filter_pairs", widen4,
                                "filter widened to int16 pairs by 4 units")


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s8_x4", needs="dsp")
def _fully_connected_x4(g: Graph, op: Op) -> Call | None:
    return _fully_connected_dsp(g, op, "mcu_fully_connected_s8_x4", "filter", interleave4, "filter interleaved by 4 units")


def _fully_connected_dsp(g: Graph, op: Op, kernel: str, name: str, layout: Callable[[np.ndarray], np.ndarray],
                         how: str) -> Call | None:
    if op.input(g, 0).dtype != "int8":
        return None
    rows_in, tail, note = _rows(g, op)
    w = op.input(g, 1)
    folded, channels = _folded_bias(g, op)
    return Call(kernel, (
        _params(op.prepared(FullyConnectedData)), channels, *rows_in, Const(name, layout(w.values)),
        Const("bias_folded", np.pad(folded, (0, -w.shape[0] % 4))), *tail),  # whole groups of 4 units
        note=f"{note}, {how}, input offset folded into the bias")


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s4_mve", needs="mve")
def _fully_connected_s4_mve(g: Graph, op: Op) -> Call | None:
    return _on_helium(g, op, int4=True) if int4_filter(g, op) else None


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s8_mve", needs="mve")
def _fully_connected_mve(g: Graph, op: Op) -> Call | None:
    return _on_helium(g, op, int4=False)


def _on_helium(g: Graph, op: Op, int4: bool) -> Call | None:
    """On Helium, int8 weights or (`int4`) INT4 ones read packed (s4_blocks)."""
    p = op.prepared(FullyConnectedData)
    if op.input(g, 0).dtype != "int8" or p.filter_zp != 0:
        return None
    rows_in, tail, note = _rows(g, op)
    w, b = op.input(g, 1), op.optional_input(g, 2)
    folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
    kernel, filter_arg, how = helium_filter("mcu_fully_connected_s8_mve", w.values, int4)
    return Call(kernel, (_params(p), p.quant.per_channel(), *rows_in, filter_arg, Const("bias_folded", folded), *tail),
                note=note + f", Helium: 16 products per instruction{how}, input offset folded into the bias")


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s16_mve", needs="mve")
def _fully_connected_s16_mve(g: Graph, op: Op) -> Call | None:
    p, w = op.prepared(FullyConnectedData), op.input(g, 1)
    if p.wide is None or p.quant.input_zp != 0 or p.filter_zp != 0 or w.shape[1] * 32768 * 128 >= 2 ** 31:
        return None
    rows_in, tail, note = _rows(g, op)
    return Call("mcu_fully_connected_s16_mve", (_params(p), p.quant.per_channel(), p.wide.bits, *rows_in,
                                                Const("filter", w.values), Const("bias", p.wide.bias), *tail),
                note=f"{note}, int16 activations, int{p.wide.bits} accumulator, "
                     "Helium: eight products per instruction")


def _params(p: FullyConnectedData) -> Struct:
    return fc_params(p.quant, p.filter_zp)


def _rows(g: Graph, op: Op) -> tuple[tuple[Struct, Slice], tuple[Struct, Slice], str]:
    """The input as rows of `depth` and the output as rows of `units`: dims and data, and the note."""
    x, w = op.input(g, 0), op.input(g, 1)
    units, depth = w.shape
    rows = int(np.prod(x.shape)) // depth
    return ((Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)), reads(op)),
            (Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
            f"{rows} row(s) of {depth} -> {units} units")


def _folded_bias(g: Graph, op: Op) -> tuple[np.ndarray, Const]:
    """The DSP kernels' bias with the input offset in it, and their channel table."""
    p, w, b = op.prepared(FullyConnectedData), op.input(g, 1), op.optional_input(g, 2)
    folded = folded_bias(w.values, b.values if b is not None else None, p.quant.input_zp)
    # The true accumulator is bias + sum (x + xo)(w + wo): |input_offset * sum(w)| <= 128 * 128
    # per value, and a factor with a filter offset lies within 255, hence twice or four times.
    taps = (4 if p.filter_zp else 2) * w.shape[1]
    return folded, channel_table(p.quant, folded, taps)


def interleave4(w: np.ndarray) -> np.ndarray:
    """[units, depth] as [ceil(units/4)][K4/4][4 units][4 values], zero-padded (K4 = depth rounded up
    to 4): the order mcu_fully_connected_s8_x4 reads it in, one pointer walking forward."""
    units, depth = w.shape
    padded = np.zeros(((units + 3) // 4 * 4, (depth + 3) // 4 * 4), dtype=w.dtype)
    padded[:units, :depth] = w
    groups, k4 = padded.shape[0] // 4, padded.shape[1]
    return padded.reshape(groups, 4, k4 // 4, 4).transpose(0, 2, 1, 3).copy()


def s4_interleave4(w: np.ndarray) -> np.ndarray:
    """interleave4's order of INT4 weights packed (mcu_fully_connected_s4_x4): per four values, the words
    of units 0-1 and 2-3 (s4_pairs)."""
    return s4_pairs(interleave4(w))


def widen4(w: np.ndarray) -> np.ndarray:
    """interleave4's order widened to int16, each unit's four values as (w0, w2, w1, w3): the words
    (w0, w2), (w1, w3) that SMLAD pairs with SXTB16's halves of an input word (MCU_DOT4_W16)."""
    return interleave4(w)[..., [0, 2, 1, 3]].astype(np.int16)
