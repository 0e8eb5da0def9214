"""SignalPCAN (TFLM signal library, custom op): per-channel automatic gain control. Each channel's
noise estimate picks a gain from the int16 table (WideDynamicFunction: the estimate's bit length
selects a segment of four entries, its next 10 bits interpolate a quadratic in Q15), the signal times
the gain (in uint64) shifted right by snr_shift gives an SNR in Q12, which PcanShrink compresses into
Q6 (x^2 / 4 below 2, x - 1 above)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, register
from mcugen.ops._signal import msb32, option, options_problem, shapes_1d
from mcugen.numerics.requant import wrap_int32

SNR_BITS, OUTPUT_BITS = 12, 6  # kPcanSnrBits, kPcanOutputBits


@dataclass(frozen=True)
class PcanData:
    snr_shift: int


@register("CUSTOM:SignalPCAN")
class SignalPcan(OpDef):
    arity = ((3, 3), (1, 1))
    parameters = {2: ("int16",)}
    input_types = output_types = ("uint32",)
    copies_values = True

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = options_problem(op, 1) or shapes_1d(g, op, range(3), range(1))
        if problems:
            return problems
        x, noise, lut, y = op.input(g, 0), op.input(g, 1), op.input(g, 2), op.output(g)
        if x.shape != y.shape or noise.shape[0] < x.shape[0]:
            return [f"signal {list(x.shape)}, noise estimate {list(noise.shape)} and output {list(y.shape)}: "
                    "TFLM's kernel copies the output's size from the signal and reads the signal's of the others"]
        if not 0 <= option(op, 0) <= 63:
            return [f"snr_shift {option(op, 0)}: a shift of a uint64 outside 0..63 has no value in C++"]
        if lut.shape[0] < 4 * 32 - 6 + 3:  # the segment of the largest estimate reads lut[4 * 32 - 6 + 2]
            return [f"gain table of {lut.shape[0]} entries: TFLM's kernel reads up to {4 * 32 - 6 + 3}"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return PcanData(option(op, 0))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        n = op.output(g).shape[0]
        x, noise, lut = xs[0][:n].astype(np.uint64), xs[1][:n].astype(np.int64), xs[2].astype(np.int64)
        gain = wide_dynamic(noise, lut).astype(np.int64) & 0xFFFFFFFF  # int16 into uint32: sign-extended
        snr = ((x * gain.astype(np.uint64)) >> np.uint64(op.prepared(PcanData).snr_shift)) & np.uint64(0xFFFFFFFF)
        return shrink(snr.astype(np.int64)).astype(np.uint32)

    def lower(self, g: Graph, op: Op) -> Call | None:
        params = Struct("mcu_pcan_params", "params", dict(channels=op.output(g).shape[0],
                                                           snr_shift=op.prepared(PcanData).snr_shift))
        return Call("mcu_pcan_u32", (params, reads(op, 0), reads(op, 1), reads(op, 2), writes(op)), in_place=0)


def wide_dynamic(x: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """WideDynamicFunction, int16 results (as int64)."""
    interval = msb32(x)
    base = np.clip(4 * interval - 6, 0, len(lut) - 3)
    frac = np.where(interval < 11, x << np.maximum(11 - interval, 0), x >> np.maximum(interval - 11, 0)) & 0x3FF
    result = (lut[base + 2] * frac) >> 5
    result = wrap_int32(result + wrap_int32((lut[base + 1] & 0xFFFFFFFF) << 5))
    result = wrap_int32(result * frac)
    result = wrap_int32(result + (1 << 14)) >> 15
    result = ((result + lut[base] + 32768) & 0xFFFF) - 32768
    return np.where(x <= 2, lut[np.minimum(x, 2)], result)


def shrink(x: np.ndarray) -> np.ndarray:
    """PcanShrink on uint32 values (as int64), uint32 arithmetic."""
    small = ((x * x) & 0xFFFFFFFF) >> (2 + 2 * SNR_BITS - OUTPUT_BITS)
    large = ((x >> (SNR_BITS - OUTPUT_BITS)) - (1 << OUTPUT_BITS)) & 0xFFFFFFFF
    return np.where(x < (2 << SNR_BITS), small, large)

