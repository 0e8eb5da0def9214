"""Decide each op's C kernel call (Op.call); RESHAPE-like ops get none and alias their input.

dsp: the target runs the optimized kernels of runtime_c/dsp/. Ops see it as Graph.dsp while they
lower: they then ask for those kernels' scratch memory, or pick DSP-only kernels and layouts.
tuning (mcugen.tune): the layers whose reference kernel measured faster lower as if without DSP.
"""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir import Graph


def lower_ops(g: Graph, dsp: bool = False, tuning=None) -> Graph:
    g = dataclasses.replace(g, dsp=dsp, tuning=tuning)
    without_dsp = dataclasses.replace(g, dsp=False)
    reference = tuning.reference if tuning is not None else frozenset()
    return g.replace_ops(dataclasses.replace(op, call=ops.lookup(op.opcode).lower(
        without_dsp if op.index in reference else g, op)) for op in g.ops)
