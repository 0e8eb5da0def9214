"""The TFLM signal library's filter bank ops (custom ops of the micro_speech audio front end):

- SignalFilterBank: triangular mel filters over a uint32 power spectrum into uint64 channel sums.
  Channel i (of num_channels + 1, the first a scratch TFLM discards) sums, over its width of bins from
  its frequency start, the bin times its weight; the next channel starts from the same bins times the
  unweights (1 - weight). Weights are int16 multiplied as uint64 (a negative one wraps, as in C).
- SignalFilterBankSquareRoot: each uint64 channel's rounded integer square root (TFLM's Sqrt64: the
  32-bit routine below 2^32, capped at 0xFFFF there and 0xFFFFFFFF above), shifted right by the
  int32 scalar input (the FFT's auto-scale bits).
- SignalFilterBankSpectralSubtraction: a running noise estimate per channel (state TFLM's kernel keeps
  in a buffer of its own: zeros at boot and on reset), smoothed in Q(spectral_subtraction_bits) with
  even and odd channels' own coefficients, subtracted from the signal (never below
  min_signal_remaining of it); outputs the signal and a copy of the estimate.
- SignalFilterBankLog: log of each channel (shifted left by input_correction_bits, uint32) in TFLM's
  fixed point (Log32: a 128-segment correction table, then ln 2 in Q16, then output_scale), saturated
  to int16; 0 where the shifted value is 0 or 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Slice, State, Struct, reads, writes
from mcugen.ops import OWN_STATE, OpDef, Outputs, register
from mcugen.ops._signal import first_written, msb32, option, options_problem, shapes_1d

U32, U64 = np.uint32, np.uint64


@register("CUSTOM:SignalFilterBank")
class FilterBank(OpDef):
    arity = ((6, 6), (1, 1))
    parameters = {k: ("int16",) for k in range(1, 6)}
    input_types = ("uint32",)
    output_types = ("uint64",)
    converts = copies_values = True

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = options_problem(op, 1) or shapes_1d(g, op, range(6), range(1))
        if problems:
            return problems
        channels = option(op, 0)
        x, weights, unweights, starts, weight_starts, widths = (op.input(g, k) for k in range(6))
        y = op.output(g)
        tables = (starts, weight_starts, widths)
        if channels < 0 or any(t.shape[0] < channels + 1 for t in tables) or y.shape[0] > channels:
            return [f"num_channels {channels} with tables of {[t.shape[0] for t in tables]} and {y.shape[0]} "
                    "outputs: TFLM's kernel reads num_channels + 1 of each table and copies the output's size "
                    "from num_channels + 1 sums"]
        if not all(t.is_const for t in tables):
            return ["its channel tables are computed at run time: mcugen checks them at build time (make them "
                    "constants)"]
        s, w, n = (t.values.astype(np.int64)[:channels + 1] for t in tables)
        outside = (s < 0) | (s + n > x.shape[0]) | (w < 0) | (w + n > min(weights.shape[0], unweights.shape[0]))
        if np.any(outside & (n > 0)):  # a channel of no width reads nothing
            return ["a channel's bins or weights reach outside the spectrum or the weight tables: TFLM's kernel "
                    "reads there"]
        return []

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        channels = option(op, 0)
        x = xs[0].astype(U64)
        weights, unweights = (xs[k].astype(np.int64).astype(U64) for k in (1, 2))
        starts, weight_starts, widths = (xs[k].astype(np.int64) for k in (3, 4, 5))
        sums = np.zeros(channels + 1, U64)
        carried = U64(0)
        with np.errstate(over="ignore"):
            for i in range(channels + 1):
                bins = x[starts[i]:starts[i] + max(widths[i], 0)]
                at = slice(weight_starts[i], weight_starts[i] + len(bins))
                sums[i] = carried + (weights[at] * bins).sum(dtype=U64)
                carried = (unweights[at] * bins).sum(dtype=U64)
        return sums[1:1 + op.output(g).shape[0]]

    def lower(self, g: Graph, op: Op) -> Call | None:
        params = Struct("mcu_filter_bank_params", "params", dict(channels=option(op, 0),
                                                                  outputs=op.output(g).shape[0]))
        return Call("mcu_filter_bank_u32", (params, *(reads(op, k) for k in range(6)), writes(op)),
                    note=f"{option(op, 0)} channels")


@register("CUSTOM:SignalFilterBankSquareRoot")
class FilterBankSquareRoot(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}
    input_types = ("uint64",)
    output_types = ("uint32",)
    converts = copies_values = True

    def check(self, g: Graph, op: Op) -> list[str]:
        x, bits, y = op.input(g, 0), op.input(g, 1), op.output(g)
        if len(bits.shape) != 0:
            return ["TFLM's kernel takes the scale bits as a scalar"]
        problems = shapes_1d(g, op, range(1), range(1))
        if not problems and y.shape[0] < x.shape[0]:
            problems = [f"output of {y.shape[0]} for {x.shape[0]} channels: TFLM's kernel writes past it"]
        if not problems and bits.is_const and not 0 <= int(bits.values) <= 31:
            problems = [f"scale bits {int(bits.values)}: a shift of a uint32 outside 0..31 has no value in C++"]
        return problems

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        shift = int(xs[1]) & 31  # beyond 31 C has no value: mcugen masks as the x86 oracle's shifter does
        roots = np.array([sqrt64(int(v)) for v in xs[0].tolist()], np.int64) >> shift
        y = np.zeros(op.output(g).shape, U32)
        y[:len(roots)] = roots
        return y

    def defined(self, g: Graph, op: Op, k: int, given: list[np.ndarray | None]) -> np.ndarray | None:
        if given[1] is not None:
            return super().defined(g, op, k, given)  # the shift computes with every root
        return first_written(g, op, given)

    def lower(self, g: Graph, op: Op) -> Call | None:
        return Call("mcu_filter_bank_sqrt_u64", (op.input(g, 0).shape[0], reads(op, 0), reads(op, 1), writes(op)))


def sqrt64(n: int) -> int:
    """TFLM's Sqrt64 (and Sqrt32 below 2^32): the integer root, plus one where the remainder exceeds it."""
    root = math.isqrt(n)
    cap = 0xFFFF if n >> 32 == 0 else 0xFFFFFFFF
    return root + 1 if n - root * root > root and root != cap else root


@dataclass(frozen=True)
class Subtraction:
    channels: int
    smoothing: int
    one_minus_smoothing: int
    alternate_smoothing: int
    alternate_one_minus_smoothing: int
    min_signal_remaining: int
    smoothing_bits: int
    spectral_subtraction_bits: int
    clamping: int


@register("CUSTOM:SignalFilterBankSpectralSubtraction")
class SpectralSubtraction(OpDef):
    arity = ((1, 1), (2, 2))
    input_types = output_types = ("uint32",)
    copies_values = True
    stateful = True

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = options_problem(op, 9) or shapes_1d(g, op, range(1), range(2))
        if problems:
            return problems
        p = self._options(op)
        sizes = [op.input(g, 0).shape[0], op.output(g, 0).shape[0], op.output(g, 1).shape[0]]
        if sizes != [p.channels] * 3:
            return [f"num_channels {p.channels} with signal, output and noise estimate of {sizes}: TFLM's kernel "
                    "reads and writes num_channels of each"]
        if not 0 <= p.smoothing_bits <= 31 or not 0 <= p.spectral_subtraction_bits <= 63:
            return [f"smoothing_bits {p.smoothing_bits} or spectral_subtraction_bits {p.spectral_subtraction_bits}:"
                    " a shift outside the type's width has no value in C++"]
        return []

    def _options(self, op: Op) -> Subtraction:
        v = [option(op, k) for k in range(9)]  # sorted keys: alternate_one_minus_smoothing, ...
        return Subtraction(channels=v[4], smoothing=v[6] & 0xFFFFFFFF, one_minus_smoothing=v[5] & 0xFFFFFFFF,
                           alternate_smoothing=v[1] & 0xFFFFFFFF, alternate_one_minus_smoothing=v[0] & 0xFFFFFFFF,
                           min_signal_remaining=v[3] & 0xFFFFFFFF, smoothing_bits=v[7],
                           spectral_subtraction_bits=v[8], clamping=int(v[2] != 0))

    def prepare(self, g: Graph, op: Op) -> object:
        return self._options(op)

    def own_state(self, g: Graph, op: Op) -> np.ndarray | None:
        return np.zeros(max(option(op, 4), 0), U32)

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        p = op.prepared(Subtraction)
        k = op.facts.state[OWN_STATE]
        x = xs[0].astype(U64)
        odd = np.arange(p.channels) % 2 == 1
        smoothing = np.where(odd, p.alternate_smoothing, p.smoothing).astype(U64)
        keep = np.where(odd, p.alternate_one_minus_smoothing, p.one_minus_smoothing).astype(U64)
        scaled = (x << U64(p.smoothing_bits)) & U64(0xFFFFFFFF)
        with np.errstate(over="ignore"):
            noise = ((scaled * smoothing + state[k].astype(U64) * keep) >> U64(p.spectral_subtraction_bits)) \
                & U64(0xFFFFFFFF)
        over = noise > scaled
        estimate = np.where(over, scaled, noise)
        state[k] = np.where(over & bool(p.clamping), scaled, noise).astype(U32)
        floor = ((x * U64(p.min_signal_remaining)) >> U64(p.spectral_subtraction_bits)) & U64(0xFFFFFFFF)
        subtracted = (scaled - estimate) >> U64(p.smoothing_bits)
        return [np.maximum(subtracted, floor).astype(U32), state[k].copy()]

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(Subtraction)
        params = Struct("mcu_spectral_subtraction_params", "params", dict(
            channels=p.channels, smoothing=p.smoothing, one_minus_smoothing=p.one_minus_smoothing,
            alternate_smoothing=p.alternate_smoothing, alternate_one_minus_smoothing=p.alternate_one_minus_smoothing,
            min_signal_remaining=p.min_signal_remaining, smoothing_bits=p.smoothing_bits,
            spectral_subtraction_bits=p.spectral_subtraction_bits, clamping=p.clamping))
        return Call("mcu_spectral_subtraction_u32", (
            params, reads(op), writes(op), Slice((op.outputs[1],), writable=True),
            State(op.facts.state[OWN_STATE], writable=True)))


@dataclass(frozen=True)
class LogData:
    correction_bits: int
    output_scale: int


LOG_LUT = np.array([
    0, 224, 442, 654, 861, 1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944, 3087, 3224,
    3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934, 5001,
    5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631,
    5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332,
    5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341, 4264,
    4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659, 2549,
    2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224, 1094, 963, 830, 695, 559, 421, 282, 142, 0,
    0], np.int64)  # TFLM's kLogLut (signal/src/log.cc): the log2 curve's deviation from a line, per 1/128


@register("CUSTOM:SignalFilterBankLog")
class FilterBankLog(OpDef):
    input_types = ("uint32",)
    output_types = ("int16",)
    converts = copies_values = True

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = options_problem(op, 2) or shapes_1d(g, op, range(1), range(1))
        if problems:
            return problems
        if op.output(g).shape[0] < op.input(g, 0).shape[0]:
            return ["output shorter than its input: TFLM's kernel writes past it"]
        if not 0 <= option(op, 0) <= 31:
            return [f"input_correction_bits {option(op, 0)}: a shift of a uint32 outside 0..31 has no value in C++"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return LogData(option(op, 0), option(op, 1) & 0xFFFFFFFF)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(LogData)
        scaled = (xs[0].astype(np.int64) << p.correction_bits) & 0xFFFFFFFF
        logs = np.minimum(log32(np.maximum(scaled, 2), p.output_scale), 32767)
        y = np.zeros(op.output(g).shape, np.int16)
        y[:len(scaled)] = np.where(scaled > 1, logs, 0)
        return y

    def defined(self, g: Graph, op: Op, k: int, given: list[np.ndarray | None]) -> np.ndarray | None:
        return first_written(g, op, given)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(LogData)
        params = Struct("mcu_filter_bank_log_params", "params", dict(
            channels=op.input(g, 0).shape[0], correction_bits=p.correction_bits, output_scale=p.output_scale))
        return Call("mcu_filter_bank_log_u32", (params, reads(op), writes(op)))


def log32(x: np.ndarray, out_scale: int) -> np.ndarray:
    """TFLM's Log32 of uint32 values > 1 (as int64), uint32 results."""
    integer = msb32(x) - 1
    frac = x - (np.int64(1) << integer)  # int32: fits, x < 2^(integer + 1)
    frac = np.where(integer < 16, frac << np.maximum(16 - integer, 0), frac >> np.maximum(integer - 16, 0))
    base_seg = frac >> (16 - 7)
    c0, c1 = LOG_LUT[base_seg], LOG_LUT[base_seg + 1]
    rel_pos = ((c1 - c0) * (frac - 512 * base_seg)) >> 16
    fraction = (frac + c0 + rel_pos) & 0xFFFFFFFF
    log2 = ((integer << 16) + fraction) & 0xFFFFFFFF
    loge = ((45426 * log2 + 32768) >> 16) & 0xFFFFFFFF
    return ((out_scale * loge + 32768) & 0xFFFFFFFF) >> 16
