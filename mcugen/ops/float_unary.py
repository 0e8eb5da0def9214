"""Elementwise float32 ops, each as TFLM's float kernel spells it, in numpy float32 here and in
mcu_unary_f32 on the target (comparisons in TFLM's order, so NaNs go where TFLM's go). e^x, e^x - 1,
log and tanh are mcu_expf's, mcu_expm1f's, mcu_logf's and mcu_tanhf's (mcugen.ops._float: glibc's bit
for bit); square roots are IEEE's, correctly rounded everywhere."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ir.options import LeakyReluOptions
from mcugen.ops import OpDef, Outputs, register
from mcugen.ops._float import F32, expf, expm1f, logf, tanhf

ONE, ZERO, SIX = F32(1.0), F32(0.0), F32(6.0)


def _logistic(x: np.ndarray) -> np.ndarray:
    """TFLM's cut-offs: past 16.619047 the quotient rounds to 1 anyway; below -9, e^x alone."""
    return np.where(x > F32(16.619047164916992188), ONE, np.where(x < F32(-9.0), expf(x), ONE / (ONE + expf(-x))))


def _hard_swish(x: np.ndarray) -> np.ndarray:
    r = np.where(ZERO < x + F32(3.0), x + F32(3.0), ZERO)  # std::max(0, x + 3): a NaN gives 0
    return x * np.where(r < SIX, r, SIX) / SIX


FUNCTIONS: dict[str, Callable[[np.ndarray, float], np.ndarray]] = {
    "RELU": lambda x, _: np.where(x < ZERO, ZERO, x),
    "RELU6": lambda x, _: np.where(x > SIX, SIX, np.where(x < ZERO, ZERO, x)),
    "ABS": lambda x, _: np.abs(x),
    "NEG": lambda x, _: -x,
    "SQUARE": lambda x, _: x * x,
    "SQRT": lambda x, _: np.sqrt(x),
    "RSQRT": lambda x, _: ONE / np.sqrt(x),
    "EXP": lambda x, _: expf(x),
    "LOG": lambda x, _: logf(x),
    "LOGISTIC": lambda x, _: _logistic(x),
    "ELU": lambda x, _: np.where(x < ZERO, expm1f(x), x),
    "TANH": lambda x, _: tanhf(x),
    "HARD_SWISH": lambda x, _: _hard_swish(x),
    "LEAKY_RELU": lambda x, alpha: np.where(x > ZERO, x, x * F32(alpha)),
}


@dataclass(frozen=True)
class UnaryData:
    alpha: float  # LEAKY_RELU's slope, as float32


@register(*FUNCTIONS, dtype="float32")
class FloatUnary(OpDef):
    same_shape = True

    def prepare(self, g: Graph, op: Op) -> object:
        options = op.options
        return UnaryData(float(F32(options.alpha)) if isinstance(options, LeakyReluOptions) else 0.0)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        with np.errstate(all="ignore"):  # IEEE's infinities and NaNs are the answer, as in C
            return FUNCTIONS[op.opcode](xs[0], op.prepared(UnaryData).alpha).astype(F32)

    def lower(self, g: Graph, op: Op) -> Call | None:
        params = Struct("mcu_unary_f32_params", "params", dict(operation=f"MCU_F32_{op.opcode}",
                                                                alpha=op.prepared(UnaryData).alpha))
        return Call("mcu_unary_f32", (params, int(np.prod(op.output(g).shape)), reads(op), writes(op)), in_place=0,
                    extra_kernels=("mcu_expf", "mcu_expm1f", "mcu_logf", "mcu_tanhf"))
