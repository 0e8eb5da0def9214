"""Helpers for the quantization facts several ops share."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np

from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Struct, activation, reads, writes
from mcugen.ops import OpDef, Outputs
from mcugen.numerics.requant import activation_range, quantize_multiplier, requantize
from mcugen.runtime import c_define


@dataclass(frozen=True)
class Multiplier:
    """A real factor as TFLM's QuantizeMultiplier stores it: m * 2^(shift - 31)."""

    multiplier: int
    shift: int

    @classmethod
    def of(cls, real: float) -> "Multiplier":
        return cls(*quantize_multiplier(real))

    def fields(self) -> dict[str, int]:
        """As a C struct of the two (mcu_rescale)."""
        return dict(multiplier=self.multiplier, shift=self.shift)


@dataclass(frozen=True)
class Rescale:
    """What TFLM's Prepare computes for a layer that sums products and requantizes them (conv,
    depthwise, FULLY_CONNECTED, TRANSPOSE_CONV): a (multiplier, shift) per output channel, the
    fused activation's output range and the zero points the kernel adds."""

    multiplier: np.ndarray  # int64, one per output channel
    shift: np.ndarray
    act_min: int
    act_max: int
    input_zp: int
    output_zp: int

    @classmethod
    def of(cls, g: Graph, op: Op, x: Tensor, w: Tensor, y: Tensor, channels: int,
           zero_points: bool = True) -> "Rescale":
        """For x*w -> y; zero_points False: both taken as 0 (TFLM's int16 conv and depthwise)."""
        scales = w.q.scale if w.q.per_channel else np.repeat(w.q.scale, channels)
        pairs = [quantize_multiplier(float(x.q.s) * float(s) / float(y.q.s)) for s in scales]
        return cls(np.array([m for m, _ in pairs], dtype=np.int64), np.array([s for _, s in pairs], dtype=np.int64),
                   *fused_range(g, op), x.q.zp if zero_points else 0, y.q.zp if zero_points else 0)

    def per_channel(self) -> Struct:
        return Struct("mcu_per_channel_quant", "quant", dict(
            multiplier=Const("multiplier", self.multiplier.astype(np.int32)),
            shift=Const("shift", self.shift.astype(np.int32))))

    def activation(self) -> dict[str, int]:
        return activation(self.act_min, self.act_max)


def float_bias(b: Tensor | None, channels: int) -> np.ndarray:
    """A conv/FC bias as float64 (exact for int32) for the golden model's float matmul; zeros if absent."""
    return b.values.astype(np.float64) if b is not None else np.zeros(channels)


def fused_range(g: Graph, op: Op) -> tuple[int, int]:
    """The output's clamp: the fused activation's range (TFLM CalculateActivationRangeQuantized), or where a
    QUANTIZE was folded into op (passes/fold_quantizes.py), that range moved to its zero point."""
    if op.facts.clamp is not None:
        return op.facts.clamp
    y = op.output(g)
    info = np.iinfo(y.dtype)
    return activation_range(op.activation, y.q.s, y.q.zp,
                            int(info.min), int(info.max))


def problems_fused_activation(op: Op) -> list[str]:
    act = op.activation
    if act not in ("NONE", "RELU", "RELU6", "RELU_N1_TO_1"):
        return [f"fused activation {act} has no int8 kernel"]
    return []


def int4_problems(g: Graph, op: Op, per_channel: bool = True) -> list[str]:
    """Where TFLM takes an INT4 filter (conv, depthwise: int8 activations; FULLY_CONNECTED: those, and
    quantized per tensor); everywhere else its kernels refuse one."""
    w = op.input(g, 1)
    if w.dtype != "int4":
        return []
    if op.input(g, 0).dtype != "int8":
        return [f"an INT4 filter with {op.input(g, 0).dtype} activations: TFLM's kernel takes INT4 filters with "
                "int8 activations only"]
    if not per_channel and w.quant is not None and w.q.per_channel:
        return [f"an INT4 filter quantized per channel: TFLM's {op.opcode} takes INT4 filters quantized per "
                "tensor only"]
    return []


def weight_problems(g: Graph, op: Op, weight_index: int = 1, bias_index: int = 2) -> list[str]:
    """Weights and bias must be constants. Their sums may pass int32: the kernels wrap them as TFLM's
    int32 accumulator does on every Arm and x86 target (two's complement), golden model and C alike."""
    problems = []
    w = op.input(g, weight_index)
    b = op.optional_input(g, bias_index)
    if w is None or not w.is_const:
        problems.append("weights are not a constant tensor")
    if b is not None and not b.is_const:
        problems.append("bias is not a constant tensor")
    return problems


def require_bias_length(b: Tensor | None, channels: int) -> None:
    """A bias holds one value per output channel (kernels read `channels` of them); ValueError if not."""
    if b is not None and math.prod(b.shape) != channels:
        raise ValueError(f"bias '{b.name}' {list(b.shape)} for {channels} output channels")


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape numpy's (and TFLM's) broadcasting gives; ValueError when the two don't broadcast."""
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise ValueError(f"input shapes {list(a)} and {list(b)} do not broadcast") from None


def same_quant(a: Tensor, b: Tensor) -> bool:
    """As TFLM compares params.scale and params.zero_point (0 and 0 where a tensor has none)."""
    def params(t: Tensor) -> tuple[float, int]:
        return (t.q.s, t.q.zp) if t.quant is not None else (0.0, 0)
    return params(a) == params(b)


def require_same_quant(g: Graph, op: Op, inputs: Iterable[int] = (0,)) -> list[str]:
    """Where TFLM's kernel checks that the quantization agrees (int8 CONCATENATION, REDUCE_MAX, RELU6).
    Its other data-movement kernels (RESHAPE, TRANSPOSE, GATHER, PAD, STRIDED_SLICE, ...) copy the
    values as they are whatever the quantization, and so does mcugen."""
    y = op.output(g)
    bad = [i for i in inputs if not same_quant(op.input(g, i), y)]
    return [f"input {i} and the output are quantized differently (TFLM copies raw values)" for i in bad]


def require_zero_points(tensors: Iterable[Tensor], what: str) -> list[str]:
    """Several of TFLM's int16 kernels take zero points of 0 only (symmetric int16)."""
    nonzero = [t.name for t in tensors if t.quant is not None and t.q.zp != 0]
    return [f"int16 tensor '{nonzero[0]}' has a zero point other than 0 (TFLM's int16 {what} takes 0 only)"
            ] if nonzero else []


def require_const(g: Graph, op: Op, what: dict[int, str]) -> list[str]:
    """Parameters TFLM reads at Prepare (shapes, axes, paddings) must be constant tensors."""
    problems = []
    for index, name in what.items():
        t = op.optional_input(g, index)
        if t is None or not t.is_const:
            problems.append(f"{name} must be a constant tensor")
    return problems


def ints(t: Tensor) -> list[int]:
    """A constant parameter's values, once check() has made sure it is constant."""
    return [int(v) for v in t.values.reshape(-1)]


def const_ints(t: Tensor | None) -> list[int] | None:
    """A constant parameter tensor's values (axes, paddings, permutations), None if not constant; ValueError
    for one that holds no integers (TFLM's kernels read these as int32 or int64)."""
    if t is None or not t.is_const:
        return None
    if t.values.dtype.kind not in "iu":
        raise ValueError(f"parameter '{t.name}' is {t.dtype}, where TFLM's kernel reads integers")
    return [int(v) for v in t.values.reshape(-1)]


@dataclass(frozen=True)
class Axis:
    axis: int  # in [0, rank)


def require_axis(axis: int, rank: int) -> int:
    """The axis in [0, rank). TFLM refuses one outside [-rank, rank); wrapping it instead would run a
    model TFLM refuses, so that is a ValueError."""
    if not -rank <= axis < rank:
        raise ValueError(f"axis {axis} is outside [-{rank}, {rank})")
    return axis % rank


def pair_table(f: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """f(a, b) for every pair of int8 values a, b (as int64 arrays), as a [256, 256] int8 table
    indexed by their bytes: table[a.view(np.uint8), b.view(np.uint8)] == f(a, b)."""
    v = np.arange(256, dtype=np.uint8).view(np.int8).astype(np.int64)
    return np.asarray(f(v[:, None], v[None, :])).astype(np.int8)


@dataclass(frozen=True, kw_only=True)
class Paired:
    """The base of a PairOp's prepared data: `pairs`, host-only, is all 256 x 256 results of an
    int8-by-int8 op, which the golden model looks up (None for wider inputs)."""

    pairs: np.ndarray | None = field(default=None, compare=False, repr=False)


P = TypeVar("P", bound=Paired)


class PairOp(OpDef):
    """A binary op whose output is arithmetic(p, a, b) elementwise (int64 arrays in, values already
    clamped out) on its two inputs broadcast against each other, as numpy broadcasts; p is what
    prepare() returns, made by tabulated()."""

    def output_shape(self, g: Graph, op: Op) -> tuple[int, ...]:
        return broadcast_shape(op.input(g, 0).shape, op.input(g, 1).shape)

    def arithmetic(self, p: Any, a: np.ndarray, b: np.ndarray, /) -> np.ndarray:
        raise NotImplementedError

    @staticmethod
    def pairs_tabulated(g: Graph, op: Op) -> bool:
        """int8 by int8: all 65,536 results fit a table the golden model looks up."""
        return op.input(g, 0).dtype == op.input(g, 1).dtype == "int8"

    def tabulated(self, g: Graph, op: Op, p: P) -> P:
        if not self.pairs_tabulated(g, op):
            return p
        return dataclasses.replace(p, pairs=pair_table(lambda a, b: self.arithmetic(p, a, b)))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p, y = op.prepared(Paired), op.output(g)
        if p.pairs is not None:
            out = p.pairs[xs[0].view(np.uint8), xs[1].view(np.uint8)]
        else:
            out = self.arithmetic(p, xs[0].astype(np.int64), xs[1].astype(np.int64))
        return np.asarray(out).astype(y.dtype).reshape(y.shape)


@dataclass(frozen=True)
class Lut:
    """A byte-to-byte op's table: its output for each of the 256 inputs, indexed by the input byte
    read as int8, plus 128 (in C and here)."""

    table: np.ndarray  # int64 values of the output's type


def same_shape_call(g: Graph, op: Op, kernel: str, params: Struct, note: str, dtype: str = "int8") -> Call | None:
    """The call of an elementwise kernel variant (mcu_add_s8_mve, mcu_mul_s16_mve, mcu_add_s8_x4...) for an op
    of `dtype` whose inputs and output share one shape, else None: those kernels walk all three as one run of
    values."""
    a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
    if y.dtype != dtype or not tuple(a.shape) == tuple(b.shape) == tuple(y.shape):
        return None
    return Call(kernel, (params, int(np.prod(y.shape)), reads(op, 0), reads(op, 1), writes(op)),
                note="same shapes, " + note, in_place=0)


class LutOp(OpDef):
    """An elementwise op from one byte to one byte (int8 or uint8): prepare() tabulates all 256 inputs."""

    same_shape = True

    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def tabulate(self, g: Graph, op: Op) -> np.ndarray:
        x = np.arange(-128, 128, dtype=np.int64).astype(np.int8).view(op.input(g, 0).dtype)
        out = np.iinfo(op.output(g).dtype)
        return np.clip(self.table(g, op, x.astype(np.int64)), out.min, out.max).astype(np.int64)

    def prepare(self, g: Graph, op: Op) -> object:
        return Lut(self.tabulate(g, op))

    def lut(self, op: Op) -> np.ndarray:
        """The table prepare() made (ops whose record holds more say where)."""
        return op.prepared(Lut).table

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        return self.lut(op)[xs[0].view(np.int8).astype(np.int64) + 128].astype(op.output(g).dtype)

    def lower(self, g: Graph, op: Op) -> Call | None:
        size = int(np.prod(op.input(g, 0).shape))
        table = self.lut(op).astype(op.output(g).dtype).view(np.int8)
        return Call("mcu_lut", (Const("table", table), size, reads(op), writes(op)),
                    note="tabulated at build time for all 256 inputs", in_place=0)


def fold_input_offset(bias: np.ndarray | None, weight_sums: np.ndarray, input_zp: int) -> np.ndarray:
    """bias - input_zp * (each output's sum of weights), wrapping as int32 like the kernels' sums: the
    bias of a kernel that adds the input offset (-input_zp) to no input value."""
    folded = (bias.astype(np.int64) if bias is not None else 0) - int(input_zp) * weight_sums.astype(np.int64)
    return ((folded + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)


def folded_bias(filter_rows: np.ndarray, bias: np.ndarray | None, input_zp: int) -> np.ndarray:
    """fold_input_offset for a filter of one row of weights per output channel ([OC, ...])."""
    sums = filter_rows.reshape(len(filter_rows), -1).astype(np.int64).sum(axis=1)
    return fold_input_offset(bias, sums, input_zp)


FAST_BOUND = c_define("MCU_REQUANTIZE_FAST_BOUND")


def pruned_channels(p: Rescale, weights: np.ndarray, bias: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Which channels have weights all zero (pruned; weights [OC, ...]), and each channel's output if it
    were: clamp(requantize(bias) + output zero point), the one value a pruned channel gives."""
    dead = np.logical_not(weights.reshape(weights.shape[0], -1).any(axis=1))
    start = bias.astype(np.int64) if bias is not None else np.zeros(weights.shape[0], np.int64)
    return dead, np.clip(requantize(start, p.multiplier, p.shift) + p.output_zp, p.act_min, p.act_max)


def settle_dead_channels(p: Rescale, weights: np.ndarray, bias: np.ndarray | None) -> tuple[Rescale, np.ndarray | None]:
    """p and bias with every pruned channel made to give its one output through the fast
    requantization: multiplier 2^30 and shift -1 halve twice, so bias 4 * (value - zero point) gives it
    exactly. MobileNets keep biases near 2^30 on such channels, which the accumulator bound of
    channel_table would send to the slow requantization on every output."""
    dead, value = pruned_channels(p, weights, bias)
    if not dead.any():
        return p, bias
    settled = dataclasses.replace(p, multiplier=np.where(dead, 1 << 30, p.multiplier), shift=np.where(dead, -1, p.shift))
    start = bias if bias is not None else np.zeros(len(value), np.int32)
    return settled, np.where(dead, 4 * (value - p.output_zp), start).astype(np.int32)


# mcu_channel, field by field in the struct's order (8 bytes, as the C compiler lays it out)
CHANNEL_DTYPE = np.dtype([("multiplier", "<i4"), ("right", "i1"), ("fast", "u1"), ("odd", "<i2")])
CHANNEL_FIELDS = CHANNEL_DTYPE.names


def channel_table(p: Rescale, bias: np.ndarray | None, taps: int, groups_of: int = 1) -> Const:
    """The DSP kernels' mcu_channel per output channel. A channel is fast when it shifts right, its
    multiplier is not negative, no accumulator can reach 2^30 (|accumulator| <= |bias| + taps * 255 *
    128, as an offset input lies in [-255, 255] and a weight in [-128, 127]; kernels that fold offsets
    pass the bias they start from and count their taps so that the bound still holds), and its rounding
    term with the output zero point folded in, 2^(r-1) + (zero point << r) = (2 zero point + 1) << (r - 1),
    stays below 2^30 (the kernels work it out from the row's `odd`). The last channel is repeated up to a
    whole group for kernels that read channels `groups_of` at a time."""
    mult, shift = p.multiplier, p.shift
    start = np.abs(bias.astype(np.int64)) if bias is not None else np.zeros_like(mult)
    right = -shift.astype(np.int64)
    odd = 2 * np.int64(p.output_zp) + 1
    folded = np.left_shift(odd, np.clip(right - 1, 0, 40))
    fast = (shift <= -1) & (mult >= 0) & (start + taps * 255 * 128 < FAST_BOUND) & (np.abs(folded) < FAST_BOUND)
    table = np.zeros(len(mult), CHANNEL_DTYPE)
    table["multiplier"], table["right"], table["fast"], table["odd"] = mult, right, fast, odd
    table = np.concatenate([table, np.repeat(table[-1:], -len(table) % groups_of, axis=0)])
    return Const("channels", table, ctype="mcu_channel")
