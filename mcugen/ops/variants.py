"""Kernel variants: the optimized kernels beside each op's reference kernel, declared as data.

An op's module gives its reference kernel call in `OpDef.lower` (runtime_c/src/, every core). A
variant is one more C function, in a folder named after the ISA feature it needs
(runtime_c/dsp/<kernel>.c for the DSP extension; mve/ for Helium), declared where the op is:

    @variant("CONV_2D", kernel="mcu_conv2d_s8_x6", needs="dsp")
    def _conv_x6(g, op):
        ...  # the Call, or None when this layer is not for it (its types, its shapes)

A variant that `widens` (its weights re-laid out wider, int16 for int8: faster for more flash) is
taken where the board's flash has room for it: lowering narrows the layers with the most constant
bytes first, to their next candidate, until the constants fit.

Lowering (passes/lower_ops.py) gives each layer the first variant (Helium's before the DSP
extension's, then in declaration order) whose feature the target's core has (Graph.features, from the board: boards/cores/ and its flags) and
that takes the layer; else the reference call. `--tune` (mcugen/validation/tune.py) measures every layer on
each of its candidates (its variants and the reference) and keeps the fastest. A variant computes exactly what the
reference kernel computes: tests/test_boards.py runs both on the emulated core.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mcugen import ops
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call
from mcugen.ops._window import Window
from mcugen.runtime import FEATURES


Lowering = Callable[[Graph, Op], Call | None]  # the layer's call, or None when it is not for this kernel


@dataclass(frozen=True)
class Variant:
    opcode: str
    kernel: str  # the C function (and file, runtime_c/<needs>/<kernel>.c) the call is built around
    needs: str  # one of FEATURES
    lower: Lowering
    widens: bool = False  # its constants outgrow the next candidate's (weights widened to int16)


_VARIANTS: dict[str, list[Variant]] = {}


def variant(*opcodes: str, kernel: str, needs: str, widens: bool = False) -> Callable[[Lowering], Lowering]:
    if needs not in FEATURES:
        raise ValueError(f"variant {kernel} needs {needs!r}, not one of {FEATURES}")

    def declare(lower: Lowering) -> Lowering:
        for opcode in opcodes:
            _VARIANTS.setdefault(opcode, []).append(Variant(opcode, kernel, needs, lower, widens))
        return lower
    return declare


def variants_of(opcode: str) -> list[Variant]:
    ops.lookup(opcode)  # imports every op module, and so their declarations
    return list(_VARIANTS.get(opcode, ()))


def candidates(g: Graph, op: Op, features: frozenset[str], stop: int | None = None) -> list[Call | None]:
    """The layer's calls in order of preference: every variant the features allow that takes it
    (a later feature of FEATURES first: Helium before the DSP extension, on a core with both; within
    a feature, in declaration order), then the reference kernel's. `stop`: no more than that many
    variants are lowered (building a call lays out its constants)."""
    calls: list[Call | None] = []
    # variants are the opcode's own kernel's (a float32 or int32 layer runs its family's kernel), and for a
    # window whose output the tensor declares otherwise than the options compute, the reference kernel's alone
    window = getattr(op.params, "window", None)
    own = ops.definition(g, op) is ops.lookup(op.opcode) and not (isinstance(window, Window) and window.declared)
    declared = variants_of(op.opcode) if own else []
    for v in sorted(declared, key=lambda v: -FEATURES.index(v.needs)):
        if v.needs in features and (stop is None or len(calls) < stop):
            call = v.lower(g, op)
            if call is not None:
                calls.append(call)
    return calls + [ops.get(g, op).lower(g, op)]


def widens(op: Op, call: Call | None) -> bool:
    """Whether the call is a variant whose constants outgrow the next candidate's."""
    return call is not None and any(v.kernel == call.kernel and v.widens for v in variants_of(op.opcode))


def lower_layer(g: Graph, op: Op, features: frozenset[str], rank: int = 0) -> Call | None:
    """The layer's call: its rank-th candidate, or the reference kernel's when it has fewer."""
    calls = candidates(g, op, features, stop=rank + 1)
    return calls[min(rank, len(calls) - 1)]
