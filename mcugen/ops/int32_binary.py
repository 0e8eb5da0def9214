"""ADD, SUB, MUL, DIV, MAXIMUM and MINIMUM on unquantized int32 tensors, as TFLM's reference kernels
compute them (audio front ends' arithmetic, index arithmetic), broadcasting as numpy does.

C++'s int32 arithmetic, as TFLM's host build runs it: sums, differences and products wrap; DIV
truncates toward zero. Then the clamp: ADD's is the whole int32 range whatever the fused activation
(TFLM sets it so), SUB's, MUL's and DIV's the fused activation's (RELU: [0, 2^31 - 1], RELU6: [0, 6],
RELU_N1_TO_1: [-1, 1]). MAXIMUM and MINIMUM take no activation. A division by zero or of -2^31 by -1
has no value in C++ (the host oracle traps): a constant divisor holding a zero is refused; at run
time mcugen defines both (0 and -2^31), as a Cortex-M's SDIV gives them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, broadcast, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import broadcast_shape
from mcugen.numerics.requant import wrap_int32

INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1
RANGES = {"RELU": (0, INT32_MAX), "RELU6": (0, 6), "RELU_N1_TO_1": (-1, 1)}


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)  # truncating, in int64
    return np.where(b == 0, 0, q)


OPERATIONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "ADD": np.add, "SUB": np.subtract, "MUL": np.multiply, "DIV": _div, "MAXIMUM": np.maximum,
    "MINIMUM": np.minimum}


@dataclass(frozen=True)
class Int32Clamp:
    min: int
    max: int


@register(*OPERATIONS, dtype="int32")
class Int32Binary(OpDef):
    arity = ((2, 2), (1, 1))

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        return broadcast_shape(op.input(g, 0).shape, op.input(g, 1).shape)

    def check(self, g: Graph, op: Op) -> list[str]:
        divisor = op.input(g, 1)
        if op.opcode == "DIV" and divisor.is_const and np.any(divisor.values == 0):
            return [f"its constant divisor '{divisor.name}' holds a zero: an int32 division by zero has no value "
                    "in TFLM (its host build traps)"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        fused = op.activation
        if op.opcode in ("ADD", "MAXIMUM", "MINIMUM"):
            fused = "NONE"
        return Int32Clamp(*RANGES.get(fused, (INT32_MIN, INT32_MAX)))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        a, b = (np.asarray(x, np.int64) for x in xs)
        wrapped = wrap_int32(OPERATIONS[op.opcode](a, b))
        c = op.prepared(Int32Clamp)
        return np.clip(wrapped, c.min, c.max).astype(np.int32)

    def lower(self, g: Graph, op: Op) -> Call | None:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        c = op.prepared(Int32Clamp)
        params = Struct("mcu_binary_s32_params", "params", dict(
            operation=f"MCU_S32_{op.opcode}", activation_min=c.min, activation_max=c.max))
        return Call("mcu_binary_s32", (params, broadcast(a.shape, b.shape, y.shape, y.dtype), reads(op, 0),
                                       reads(op, 1), writes(op)),
                    in_place=0 if tuple(a.shape) == tuple(y.shape) else None)
