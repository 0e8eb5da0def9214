"""SignalWindow (TFLM signal library, custom op): each frame of the int16 input times the int16
window, shifted right by `shift` (arithmetically, in int32), saturated to int16. The window (1-D) is
applied to every run of its length in the input (TFLM's loop: the input's size must be a multiple)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, register
from mcugen.ops._signal import option, options_problem


@dataclass(frozen=True)
class WindowData:
    shift: int


@register("CUSTOM:SignalWindow")
class SignalWindow(OpDef):
    arity = ((2, 2), (1, 1))
    input_types = output_types = ("int16",)
    copies_values = True  # the signal library's int16 carries no scale
    same_shape = True

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = options_problem(op, 1)
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        if problems:
            return problems
        if len(w.shape) != 1 or not x.shape or len(x.shape) != len(y.shape):
            return ["TFLM's kernel takes a 1-D window and an input and output of one rank"]
        if int(np.prod(x.shape)) % max(w.shape[0], 1) or w.shape[0] == 0:
            return [f"input of {int(np.prod(x.shape))} values is no whole number of {w.shape[0]}-value windows: TFLM's kernel "
                    "reads past it"]
        if not 0 <= option(op, 0) <= 31:
            return [f"shift {option(op, 0)}: a shift of an int32 outside 0..31 has no value in C++"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return WindowData(option(op, 0))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, w = xs[0].astype(np.int32), xs[1].astype(np.int32)
        raw = (x.reshape(-1, w.size) * w) >> op.prepared(WindowData).shift
        return np.clip(raw, -32768, 32767).astype(np.int16).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        w = op.input(g, 1)
        params = Struct("mcu_window_params", "params", dict(
            size=int(np.prod(op.input(g, 0).shape)), window_size=w.shape[0], shift=op.prepared(WindowData).shift))
        return Call("mcu_window_s16", (params, reads(op, 0), reads(op, 1), writes(op)), in_place=0,
                    note=f"window of {w.shape[0]}, shift {op.prepared(WindowData).shift}")
