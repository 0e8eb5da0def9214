"""CONV_2D: TFLM reference_integer_ops::ConvPerChannel, as im2col + one matmul; int8 or 16x8
(int16 activations, int32 or int64 bias: mcugen.ops._int16)."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from mcugen.epilogue import OutputStage, input_zero_point_in_bias
from mcugen.lowering import (Call, Const, Scratch, Slice, Struct, activation, dims, layer_name, per_channel, reads,
                             tile, writes)
from mcugen.ops import OpDef, register
from mcugen.ops._int16 import accumulator_bits, bias64, wide_output
from mcugen.ops._quant import (channel_multipliers, channel_table, float_bias, folded_bias, fused_range,
                               problems_fused_activation, require_bias_length, weight_problems)
from mcugen.ops._window import Taps, describe, geometry, window_shape
from mcugen.runtime import c_define
from mcugen.variants import variant


@register("CONV_2D")
class Conv2D(OpDef):
    arity = ((2, 3), (1, 1))
    parameters = {1: ("int8",), 2: ("int32", "int64")}  # weights, bias
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g, op):
        w = op.input(g, 1)
        if len(w.shape) != 4:
            raise ValueError(f"filter {list(w.shape)} is not 4-D [OC, KH, KW, IC]")
        require_bias_length(op.input(g, 2), w.shape[0])
        return window_shape(op.attrs, op.input(g, 0).shape, w.shape[1:3], w.shape[0])
    def check(self, g, op):
        problems = weight_problems(g, op) + problems_fused_activation(op)
        x, w = op.input(g, 0), op.input(g, 1)
        if not problems and x.shape[3] != w.shape[3]:
            problems.append(f"grouped convolution ({x.shape[3]} input channels, filter depth "
                            f"{w.shape[3]}) is not supported")
        if w.quant is not None and np.any(w.quant.zero_point != 0):
            problems.append("filter zero point is not 0")
        return problems + wide_problems(g, op)

    def prepare(self, g, op):
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        mult, shift = channel_multipliers(x, w, y, w.shape[0])
        act_min, act_max = fused_range(g, op)
        geo = geometry(op.attrs, x.shape[1:3], w.shape[1:3])
        weights = w.data.reshape(w.shape[0], -1).astype(np.float64).T.copy()
        if x.dtype == "int16":  # no zero points: TFLM's int16 kernel takes them as 0
            return dict(geo, multiplier=mult, shift=shift, act_min=act_min, act_max=act_max, input_zp=0,
                        output_zp=0, accumulator=accumulator_bits(g, op, 2),
                        golden_bias=bias64(op.input(g, 2), w.shape[0]), golden_weights=weights,
                        golden_taps=Taps.of(geo, x.shape[1:3], w.shape[1:3]))
        return dict(geo, multiplier=mult, shift=shift, act_min=act_min, act_max=act_max,
                    input_zp=x.quant.zp, output_zp=y.quant.zp,
                    # host-only: the golden model's matmul operand and epilogue, made once
                    golden_weights=weights, golden_taps=Taps.of(geo, x.shape[1:3], w.shape[1:3]),
                    golden_output=OutputStage(mult, shift, y.quant.zp, act_min, act_max, weights,
                                              input_zero_point_in_bias(float_bias(op.input(g, 2), w.shape[0]),
                                                                       weights, x.quant.zp)))

    def run(self, g, op, xs):
        x, w = xs[0], xs[1]
        p = op.params
        n = x.shape[0]
        cout, kh, kw, cin = w.shape
        oh, ow = p["out_hw"]
        cols = p["golden_taps"].gather(x, p["input_zp"]).reshape(n * oh * ow, kh * kw * cin)
        # float64 matmul is exact here: every partial sum is an integer below 2^53.
        acc = np.dot(cols.astype(np.float64), p["golden_weights"])
        if x.dtype == np.int16:
            return wide_output(acc, p).reshape(n, oh, ow, cout)
        return p["golden_output"](acc).reshape(n, oh, ow, cout)

    def macs(self, g, op):
        w, y = op.input(g, 1), op.output(g)
        return int(np.prod(y.shape)) * int(np.prod(w.shape[1:]))

    def lower(self, g, op):
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
        return conv_call(g, op, op.params, x.shape, w.data, b.data if b is not None else None, y.shape,
                         describe(op.params, w.shape[1:3], op.attrs.get("padding", "VALID")))


def wide_problems(g, op) -> list[str]:
    """What TFLM's conv kernels refuse in the activations' and bias's types."""
    x, b = op.input(g, 0), op.input(g, 2)
    if b is not None and b.dtype == "int64" and x.dtype == "int8":
        return ["int64 bias with int8 activations: TFLM's int8 kernel reads int32 there"]
    if b is not None and b.is_const and b.dtype == "int64" and np.abs(b.data.astype(np.float64)).max(initial=0) >= 2.0 ** 47:
        return ["an int64 bias of 2^47 or more: TFLM's 16x8 kernels assume accumulators below that"]
    return []


CONV_BLOCK = c_define("MCU_CONV_BLOCK")


def conv_scratch_bytes(taps: int) -> int:
    """The optimized kernel's scratch: CONV_BLOCK widened patches of K4 int16, and one K4-byte patch."""
    k4 = (taps + 3) // 4 * 4
    return CONV_BLOCK * k4 * 2 + k4


def _conv_params(p: dict) -> Struct:
    return Struct("mcu_conv_params", "params", dict(
        input_offset=-p["input_zp"], output_offset=p["output_zp"], stride=tile(p["stride"]),
        padding=tile(p["pad"]), dilation=tile(p["dilation"]), activation=activation(p)))


def conv_call(g, op, p: dict, x_shape, filter_data: np.ndarray, bias, y_shape, note: str) -> Call:
    """The reference CONV_2D call for filter [OC, KH, KW, IC] and the geometry and quantization in p."""
    shapes = (dims("input_dims", x_shape), reads(op), dims("filter_dims", filter_data.shape))
    if op.input(g, 0).dtype == "int16":
        return Call("mcu_conv2d_s16", (_conv_params(p), per_channel(p), p["accumulator"], *shapes,
                                       Const("filter", filter_data), Const("bias", p["golden_bias"]),
                                       dims("output_dims", y_shape), writes(op)),
                    note=note + f", int16 activations, int{p['accumulator']} accumulator")
    return Call("mcu_conv2d_s8", (_conv_params(p), per_channel(p), *shapes, Const("filter", filter_data),
                                  Const("bias", bias) if bias is not None else None, dims("output_dims", y_shape),
                                  writes(op)), note=note)


def conv_x6_call(op, p: dict, x_shape, filter_data: np.ndarray, bias, y_shape, note: str) -> Call:
    """The same int8 CONV_2D on mcu_conv2d_s8_x6 (DSP): a channel table, scratch, and the filter with
    3 spare bytes (it reads rows a word at a time)."""
    taps = int(np.prod(filter_data.shape[1:]))
    spare = np.concatenate([filter_data.reshape(-1), np.zeros(3, dtype=filter_data.dtype)])
    return Call("mcu_conv2d_s8_x6", (
        _conv_params(p), channel_table(p, bias, taps), dims("input_dims", x_shape), reads(op),
        dims("filter_dims", filter_data.shape), Const("filter", spare),
        Const("bias", bias) if bias is not None else None, dims("output_dims", y_shape), writes(op),
        Scratch(conv_scratch_bytes(taps))),
        note=note + ", six positions at a time", in_place=0 if pointwise_in_place(p, filter_data.shape) else None)


def fc_params(p: dict, filter_zp: int) -> Struct:
    """FULLY_CONNECTED's parameters (a pointwise conv runs on its kernels too)."""
    return Struct("mcu_fc_params", "params", dict(
        input_offset=-p["input_zp"], filter_offset=-filter_zp, output_offset=p["output_zp"], activation=activation(p)))


@variant("CONV_2D", kernel="mcu_fully_connected_s8_mve", needs="mve")
def _pointwise_mve(g, op):
    """A 1x1 conv at stride 1 without padding is a FULLY_CONNECTED over its N*H*W positions as rows."""
    x, w, b, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
    p = op.params
    if x.dtype != "int8" or w.shape[1:3] != (1, 1) or tuple(p["stride"]) != (1, 1) or tuple(p["pad"]) != (0, 0):
        return None
    units, depth = w.shape[0], w.shape[3]
    rows = int(np.prod(y.shape[:3]))
    folded = folded_bias(w.data, b.data if b is not None else None, p["input_zp"])
    return Call("mcu_fully_connected_s8_mve", (
        fc_params(p, 0), per_channel(p), Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)), reads(op),
        Const("filter", w.data.reshape(units, depth)), Const("bias_folded", folded),
        Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
        note=describe(p, (1, 1), op.attrs.get("padding", "VALID")) + f", {rows} positions as the rows of a "
        "FULLY_CONNECTED on Helium, input offset folded into the bias")


def conv_mve_call(op, p: dict, x_shape, filter_data: np.ndarray, bias, y_shape, note: str) -> Call:
    """The same int8 CONV_2D on mcu_conv2d_s8_mve (Helium): the input offset folded into the bias, and
    scratch for one patch."""
    folded = folded_bias(filter_data, bias, p["input_zp"])
    return Call("mcu_conv2d_s8_mve", (
        _conv_params(p), per_channel(p), dims("input_dims", x_shape), reads(op), dims("filter_dims", filter_data.shape),
        Const("filter", filter_data), Const("bias_folded", folded), dims("output_dims", y_shape), writes(op),
        Scratch(int(np.prod(filter_data.shape[1:])), "int8_t")),
        note=note + ", Helium: each patch gathered, then 16 products per instruction, input offset folded into "
        "the bias")


def _int8_conv(call):
    """A variant lowering for int8 CONV_2D layers: `call` (conv_mve_call, conv_x6_call) on the op's own filter."""
    def lower(g, op):
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
        if x.dtype != "int8":
            return None
        return call(op, op.params, x.shape, w.data, b.data if b is not None else None, y.shape,
                    describe(op.params, w.shape[1:3], op.attrs.get("padding", "VALID")))
    return lower


variant("CONV_2D", kernel="mcu_conv2d_s8_mve", needs="mve")(_int8_conv(conv_mve_call))
variant("CONV_2D", kernel="mcu_conv2d_s8_x6", needs="dsp")(_int8_conv(conv_x6_call))


def pointwise_in_place(p: dict, filter_shape) -> bool:
    """The optimized kernel widens a block's patches into scratch before writing the block's outputs;
    for a 1x1 kernel without padding, output position q's bytes end where input position q's end
    (or before, when out_c <= in_c), and input position q is at or after q: nothing unread is overwritten."""
    out_c, kh, kw, in_c = filter_shape
    return (kh, kw) == (1, 1) and tuple(p["pad"]) == (0, 0) and out_c <= in_c


@dataclass(frozen=True)
class Strips:
    """A CONV_2D on mcu_conv2d_s8_x6 run a strip of rows at a time inside its consumer's call
    (passes/fuse_strips.py): the arguments of mcu_conv2d_rows_s8_x6 before its rows, and the tile."""

    args: tuple  # the conv's call arguments but its output and scratch, constants named after the conv
    rows: int  # output rows per strip: the fewest whose positions fill whole blocks of CONV_BLOCK
    tile_bytes: int  # one strip of output
    scratch: Scratch  # the conv kernel's own
    kernels: tuple = ("mcu_conv2d_rows_s8_x6", "mcu_conv2d_s8_x6")


def strips_of(g, conv_op) -> Strips | None:
    """How conv_op runs in strips, or None when it can't: only the DSP conv of one image does."""
    call = conv_op.call
    y = conv_op.output(g)
    if call is None or call.kernel != "mcu_conv2d_s8_x6" or len(y.shape) != 4 or y.shape[0] != 1:
        return None
    *args, _, scratch = call.args
    renamed = tuple(dataclasses.replace(a, layer=layer_name(g, conv_op)) if isinstance(a, (Const, Struct)) else a
                    for a in args)
    assert not any(isinstance(a, Slice) and a.writable for a in renamed)
    _, out_h, out_w, out_c = y.shape
    rows = min(CONV_BLOCK // math.gcd(out_w, CONV_BLOCK), out_h)
    return Strips(renamed, rows, rows * out_w * out_c, scratch)
