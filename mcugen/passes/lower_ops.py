"""Decide each op's C kernel call (Op.call); RESHAPE-like ops get none and alias their input.

dsp: the target runs the optimized kernels of runtime_c/dsp/, so their scratch memory is kept in
the calls (and planned) and ops may choose DSP-only kernels; otherwise every Scratch is dropped to
0 bytes (NULL).
"""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir import Graph, Op
from mcugen.lowering import Call, Scratch


def _without_scratch(call: Call | None) -> Call | None:
    if call is None:
        return None
    return dataclasses.replace(call, args=tuple(Scratch(0) if isinstance(a, Scratch) else a for a in call.args))


def _lower(g: Graph, op: Op, dsp: bool) -> Call | None:
    call = ops.lookup(op.opcode).lower(g, op)
    return call if dsp else _without_scratch(call)


def lower_ops(g: Graph, dsp: bool = False) -> Graph:
    g = dataclasses.replace(g, dsp=dsp)  # ops may lay out their constants for the DSP kernels (Graph.dsp)
    return g.replace_ops(dataclasses.replace(op, call=_lower(g, op, dsp)) for op in g.ops)
