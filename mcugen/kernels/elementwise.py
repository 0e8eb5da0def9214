"""The elementwise kernels: ADD, SUB and MUL on Helium four values a vector, ADD and SUB on the DSP extension
by lookup; QUANTIZE between integers in its SMMULR form; SOFTMAX on Helium. Their tables."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.kernels.variant import Build, Variant, When, int8, when
from mcugen.ops.add import add_params
from mcugen.ops.mul import mul_params
from mcugen.ops.quantize import Requantize, requantize_call
from mcugen.ops.softmax import softmax_s8_call


def same_shapes(dtype: str) -> When:
    """Inputs and output of one shape, the output of `dtype`: the kernels walk all three as one run of values."""
    def test(g: Graph, op: Op) -> bool:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        return y.dtype == dtype and tuple(a.shape) == tuple(b.shape) == tuple(y.shape)
    return When(test, f"same_shapes({dtype})")


def as_one_run(kernel: str, params: Callable[[Op], Struct], how: str) -> Build:
    def build(g: Graph, op: Op) -> Call:
        return Call(kernel, (params(op), int(np.prod(op.output(g).shape)), reads(op, 0), reads(op, 1), writes(op)),
                    note="same shapes, " + how, in_place=0)
    return build


def _add_x4(g: Graph, op: Op) -> Call:
    call = as_one_run("mcu_add_s8_x4", lambda op: add_params(op, lookups=int(np.prod(op.output(g).shape))),
                      "each input's rescale looked up by its byte, the output's in its SMMULR form")(g, op)
    return dataclasses.replace(call, extra_kernels=("mcu_add",))  # its fallback


@when
def smmulr_exact(g: Graph, op: Op) -> bool:
    """int8 or int16 at both ends (int8 to int8 is a table) and a right shift: the SMMULR form is exact."""
    ends = {op.input(g, 0).dtype, op.output(g).dtype}
    return ends <= {"int8", "int16"} and ends != {"int8"} and op.prepared(Requantize).shift <= -1


_ADD = (
    Variant("mcu_add_s8_mve", "mve", same_shapes("int8"),
            as_one_run("mcu_add_s8_mve", add_params, "Helium: four values per vector")),
    Variant("mcu_add_s16_mve", "mve", same_shapes("int16"),
            as_one_run("mcu_add_s16_mve", add_params, "Helium: four values per vector")),
    Variant("mcu_add_s8_x4", "dsp", same_shapes("int8"), _add_x4),
)

TABLES = {
    "ADD": _ADD,
    "SUB": _ADD,
    "MUL": (
        Variant("mcu_mul_s8_mve", "mve", same_shapes("int8"),
                as_one_run("mcu_mul_s8_mve", mul_params, "Helium: four values per vector")),
        Variant("mcu_mul_s16_mve", "mve", same_shapes("int16"),
                as_one_run("mcu_mul_s16_mve", mul_params, "Helium: four values per vector")),
    ),
    "QUANTIZE": (
        Variant("mcu_requantize_int_x4", "dsp", smmulr_exact,
                lambda g, op: requantize_call(g, op, "mcu_requantize_int_x4")),
    ),
    "SOFTMAX": (
        Variant("mcu_softmax_s8_mve", "mve", int8,
                lambda g, op: softmax_s8_call(g, op, "mcu_softmax_s8_mve", ", Helium: four values per vector")),
    ),
}
