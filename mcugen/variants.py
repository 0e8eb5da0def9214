"""Kernel variants: the optimized kernels beside each op's reference kernel, declared as data.

An op's module gives its reference kernel call in `OpDef.lower` (runtime_c/src/, every core). A
variant is one more C function, in a folder named after the ISA feature it needs
(runtime_c/dsp/<kernel>.c for the DSP extension; mve/ for Helium), declared where the op is:

    @variant("CONV_2D", kernel="mcu_conv2d_s8_x6", needs="dsp")
    def _conv_x6(g, op):
        ...  # the Call, or None when this layer is not for it (its types, its shapes)

Lowering (passes/lower_ops.py) gives each layer the first variant (Helium's before the DSP
extension's, then in declaration order) whose feature the target's core has (Graph.features, from the board: boards/cores/ and its flags) and
that takes the layer; else the reference call. `--tune` (mcugen/tune.py) measures the layers'
variants against their reference kernels and keeps the faster. A variant computes exactly what the
reference kernel computes: tests/test_boards.py runs both on the emulated core.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mcugen import ops
from mcugen.boards import FEATURES  # each is a folder of runtime_c/
from mcugen.ir import Graph, Op
from mcugen.lowering import Call


Lowering = Callable[[Graph, Op], Call | None]  # the layer's call, or None when it is not for this kernel


@dataclass(frozen=True)
class Variant:
    opcode: str
    kernel: str  # the C function (and file, runtime_c/<needs>/<kernel>.c) the call is built around
    needs: str  # one of FEATURES
    lower: Lowering


_VARIANTS: dict[str, list[Variant]] = {}


def variant(*opcodes: str, kernel: str, needs: str) -> Callable[[Lowering], Lowering]:
    if needs not in FEATURES:
        raise ValueError(f"variant {kernel} needs {needs!r}, not one of {FEATURES}")

    def declare(lower: Lowering) -> Lowering:
        for opcode in opcodes:
            _VARIANTS.setdefault(opcode, []).append(Variant(opcode, kernel, needs, lower))
        return lower
    return declare


def variants_of(opcode: str) -> list[Variant]:
    ops.lookup(opcode)  # imports every op module, and so their declarations
    return list(_VARIANTS.get(opcode, ()))


def lower_layer(g: Graph, op: Op, features: frozenset[str]):
    """The layer's call: its first variant the features allow and that takes it, else the reference.
    Variants of a later feature of FEATURES come first (Helium before the DSP extension, on a core
    with both); within a feature, in declaration order."""
    for v in sorted(variants_of(op.opcode), key=lambda v: -FEATURES.index(v.needs)):
        if v.needs in features:
            call = v.lower(g, op)
            if call is not None:
                return call
    return ops.get(op.opcode).lower(g, op)
