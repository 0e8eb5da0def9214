"""What CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED share: their prepared data, their kernels'
parameter structs, and the layer as a conv kernel runs it (a depthwise layer on one channel runs as a
CONV_2D)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mcugen.numerics.epilogue import OutputStage, input_zero_point_in_bias
from mcugen.ir.graph import Graph, Op, Tensor
from mcugen import ops
from mcugen.ir.calls import nibbles
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, tile, writes
from mcugen.ir.options import BiasTyped
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import Rescale, float_bias
from mcugen.ops._window import Taps, Window
from mcugen.numerics.requant import multiplier_shift


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
    if b is None and isinstance(op.options, BiasTyped) and op.options.int32_bias:
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


@dataclass(frozen=True)
class ConvLayer:
    """A layer as a CONV_2D kernel runs it: its filter [OC, KH, KW, IC] (a one-channel depthwise layer's
    transposed), bias, shapes, and the note its call carries."""

    op: Op
    p: ConvData
    x_shape: tuple[int, ...]
    filter: np.ndarray
    bias: np.ndarray | None
    y_shape: tuple[int, ...]
    note: str

    @property
    def taps(self) -> int:
        """Products per output: KH * KW * IC."""
        return int(np.prod(self.filter.shape[1:]))


def conv_call(g: Graph, layer: ConvLayer) -> Call:
    """The reference CONV_2D call."""
    op, p = layer.op, layer.p
    shapes = (dims("input_dims", layer.x_shape), reads(op), dims("filter_dims", layer.filter.shape))
    if p.wide is not None:
        return Call("mcu_conv2d_s16", (conv_params(p.window, p.quant), p.quant.per_channel(), p.wide.bits, *shapes,
                                       Const("filter", layer.filter), Const("bias", p.wide.bias),
                                       dims("output_dims", layer.y_shape), writes(op)),
                    note=layer.note + f", int16 activations, int{p.wide.bits} accumulator")
    kernel, filter_arg = reference_filter(g, op, "mcu_conv2d_s8", layer.filter)
    return Call(kernel, (conv_params(p.window, p.quant), p.quant.per_channel(), *shapes, filter_arg,
                         Const("bias", layer.bias) if layer.bias is not None else None,
                         dims("output_dims", layer.y_shape), writes(op)), note=layer.note)


def fc_params(q: Rescale, filter_zp: int, per_tensor: bool = False) -> Struct:
    """FULLY_CONNECTED's parameters (a pointwise conv runs on its kernels too); `per_tensor`: the DSP kernels'
    channel table is one group of rows for every group of units."""
    return Struct("mcu_fc_params", "params", dict(
        input_offset=-q.input_zp, filter_offset=-filter_zp, output_offset=q.output_zp, activation=q.activation(),
        per_tensor=int(per_tensor)))


