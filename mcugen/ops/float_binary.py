"""ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE and PRELU in float32, broadcasting as numpy
(and TFLM) do: one IEEE operation per element, as TFLM's float kernels spell it (then the fused
activation's clamp for the four arithmetic ops; `a > b ? a : b` for MAXIMUM, `a < b ? a : b` for
MINIMUM, so a NaN in the second input wins; (a - b) * (a - b) for SQUARED_DIFFERENCE; `a >= 0 ? a :
a * alpha` for PRELU, alpha broadcast as its second input)."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, broadcast, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._float import FloatActivation
from mcugen.ops._quant import broadcast_shape

ARITHMETIC: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "ADD": np.add, "SUB": np.subtract, "MUL": np.multiply, "DIV": np.divide}
OTHERS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "MAXIMUM": lambda a, b: np.where(a > b, a, b), "MINIMUM": lambda a, b: np.where(a < b, a, b),
    "SQUARED_DIFFERENCE": lambda a, b: (a - b) * (a - b), "PRELU": lambda a, b: np.where(a >= 0, a, a * b)}


@register(*ARITHMETIC, *OTHERS, dtype="float32")
class FloatBinary(OpDef):
    arity = ((2, 2), (1, 1))

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        return broadcast_shape(op.input(g, 0).shape, op.input(g, 1).shape)

    def prepare(self, g: Graph, op: Op) -> object:
        return FloatActivation.of(op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        a, b = xs
        with np.errstate(all="ignore"):  # IEEE's infinities and NaNs are the answer, as in C
            if op.opcode in ARITHMETIC:
                return op.prepared(FloatActivation).clamp(ARITHMETIC[op.opcode](a, b))
            return OTHERS[op.opcode](a, b).astype(np.float32)

    def lower(self, g: Graph, op: Op) -> Call | None:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        params = Struct("mcu_binary_f32_params", "params", dict(
            operation=f"MCU_F32_{op.opcode}", activation=op.prepared(FloatActivation).fields()))
        return Call("mcu_binary_f32", (params, broadcast(a.shape, b.shape, y.shape, y.dtype), reads(op, 0),
                                       reads(op, 1), writes(op)),
                    in_place=0 if tuple(a.shape) == tuple(y.shape) else None)
