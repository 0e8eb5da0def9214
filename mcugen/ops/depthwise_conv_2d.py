"""DEPTHWISE_CONV_2D: TFLM reference_integer_ops::DepthwiseConvPerChannel.

Output channel oc = ic * depth_multiplier + m reads input channel ic only, so
the op is one small matmul per input channel: windows [P, KH*KW] times that
channel's filters [KH*KW, depth_multiplier], batched over channels.
"""
from __future__ import annotations

import numpy as np

from mcugen.epilogue import OutputStage, input_zero_point_in_bias
from mcugen.lowering import Call, Const, Scratch, Struct, activation, dims, per_channel, reads, tile, writes
from mcugen.ops import OpDef, register
from mcugen.ops._int16 import bias64, wide_output
from mcugen.ops._quant import (channel_multipliers, channel_table, float_bias, fold_input_offset, fused_range, problems_fused_activation,
                               require_bias_length, weight_problems)
from mcugen.ops._window import Taps, describe, geometry, window_shape
from mcugen.ops.conv_2d import conv_call, conv_x6_call, wide_problems
from mcugen.variants import variant


@register("DEPTHWISE_CONV_2D")
class DepthwiseConv2D(OpDef):
    arity = ((2, 3), (1, 1))
    parameters = {1: ("int8",), 2: ("int32", "int64")}  # weights, bias
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g, op):
        w = op.input(g, 1)
        if len(w.shape) != 4:
            raise ValueError(f"filter {list(w.shape)} is not 4-D [1, KH, KW, OC]")
        x = op.input(g, 0)
        multiplier = op.attrs.get("depth_multiplier", 1)
        if len(x.shape) == 4 and multiplier * x.shape[3] != w.shape[3]:  # TFLM loops over the option
            raise ValueError(f"depth_multiplier {multiplier} with {x.shape[3]} input channels "
                             f"and {w.shape[3]} filter channels")
        require_bias_length(op.input(g, 2), w.shape[3])
        return window_shape(op.attrs, x.shape, w.shape[1:3], w.shape[3])
    def check(self, g, op):
        problems = weight_problems(g, op, channel_axis=3) + problems_fused_activation(op)
        x, w = op.input(g, 0), op.input(g, 1)
        if w.shape[3] % x.shape[3]:
            problems.append(f"{w.shape[3]} output channels is not a multiple of {x.shape[3]} input channels")
        if w.quant is not None and np.any(w.quant.zero_point != 0):
            problems.append("filter zero point is not 0")
        b = op.input(g, 2)
        if x.dtype == "int16" and b is not None and b.dtype != "int64":
            problems.append(f"{b.dtype} bias with int16 activations: TFLM's int16 kernel reads int64 there")
        return problems + wide_problems(g, op)

    def prepare(self, g, op):
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        mult, shift = channel_multipliers(x, w, y, w.shape[3])
        act_min, act_max = fused_range(g, op)
        geo = geometry(op.attrs, x.shape[1:3], w.shape[1:3])
        depth_multiplier = w.shape[3] // x.shape[3]
        _, kh, kw, _ = w.shape
        per_channel = w.data.reshape(kh * kw, x.shape[3], depth_multiplier).transpose(1, 0, 2)
        taps = w.data.reshape(kh * kw, -1).astype(np.float64)
        if x.dtype == "int16":  # no zero points: TFLM's int16 kernel takes them as 0
            return dict(geo, multiplier=mult, shift=shift, act_min=act_min, act_max=act_max, input_zp=0,
                        output_zp=0, depth_multiplier=depth_multiplier, accumulator=64,
                        golden_bias=bias64(op.input(g, 2), w.shape[3]),
                        golden_weights=per_channel.astype(np.float64).copy(),
                        golden_taps=Taps.of(geo, x.shape[1:3], w.shape[1:3]))
        return dict(geo, multiplier=mult, shift=shift, act_min=act_min, act_max=act_max,
                    input_zp=x.quant.zp, output_zp=y.quant.zp, depth_multiplier=depth_multiplier,
                    # host-only: the golden model's batched matmul operand and epilogue, made once
                    golden_weights=per_channel.astype(np.float64).copy(),
                    golden_taps=Taps.of(geo, x.shape[1:3], w.shape[1:3]),
                    golden_output=OutputStage(mult, shift, y.quant.zp, act_min, act_max, taps,
                                              input_zero_point_in_bias(float_bias(op.input(g, 2), w.shape[3]),
                                                                       taps, x.quant.zp)))

    def run(self, g, op, xs):
        x, w = xs[0], xs[1]
        p = op.params
        n, _, _, cin = x.shape
        _, kh, kw, cout = w.shape
        oh, ow = p["out_hw"]
        cols = p["golden_taps"].gather(x, p["input_zp"]).reshape(n * oh * ow, kh * kw, cin)
        cols = cols.transpose(2, 0, 1).astype(np.float64)
        # exact in float64, as for CONV_2D
        acc = np.matmul(cols, p["golden_weights"]).transpose(1, 0, 2).reshape(n, oh, ow, cout)
        if x.dtype == np.int16:
            return wide_output(acc, p)
        return p["golden_output"](acc)

    def macs(self, g, op):
        w, y = op.input(g, 1), op.output(g)
        return int(np.prod(y.shape)) * w.shape[1] * w.shape[2]

    def lower(self, g, op):
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
        p = op.params
        if x.shape[3] == 1:
            return conv_call(g, op, p, x.shape, *_as_conv(op, w, b, y))
        shapes = (dims("input_dims", x.shape), reads(op), dims("filter_dims", w.shape))
        if x.dtype == "int16":
            return Call("mcu_depthwise_conv2d_s16", (_dw_params(p), per_channel(p), *shapes, Const("filter", w.data),
                                                     Const("bias", p["golden_bias"]), dims("output_dims", y.shape),
                                                     writes(op)),
                        note=_note(op, w) + ", int16 activations")
        return Call("mcu_depthwise_conv2d_s8", (_dw_params(p), per_channel(p), *shapes, Const("filter", w.data),
                                                Const("bias", b.data) if b is not None else None,
                                                dims("output_dims", y.shape), writes(op)), note=_note(op, w))


def _note(op, w) -> str:
    p = op.params
    return describe(p, w.shape[1:3], op.attrs.get("padding", "VALID")) + f", depth multiplier {p['depth_multiplier']}"


def _dw_params(p: dict) -> Struct:
    return Struct("mcu_dw_conv_params", "params", dict(
        input_offset=-p["input_zp"], output_offset=p["output_zp"], depth_multiplier=p["depth_multiplier"],
        stride=tile(p["stride"]), padding=tile(p["pad"]), dilation=tile(p["dilation"]), activation=activation(p)))


def _as_conv(op, w, b, y) -> tuple:
    """Every output channel reads the one input channel: the same sums as a CONV_2D whose filter
    [OC, KH, KW, 1] is this one transposed, which runs on the faster kernel. conv_call's arguments
    after the input shape."""
    return (w.data.transpose(3, 1, 2, 0), b.data if b is not None else None, y.shape,
            _note(op, w) + " on one input channel: run as CONV_2D")


@variant("DEPTHWISE_CONV_2D", kernel="mcu_conv2d_s8_x6", needs="dsp")
def _one_channel_x6(g, op):
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
    if x.dtype != "int8" or x.shape[3] != 1:
        return None
    return conv_x6_call(op, op.params, x.shape, *_as_conv(op, w, b, y))


@variant("DEPTHWISE_CONV_2D", kernel="mcu_depthwise_conv2d_s8_x4", needs="dsp")
def _depthwise_x4(g, op):
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
    p = op.params
    if x.dtype != "int8" or x.shape[3] == 1 or p["depth_multiplier"] != 1:
        return None
    (oh, ow), (kh, kw) = p["out_hw"], w.shape[1:3]
    rows = (oh - 1) * p["stride"][0] + (kh - 1) * p["dilation"][0] + 1
    cols = (ow - 1) * p["stride"][1] + (kw - 1) * p["dilation"][1] + 1
    folded = fold_input_offset(b.data if b is not None else None,
                               w.data.reshape(-1, w.shape[3]).astype(np.int64).sum(axis=0), p["input_zp"])
    return Call("mcu_depthwise_conv2d_s8_x4", (
        _dw_params(p), channel_table(p, folded, kh * kw, groups_of=4), dims("input_dims", x.shape), reads(op),
        dims("filter_dims", w.shape), Const("filter_x4", widen4(w.data)),
        Const("bias_folded", np.pad(folded, (0, -len(folded) % 4))), dims("output_dims", y.shape), writes(op),
        Scratch(rows * cols * 4, "int8_t")),
        note=_note(op, w) + ", four channels at a time from a padded window, input offset folded into the bias, "
        "in place", in_place=0)


def widen4(w: np.ndarray) -> np.ndarray:
    """Filter [1, KH, KW, C] as int16 [ceil(C/4)][KH*KW][4], a tap's four channels in the order
    (c, c+2, c+1, c+3) that SXTB16 unpacks an input word in, zero past C: mcu_depthwise_conv2d_s8_x4's."""
    taps = w.reshape(-1, w.shape[3]).astype(np.int16)
    padded = np.zeros((taps.shape[0], (w.shape[3] + 3) // 4 * 4), dtype=np.int16)
    padded[:, :w.shape[3]] = taps
    groups = padded.reshape(taps.shape[0], -1, 4)[:, :, [0, 2, 1, 3]]
    return groups.transpose(1, 0, 2).copy()
