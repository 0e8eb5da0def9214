"""What CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED share: their prepared data, their kernels'
parameter structs, the conv calls a depthwise layer on one channel also makes, and the strips a
conv runs in inside its consumer's call (passes/fuse_strips.py)."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import numpy as np

from mcugen.numerics.epilogue import OutputStage, input_zero_point_in_bias
from mcugen.ir.graph import Graph, Op, Tensor
from mcugen import ops
from mcugen.ir.calls import nibbles
from mcugen.ir.lowering import Call, Const, Scratch, Slice, Struct, dims, layer_name, reads, tile, writes
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import Rescale, channel_table, float_bias, folded_bias, pruned_channels, settle_dead_channels
from mcugen.ops._window import Taps, Window
from mcugen.numerics.requant import multiplier_shift
from mcugen.runtime import c_define


@dataclass(frozen=True)
class Golden:
    """Host-only, made once: the golden model's matmul operand (float64, exact for these sums),
    which input pixels each output's taps read (None for FULLY_CONNECTED), and for int8 layers the
    epilogue with the input zero point folded into the bias (16x8 layers use Wide.output)."""

    weights: np.ndarray
    taps: Taps | None
    output: OutputStage | None

    @classmethod
    def of(cls, g: Graph, op: Op, weights: np.ndarray, taps: Taps | None, q: Rescale, wide: Wide | None,
           channels: int, epilogue_weights: np.ndarray | None = None) -> "Golden":
        """epilogue_weights: the weights as OutputStage sums them per channel, where not `weights`."""
        if wide is not None:
            return cls(weights, taps, None)
        summed = weights if epilogue_weights is None else epilogue_weights
        bias = input_zero_point_in_bias(float_bias(op.optional_input(g, 2), channels), summed, q.input_zp)
        return cls(weights, taps, OutputStage(q.multiplier, q.shift, q.output_zp, q.act_min, q.act_max, summed, bias))


@dataclass(frozen=True)
class ConvData:
    """CONV_2D's (and, with DepthwiseData, DEPTHWISE_CONV_2D's) prepared data."""

    window: Window
    quant: Rescale
    wide: Wide | None  # 16x8 layers: the accumulator and the int64 bias; None for int8
    golden: Golden = field(compare=False, repr=False)

    def output(self, acc: np.ndarray) -> np.ndarray:
        """The golden epilogue of exact sums acc (channel last)."""
        if self.wide is not None:
            return self.wide.output(acc, self.quant)
        assert self.golden.output is not None
        return self.golden.output(acc)


@dataclass(frozen=True)
class FullyConnectedData:
    quant: Rescale
    filter_zp: int
    wide: Wide | None
    golden: Golden = field(compare=False, repr=False)


def wide_problems(g: Graph, op: Op) -> list[str]:
    """What TFLM's conv kernels refuse in the activations' and bias's types."""
    x, b = op.input(g, 0), op.optional_input(g, 2)
    if b is not None and b.dtype == "int64" and x.dtype == "int8":
        return ["int64 bias with int8 activations: TFLM's int8 kernel reads int32 there"]
    if b is not None and b.is_const and b.dtype == "int64" and np.abs(b.values.astype(np.float64)).max(initial=0) >= 2.0 ** 47:
        return ["an int64 bias of 2^47 or more: TFLM's 16x8 kernels assume accumulators below that"]
    if b is None and op.attrs.get("quantized_bias_type") == 2:  # TensorType INT32: an int32 accumulator
        return []
    return wide_shift_problems(x, op.input(g, 1), b, op.output(g))


def wide_shift_problems(x: Tensor, w: Tensor, b: Tensor | None, y: Tensor) -> list[str]:
    """A 16x8 layer with an int64 accumulator: TFLM's int64 requantize rounds by 2^(14 - shift) and
    shifts by 15 - shift, which C defines for no shift past 14."""
    if x.dtype != "int16" or (b is not None and b.dtype != "int64") or not (x.quant and w.quant and y.quant):
        return []
    shift = max(multiplier_shift(float(x.q.s) * float(s) / float(y.q.s)) for s in w.q.scale)
    if shift > 14:
        return [f"a rescale of 2^{shift} (input scale x weight scale / output scale): TFLM's int64 requantize "
                "shifts by a negative amount there, which C leaves undefined"]
    return []


CONV_BLOCK = c_define("MCU_CONV_BLOCK")


def conv_scratch_bytes(taps: int) -> int:
    """The optimized kernel's scratch: CONV_BLOCK widened patches of K8 int16, and one K8-byte patch."""
    k8 = (taps + 7) // 8 * 8
    return CONV_BLOCK * k8 * 2 + k8


def conv_params(window: Window, q: Rescale) -> Struct:
    return Struct("mcu_conv_params", "params", dict(
        input_offset=-q.input_zp, output_offset=q.output_zp, stride=tile(window.stride),
        padding=tile(window.pad), dilation=tile(window.dilation), activation=q.activation()))


def reference_filter(g: Graph, op: Op, kernel: str, values: np.ndarray) -> tuple[str, Const]:
    """The reference kernel for the layer's filter type and its filter argument (`values` in the order
    the kernel reads them): an INT4 filter's layer runs the _s4 twin of the int8 kernel on its weights
    two to a byte, as the .tflite file holds them, rather than unpacking them into RAM first."""
    if ops.int4_filter(g, op):
        return kernel.replace("_s8", "_s4"), Const("packed_filter", nibbles(values))
    return kernel, Const("filter", values)


def conv_call(g: Graph, op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray,
              bias: np.ndarray | None, y_shape: tuple[int, ...], note: str) -> Call:
    """The reference CONV_2D call for filter [OC, KH, KW, IC] and p's geometry and quantization."""
    shapes = (dims("input_dims", x_shape), reads(op), dims("filter_dims", filter_data.shape))
    if p.wide is not None:
        return Call("mcu_conv2d_s16", (conv_params(p.window, p.quant), p.quant.per_channel(), p.wide.bits, *shapes,
                                       Const("filter", filter_data), Const("bias", p.wide.bias),
                                       dims("output_dims", y_shape), writes(op)),
                    note=note + f", int16 activations, int{p.wide.bits} accumulator")
    kernel, filter_arg = reference_filter(g, op, "mcu_conv2d_s8", filter_data)
    return Call(kernel, (conv_params(p.window, p.quant), p.quant.per_channel(), *shapes, filter_arg,
                         Const("bias", bias) if bias is not None else None, dims("output_dims", y_shape), writes(op)),
                note=note)


def conv_x6_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray, bias: np.ndarray | None,
                 y_shape: tuple[int, ...], note: str, wide: bool = False, split: bool = False) -> Call:
    """The same int8 CONV_2D on mcu_conv2d_s8_x6 (DSP): a channel table, scratch, and the filter laid
    out for it (x6_filter); `wide`: on mcu_conv2d_s8_w16, the filter widened (w16_constants); `split`: on
    mcu_conv2d_split_s8_w16, the widened filter's taps in patch_order."""
    taps = int(np.prod(filter_data.shape[1:]))
    quant, bias = settle_dead_channels(p.quant, filter_data, bias)
    if wide or split:
        kernel = "mcu_conv2d_split_s8_w16" if split else "mcu_conv2d_s8_w16"
        channels, filter_arg, bias_arg = w16_constants(quant, filter_data, bias, taps, split)
        note += ", kernel rows split into whole words and tails" if split else ""
    else:
        kernel, channels, filter_arg = "mcu_conv2d_s8_x6", channel_table(quant, bias, taps), Const(
            "filter", x6_filter(filter_data))
        bias_arg = Const("bias", folded_bias(filter_data, bias, quant.input_zp))
    return Call(kernel, (
        conv_params(p.window, p.quant), channels, dims("input_dims", x_shape), reads(op),
        dims("filter_dims", filter_data.shape), filter_arg, bias_arg, dims("output_dims", y_shape), writes(op),
        Scratch(conv_scratch_bytes(taps))),
        note=note + ", six positions at a time" + (", weights widened to int16 pairs" if wide or split else ""),
        in_place=0 if pointwise_in_place(p.window, filter_data.shape) else None)


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
    fast = table.data[:, 4] == 1
    if -8 <= filter_data.min() <= filter_data.max() <= 7:
        fast = np.zeros_like(fast)
    factor = np.where(fast, 2, 1)
    marked = table.data.copy()
    marked[:, 4] = np.where(fast, 2, marked[:, 4])
    doubled = filter_data.astype(np.int16) * factor.reshape(-1, *[1] * (filter_data.ndim - 1)).astype(np.int16)
    return (dataclasses.replace(table, data=marked), Const("filter_pairs", w16_filter(doubled, split=split)),
            Const("bias", (folded.astype(np.int64) * factor).astype(np.int32)))


def conv_live_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray, bias: np.ndarray | None,
                   y_shape: tuple[int, ...], note: str, int4: bool = False) -> Call | None:
    """mcu_conv2d_s8_w16 (or, `int4`, mcu_conv2d_s4_x6) on the channels whose weights are not all zero, where
    some are (pruned: MLPerf's MobileNet has 4-234 of 64-256 in its last nine pointwise layers); the others'
    one value each is written from a row of them. None for a layer with none pruned, or all."""
    dead, values = pruned_channels(p.quant, filter_data, bias)
    if not dead.any() or dead.all():
        return None
    live = np.flatnonzero(~dead)
    quant = dataclasses.replace(p.quant, multiplier=p.quant.multiplier[live], shift=p.quant.shift[live])
    kept, kept_bias = filter_data[live], (bias[live] if bias is not None else np.zeros(len(live), np.int32))
    taps = int(np.prod(filter_data.shape[1:]))
    packed = _s4_x6_filter(kept) if int4 else None
    if int4 and packed is None:
        return None
    if packed is not None:
        kernel, how, filter_arg = "mcu_conv2d_live_s4_x6", "INT4 weights read packed", Const("packed_filter", packed)
        channels, bias_arg = channel_table(quant, kept_bias, taps), Const("bias", folded_bias(kept, kept_bias,
                                                                                              quant.input_zp))
    else:
        kernel, how = "mcu_conv2d_live_s8_w16", "weights widened to int16 pairs"
        channels, filter_arg, bias_arg = w16_constants(quant, kept, kept_bias, taps)
    return Call(kernel, (
        conv_params(p.window, p.quant), channels, dims("input_dims", x_shape), reads(op),
        dims("filter_dims", kept.shape), filter_arg, bias_arg,
        Const("live", live.astype(np.int16)), Const("pruned", np.where(dead, values, 0).astype(np.int8)),
        dims("output_dims", y_shape), writes(op), Scratch(conv_scratch_bytes(taps))),
        note=note + f", six positions at a time, {how}, {len(live)} of "
                    f"{len(dead)} channels computed (the others' weights are all zero)",
        in_place=0 if pointwise_in_place(p.window, filter_data.shape) else None)


def conv_w16_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray, bias: np.ndarray | None,
                  y_shape: tuple[int, ...], note: str) -> Call:
    return conv_x6_call(op, p, x_shape, filter_data, bias, y_shape, note, wide=True)


def conv_split_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray,
                    bias: np.ndarray | None, y_shape: tuple[int, ...], note: str) -> Call | None:
    """mcu_conv2d_split_s8_w16 for kernels whose rows (KW * IC values) are longer than a word and not
    whole words, as a first layer's 3x3 over 3 channels; None for others."""
    row = filter_data.shape[2] * filter_data.shape[3]
    if row <= 4 or row % 4 == 0:
        return None
    return conv_x6_call(op, p, x_shape, filter_data, bias, y_shape, note, split=True)


def w16_filter(filter_data: np.ndarray, split: bool = False) -> np.ndarray:
    """x6_filter widened to int16, each word of four taps as (w0, w2, w1, w3): the pairs SMLAD takes
    against the widened patches' (x0, x2), (x1, x3), which SXTB16 made of the int8 words in the loop."""
    return x6_filter(filter_data, split=split).reshape(-1, 4)[:, [0, 2, 1, 3]].reshape(-1).astype(np.int16)


def patch_order(k_h: int, row: int) -> np.ndarray:
    """The order mcu_conv2d_split_s8_w16 widens a patch of k_h kernel rows of `row` values in
    (mcu_widen_rows): each row's whole words, row after row, then the values past them, row after row.
    A 3x3x3 first layer's rows of 9 then go into the patch as two words each, straight from the image."""
    whole = row // 4 * 4
    taps = np.arange(k_h * row).reshape(k_h, row)
    return np.concatenate([taps[:, :whole].reshape(-1), taps[:, whole:].reshape(-1)])


def x6_filter(filter_data: np.ndarray, int16_inputs: bool = False, split: bool = False) -> np.ndarray:
    """Filter [OC, KH, KW, IC] as mcu_conv2d_s8_x6 reads it: each channel's K taps (in patch_order when
    `split`) padded with zeros to K8 (a multiple of 8), channels in pairs whose words (four taps each)
    alternate, an odd last channel's words alone after them. For int16 inputs (mcu_conv2d_s16_x6), each
    four taps ordered (w0, w2, w1, w3): SXTB16 then pairs them as the inputs come, (w0, w1) and (w2, w3)."""
    oc, k_h, k_w, in_c = filter_data.shape
    rows = filter_data.reshape(oc, -1)
    if split:
        rows = rows[:, patch_order(k_h, k_w * in_c)]
    k8 = -(-rows.shape[1] // 8) * 8
    words = np.zeros((oc, k8), dtype=filter_data.dtype)
    words[:, :rows.shape[1]] = rows
    if int16_inputs:
        words = words.reshape(oc, k8 // 4, 4)[:, :, [0, 2, 1, 3]].reshape(oc, k8)
    paired = oc // 2 * 2
    interleaved = words[:paired].reshape(oc // 2, 2, k8 // 4, 4).transpose(0, 2, 1, 3)
    return np.concatenate([interleaved.reshape(-1), words[paired:].reshape(-1)])


def s4_pairs(values: np.ndarray) -> np.ndarray:
    """The DSP kernels' INT4 layout (MCU_S4_PAIRS_) of weights in an int8 layout whose eights are four values
    of a channel (or unit) c0 then four of c1 (x6_filter's pairs, interleave4's): each eight as one word of
    nibbles (c0 w0, c0 w1, c1 w0, c1 w1, c0 w2, c0 w3, c1 w2, c1 w3), whose SXTB16 halves pair with an
    input word's."""
    return nibbles(values.reshape(-1, 8)[:, [0, 1, 4, 5, 2, 3, 6, 7]])


def units4_blocks(rows: np.ndarray) -> np.ndarray:
    """The Helium kernels' int8 layout (mcu_block_bytes_u4) of weights [units, depth]: blocks of four units,
    each in chunks of 16 values holding the chunk's values of each unit in turn, zero-padded to whole
    blocks and chunks."""
    units, depth = rows.shape
    padded = np.zeros((-(-units // 4) * 4, -(-depth // 16) * 16), np.int8)
    padded[:units, :depth] = rows
    return padded.reshape(-1, 4, padded.shape[1] // 16, 16).transpose(0, 2, 1, 3).copy()


def s4_blocks(rows: np.ndarray) -> np.ndarray:
    """The Helium kernels' INT4 layout (mcu_dot4_rows_s4) of weights [units, depth]: each row in blocks of 32
    values, zero-padded to whole blocks, byte j of a block holding value j (low nibble) and j + 16 (high)."""
    units, depth = rows.shape
    padded = np.zeros((units, -(-depth // 32) * 32), np.int8)
    padded[:, :depth] = rows
    blocks = padded.reshape(units, -1, 2, 16)  # [unit][block][low, high half][16]
    return nibbles(blocks.transpose(0, 1, 3, 2))


def _s4_x6_filter(filter_data: np.ndarray) -> np.ndarray | None:
    """mcu_conv2d_s4_x6's packed filter: s4_pairs of x6_filter's order, an odd last channel paired with
    zeros; None where its sums times 16 could pass int32 (K8 * 255 * 8 * 16 >= 2^31)."""
    if -(-int(np.prod(filter_data.shape[1:])) // 8) * 8 * 255 * 8 * 16 >= 2 ** 31:
        return None
    even = np.concatenate([filter_data, np.zeros((filter_data.shape[0] % 2, *filter_data.shape[1:]), np.int8)])
    return s4_pairs(x6_filter(even))


def conv_s4_live_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray,
                      bias: np.ndarray | None, y_shape: tuple[int, ...], note: str) -> Call | None:
    return conv_live_call(op, p, x_shape, filter_data, bias, y_shape, note, int4=True)


def helium_filter(kernel: str, rows: np.ndarray, int4: bool) -> tuple[str, Const, str]:
    """A Helium row kernel (`kernel`, the int8 one), its filter argument for weights [units, depth] and the
    note's words: with `int4`, the _s4 twin on s4_blocks."""
    if int4:
        return kernel.replace("_s8", "_s4"), Const("packed_filter", s4_blocks(rows)), ", INT4 weights read packed"
    return kernel, Const("filter", units4_blocks(rows)), ""


def conv_s4_x6_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray,
                    bias: np.ndarray | None, y_shape: tuple[int, ...], note: str) -> Call | None:
    """An INT4-filter CONV_2D on mcu_conv2d_s4_x6 (DSP), its weights packed (_s4_x6_filter); None where
    they can't be."""
    taps = int(np.prod(filter_data.shape[1:]))
    packed = _s4_x6_filter(filter_data)
    if packed is None:
        return None
    quant, bias = settle_dead_channels(p.quant, filter_data, bias)
    return Call("mcu_conv2d_s4_x6", (
        conv_params(p.window, p.quant), channel_table(quant, bias, taps), dims("input_dims", x_shape), reads(op),
        dims("filter_dims", filter_data.shape), Const("packed_filter", packed),
        Const("bias", folded_bias(filter_data, bias, p.quant.input_zp)),
        dims("output_dims", y_shape), writes(op), Scratch(conv_scratch_bytes(taps))),
        note=note + ", six positions at a time, INT4 weights read packed",
        in_place=0 if pointwise_in_place(p.window, filter_data.shape) else None)


def conv_s16_x6_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray,
                     y_shape: tuple[int, ...], note: str) -> Call | None:
    """A 16x8 CONV_2D on mcu_conv2d_s16_x6 (DSP), when every sum of products fits int32 (its loop adds
    them so: K * 32768 * 128 < 2^31); None otherwise."""
    assert p.wide is not None
    taps = int(np.prod(filter_data.shape[1:]))
    if taps * 32768 * 128 >= 2 ** 31:
        return None
    k8 = -(-taps // 8) * 8
    return Call("mcu_conv2d_s16_x6", (
        conv_params(p.window, p.quant), p.quant.per_channel(), p.wide.bits, dims("input_dims", x_shape), reads(op),
        dims("filter_dims", filter_data.shape), Const("filter", x6_filter(filter_data, int16_inputs=True)),
        Const("bias", p.wide.bias), dims("output_dims", y_shape), writes(op),
        Scratch(CONV_BLOCK * k8 * 2 + k8 * 2)),
        note=note + f", int16 activations, int{p.wide.bits} accumulator, six positions at a time",
        in_place=0 if pointwise_in_place(p.window, filter_data.shape) else None)


def conv_s16_mve_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray,
                      y_shape: tuple[int, ...], note: str) -> Call | None:
    """A 16x8 CONV_2D on mcu_conv2d_s16_mve (Helium), when every sum of products fits int32; None otherwise."""
    assert p.wide is not None
    taps = int(np.prod(filter_data.shape[1:]))
    if taps * 32768 * 128 >= 2 ** 31:
        return None
    return Call("mcu_conv2d_s16_mve", (
        conv_params(p.window, p.quant), p.quant.per_channel(), p.wide.bits, dims("input_dims", x_shape), reads(op),
        dims("filter_dims", filter_data.shape), Const("filter", filter_data), Const("bias", p.wide.bias),
        dims("output_dims", y_shape), writes(op), Scratch(taps * 2, "int16_t")),
        note=note + f", int16 activations, int{p.wide.bits} accumulator, Helium: eight products per instruction")


def conv_mve_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray, bias: np.ndarray | None,
                  y_shape: tuple[int, ...], note: str, int4: bool = False) -> Call:
    """The same int8 CONV_2D on mcu_conv2d_s8_mve (Helium), or with `int4` on mcu_conv2d_s4_mve, its weights
    packed (s4_blocks): the input offset folded into the bias, and scratch for two patches, each
    rounded up to whole chunks of 16 values (mcu_conv2d_mve)."""
    folded = folded_bias(filter_data, bias, p.quant.input_zp)
    rows = filter_data.reshape(filter_data.shape[0], -1)
    kernel, filter_arg, how = helium_filter("mcu_conv2d_s8_mve", rows, int4)
    return Call(kernel, (
        conv_params(p.window, p.quant), p.quant.per_channel(), dims("input_dims", x_shape), reads(op),
        dims("filter_dims", filter_data.shape), filter_arg, Const("bias_folded", folded),
        dims("output_dims", y_shape), writes(op), Scratch(2 * -(-rows.shape[1] // 16) * 16, "int8_t")),
        note=note + f", Helium: patches gathered two at a time, then 16 products per instruction{how}, input offset "
        "folded into the bias")


def conv_s4_mve_call(op: Op, p: ConvData, x_shape: tuple[int, ...], filter_data: np.ndarray,
                     bias: np.ndarray | None, y_shape: tuple[int, ...], note: str) -> Call:
    return conv_mve_call(op, p, x_shape, filter_data, bias, y_shape, note, int4=True)


def fc_params(q: Rescale, filter_zp: int) -> Struct:
    """FULLY_CONNECTED's parameters (a pointwise conv runs on its kernels too)."""
    return Struct("mcu_fc_params", "params", dict(
        input_offset=-q.input_zp, filter_offset=-filter_zp, output_offset=q.output_zp, activation=q.activation()))


def pointwise_in_place(window: Window, filter_shape: tuple[int, ...]) -> bool:
    """The optimized kernel widens a block's patches into scratch before writing the block's outputs;
    for a 1x1 kernel without padding, output position q's bytes end where input position q's end
    (or before, when out_c <= in_c), and input position q is at or after q: nothing unread is overwritten."""
    out_c, kh, kw, in_c = filter_shape
    return (kh, kw) == (1, 1) and tuple(window.pad) == (0, 0) and out_c <= in_c


@dataclass(frozen=True)
class Strips:
    """A CONV_2D on mcu_conv2d_s8_x6 or _w16 run a strip of rows at a time inside its consumer's call
    (passes/fuse_strips.py): the arguments of mcu_conv2d_rows_s8_x6 before its rows, and the tile."""

    args: tuple[object, ...]  # the conv's call arguments but its output and scratch, constants named after the conv,
    # and the filter's bits after it
    rows: int  # output rows per strip: the fewest whose positions fill whole blocks of CONV_BLOCK
    tile_bytes: int  # one strip of output
    scratch: Scratch  # the conv kernel's own
    kernels: tuple[str, ...] = ("mcu_conv2d_rows_s8_x6", "mcu_conv2d_s8_x6", "mcu_conv2d_s8_w16")


# the conv kernels a strip runs, and their filter's bits
STRIP_KERNELS = {"mcu_conv2d_s8_x6": 8, "mcu_conv2d_s8_w16": 16, "mcu_conv2d_s4_x6": 4}


def strips_of(g: Graph, conv_op: Op) -> Strips | None:
    """How conv_op runs in strips, or None when it can't: only the DSP conv of one image does."""
    call = conv_op.call
    y = conv_op.output(g)
    if call is not None and call.kernel == "mcu_conv2d_live_s4_x6":
        x, w, b = conv_op.input(g, 0), conv_op.input(g, 1), conv_op.optional_input(g, 2)
        call = conv_s4_x6_call(conv_op, conv_op.prepared(ConvData), x.shape, w.values,
                               b.values if b is not None else None, y.shape, "")
    elif call is not None and call.kernel in ("mcu_conv2d_live_s8_w16", "mcu_conv2d_split_s8_w16"):
        # the rows kernel computes every channel with taps in their own order: a layer on its live channels
        # alone, or on split kernel rows, runs its strips as the dense widened conv
        x, w, b = conv_op.input(g, 0), conv_op.input(g, 1), conv_op.optional_input(g, 2)
        call = conv_w16_call(conv_op, conv_op.prepared(ConvData), x.shape, w.values,
                             b.values if b is not None else None, y.shape, "")
    if call is None or call.kernel not in STRIP_KERNELS or len(y.shape) != 4 or y.shape[0] != 1:
        return None
    *args, _, scratch = call.args
    args.insert(6, STRIP_KERNELS[call.kernel])  # after the filter: its bits
    assert isinstance(scratch, Scratch)
    renamed = tuple(dataclasses.replace(a, layer=layer_name(g, conv_op)) if isinstance(a, (Const, Struct)) else a
                    for a in args)
    assert not any(isinstance(a, Slice) and a.writable for a in renamed)
    _, out_h, out_w, out_c = y.shape
    rows = min(CONV_BLOCK // math.gcd(out_w, CONV_BLOCK), out_h)
    int4 = ("mcu_conv2d_s4_x6",) if call.kernel == "mcu_conv2d_s4_x6" else ()  # the rows kernel's weak reference
    return Strips(renamed, rows, rows * out_w * out_c, scratch, Strips.kernels + int4)


def feeding_strips(g: Graph, conv_op: Op) -> tuple[Op, Strips] | None:
    """The conv that writes conv_op's input, when only conv_op reads it (no view between) and it runs in
    strips: a consumer of conv_op may run both (a chain, Call.fuses)."""
    t = conv_op.inputs[0]
    writer = next((op for op in g.ops if t in op.outputs), None)
    if writer is None or t in g.outputs or sum(op.inputs.count(t) for op in g.ops) != 1:
        return None
    strips = strips_of(g, writer)
    return None if strips is None else (writer, strips)


def rows_read(g: Graph, conv_op: Op) -> tuple[int, int, int]:
    """conv_op's input rows as one output row reads them: (stride, leading pad, span)."""
    window = conv_op.prepared(ConvData).window
    return window.stride[0], window.pad[0], (conv_op.input(g, 1).shape[1] - 1) * window.dilation[0] + 1
