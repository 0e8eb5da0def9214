"""FULLY_CONNECTED: TFLM reference_integer_ops::FullyConnected (double rounding).

LiteRT's reference FC rounds once, in float, so it can differ from this by one
LSB per layer; TFLM is the target.
"""
from __future__ import annotations

import math

import numpy as np

from mcugen.epilogue import OutputStage, input_zero_point_in_bias
from mcugen.lowering import Call, Const, Scratch, Struct, per_channel, reads, writes
from mcugen.ops import OpDef, register
from mcugen.ops._int16 import accumulator_bits, bias64, wide_output
from mcugen.ops._quant import (channel_multipliers, channel_table, float_bias, folded_bias, fused_range, problems_fused_activation,
                               require_bias_length, weight_problems)
from mcugen.ops.conv_2d import fc_params, strips_of, wide_problems
from mcugen.variants import variant


@register("FULLY_CONNECTED")
class FullyConnected(OpDef):
    arity = ((2, 3), (1, 1))
    parameters = {1: ("int8",), 2: ("int32", "int64")}  # weights, bias
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g, op):
        x, w = op.input(g, 0), op.input(g, 1)
        if len(w.shape) != 2 or not x.shape or math.prod(x.shape) % w.shape[1]:
            raise ValueError(f"weights {list(w.shape)} do not fit input {list(x.shape)}")
        require_bias_length(op.input(g, 2), w.shape[0])
        if op.attrs.get("keep_num_dims"):
            return (*x.shape[:-1], w.shape[0])
        return (math.prod(x.shape) // w.shape[1], w.shape[0])

    def check(self, g, op):
        problems = weight_problems(g, op) + problems_fused_activation(op)
        if op.attrs.get("weights_format", 0) != 0:
            problems.append("shuffled weights format is not supported")
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
        if w is not None and len(w.shape) != 2:
            problems.append(f"weights of rank {len(w.shape)}, expected 2")
        if b is not None and x.quant and w.quant and y.quant:
            # TFLM's Prepare (GetQuantizedConvolutionMultipler) holds the bias to the scale of the
            # products it is added to: within 2% of the output scale (an unquantized bias has scale 0)
            product = float(x.quant.s) * float(w.quant.scale[0])
            bias_scale = float(b.quant.scale[0]) if b.quant else 0.0
            if abs(product - bias_scale) / float(y.quant.s) > 0.02:
                problems.append(f"bias scale {bias_scale:.9g} is not input scale x weight scale ({product:.9g}); "
                                "TFLM refuses it")
        return problems + wide_problems(g, op)

    def prepare(self, g, op):
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        mult, shift = channel_multipliers(x, w, y, w.shape[0])
        act_min, act_max = fused_range(g, op)
        weights = (w.data.astype(np.float64) - w.quant.zp).T.copy()
        if x.dtype == "int16":
            return dict(multiplier=mult, shift=shift, act_min=act_min, act_max=act_max, input_zp=x.quant.zp,
                        output_zp=y.quant.zp, filter_zp=w.quant.zp, accumulator=accumulator_bits(g, op, 2),
                        golden_bias=bias64(op.input(g, 2), w.shape[0]), golden_weights=weights)
        bias = float_bias(op.input(g, 2), w.shape[0])
        return dict(multiplier=mult, shift=shift, act_min=act_min, act_max=act_max,
                    input_zp=x.quant.zp, output_zp=y.quant.zp, filter_zp=w.quant.zp,
                    # host-only: the golden model's matmul operand and epilogue, made once
                    golden_weights=weights,
                    golden_output=OutputStage(mult, shift, y.quant.zp, act_min, act_max, weights,
                                              input_zero_point_in_bias(bias, weights, x.quant.zp)))

    def run(self, g, op, xs):
        p = op.params
        # float64 is exact here: every partial sum is an integer below 2^53.
        # np.dot: matmul's generality costs microseconds here, and these layers are tiny
        x = xs[0].reshape(-1, xs[1].shape[1]).astype(np.float64)
        if xs[0].dtype == np.int16:
            return wide_output(np.dot(x - p["input_zp"], p["golden_weights"]), p).reshape(op.output(g).shape)
        acc = np.dot(x, p["golden_weights"])
        return p["golden_output"](acc).reshape(op.output(g).shape)

    def macs(self, g, op):
        w = op.input(g, 1)
        return int(np.prod(op.input(g, 0).shape)) // w.shape[1] * w.shape[0] * w.shape[1]

    def lower(self, g, op):
        x, w, b = op.input(g, 0), op.input(g, 1), op.input(g, 2)
        p = op.params
        rows_in, tail, note = _rows(g, op)
        if x.dtype == "int16":
            return Call("mcu_fully_connected_s16", (_params(p), per_channel(p), p["accumulator"], *rows_in,
                                                    Const("filter", w.data), Const("bias", p["golden_bias"]), *tail),
                        note=note + f", int16 activations, int{p['accumulator']} accumulator")
        return Call("mcu_fully_connected_s8", (_params(p), per_channel(p), *rows_in, Const("filter", w.data),
                                               Const("bias", b.data) if b is not None else None, *tail), note=note)

    def lower_fused(self, g, op, conv, operand):
        x, w = op.input(g, 0), op.input(g, 1)
        units, depth = w.shape
        strips = strips_of(g, conv)
        if strips is None or operand != 0 or op.params["filter_zp"] != 0 or math.prod(x.shape) != depth:
            return None
        folded, channels = _folded_bias(g, op)
        return Call("mcu_conv2d_fc_s8_x6", (
            *strips.args, strips.rows, _params(op.params), channels, Const("filter", w.data),
            Const("bias_folded", folded), Struct("mcu_dims", "output_dims", dict(n=1, h=1, w=1, c=units)),
            writes(op), strips.scratch, Scratch(strips.tile_bytes, "int8_t"), Scratch(4 * units, "int32_t")),
            note=f"with layer {conv.index} ({conv.opcode}) run {strips.rows} rows at a time, each strip's "
                 f"{strips.tile_bytes} values accumulated into the {units} units; input offset folded into the bias",
            extra_kernels=strips.kernels)


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s8_x4", needs="dsp")
def _fully_connected_x4(g, op):
    if op.input(g, 0).dtype != "int8":
        return None
    rows_in, tail, note = _rows(g, op)
    w = op.input(g, 1)
    folded, channels = _folded_bias(g, op)
    return Call("mcu_fully_connected_s8_x4", (
        _params(op.params), channels, *rows_in, Const("filter", interleave4(w.data)),
        Const("bias_folded", np.pad(folded, (0, -w.shape[0] % 4))), *tail),  # whole groups of 4 units
        note=note + ", filter interleaved by 4 units, input offset folded into the bias")


@variant("FULLY_CONNECTED", kernel="mcu_fully_connected_s8_mve", needs="mve")
def _fully_connected_mve(g, op):
    p = op.params
    if op.input(g, 0).dtype != "int8" or p["filter_zp"] != 0:
        return None
    rows_in, tail, note = _rows(g, op)
    w, b = op.input(g, 1), op.input(g, 2)
    folded = folded_bias(w.data, b.data if b is not None else None, p["input_zp"])
    return Call("mcu_fully_connected_s8_mve", (_params(p), per_channel(p), *rows_in, Const("filter", w.data),
                                               Const("bias_folded", folded), *tail),
                note=note + ", Helium: 16 products per instruction, input offset folded into the bias")


def _params(p: dict) -> Struct:
    return fc_params(p, p["filter_zp"])


def _rows(g, op) -> tuple[tuple, tuple, str]:
    """The input as rows of `depth` and the output as rows of `units`: dims and data, and the note."""
    x, w = op.input(g, 0), op.input(g, 1)
    units, depth = w.shape
    rows = int(np.prod(x.shape)) // depth
    return ((Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)), reads(op)),
            (Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
            f"{rows} row(s) of {depth} -> {units} units")


def _folded_bias(g, op) -> tuple[np.ndarray, Const]:
    """The DSP kernels' bias with the input offset in it, and their channel table."""
    p, w, b = op.params, op.input(g, 1), op.input(g, 2)
    folded = folded_bias(w.data, b.data if b is not None else None, p["input_zp"])
    # The true accumulator is bias + sum (x + xo)(w + wo): |input_offset * sum(w)| <= 128 * 128
    # per value, and a factor with a filter offset lies within 255, hence twice or four times.
    taps = (4 if p["filter_zp"] else 2) * w.shape[1]
    return folded, channel_table(p, folded, taps)


def interleave4(w: np.ndarray) -> np.ndarray:
    """[units, depth] as [ceil(units/4)][K4/4][4 units][4 values], zero-padded (K4 = depth rounded up
    to 4): the order mcu_fully_connected_s8_x4 reads it in, one pointer walking forward."""
    units, depth = w.shape
    padded = np.zeros(((units + 3) // 4 * 4, (depth + 3) // 4 * 4), dtype=w.dtype)
    padded[:units, :depth] = w
    groups, k4 = padded.shape[0] // 4, padded.shape[1]
    return padded.reshape(groups, 4, k4 // 4, 4).transpose(0, 2, 1, 3).copy()
