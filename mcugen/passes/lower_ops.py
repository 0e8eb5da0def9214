"""Decide each op's C kernel call (Op.call); RESHAPE-like ops get none and alias their input.

dsp: the target runs the optimized kernels of runtime_c/dsp/. Ops see it as Graph.dsp while they
lower: they then ask for those kernels' scratch memory, or pick DSP-only kernels and layouts.
"""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir import Graph


def lower_ops(g: Graph, dsp: bool = False) -> Graph:
    g = dataclasses.replace(g, dsp=dsp)
    return g.replace_ops(dataclasses.replace(op, call=ops.lookup(op.opcode).lower(g, op)) for op in g.ops)
