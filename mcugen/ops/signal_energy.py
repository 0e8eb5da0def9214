"""SignalEnergy (TFLM signal library, custom op): |X[i]|^2 of int16 complex bins (real, imaginary
interleaved) as uint32, for start_index <= i < end_index (re * re + im * im in int32, wrapping as
TFLM's host build does when both are -32768). TFLM leaves the other outputs as the arena held them
(undefined); mcugen writes zeros there, and compares only the rest with TFLM (OpDef.defined)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, register
from mcugen.ops._signal import option, options_problem, shapes_1d


@dataclass(frozen=True)
class EnergyRange:
    start: int
    end: int


@register("CUSTOM:SignalEnergy")
class SignalEnergy(OpDef):
    input_types = ("int16",)
    output_types = ("uint32",)
    converts = copies_values = True

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = options_problem(op, 2) or shapes_1d(g, op, range(1), range(1))
        if problems:
            return problems
        end, start = option(op, 0), option(op, 1)
        bins, outputs = op.input(g, 0).shape[0] // 2, op.output(g).shape[0]
        if not 0 <= start <= end <= min(bins, outputs):
            return [f"start_index {start} and end_index {end} reach past {bins} bins or {outputs} outputs: "
                    "TFLM's kernel reads and writes there"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return EnergyRange(option(op, 1), option(op, 0))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        r = op.prepared(EnergyRange)
        bins = xs[0].astype(np.int64).reshape(-1, 2)[r.start:r.end]
        y = np.zeros(op.output(g).shape, np.uint32)
        y[r.start:r.end] = ((bins ** 2).sum(axis=1) & 0xFFFFFFFF).astype(np.uint32)
        return y

    def defined(self, g: Graph, op: Op, k: int, given: list[np.ndarray | None]) -> np.ndarray | None:
        r = op.prepared(EnergyRange)
        mask = np.zeros(op.output(g).shape, bool)
        mask[r.start:r.end] = True
        return mask

    def lower(self, g: Graph, op: Op) -> Call | None:
        r = op.prepared(EnergyRange)
        params = Struct("mcu_energy_params", "params", dict(start=r.start, end=r.end, size=op.output(g).shape[0]))
        return Call("mcu_energy_s16", (params, reads(op), writes(op)), note=f"bins {r.start} to {r.end - 1}")
