"""Decide each op's C kernel call (Op.call); RESHAPE-like ops get none and alias their input.

dsp: the target runs the optimized kernels of runtime_c/dsp/. Ops see it as Graph.dsp while they
lower: they then ask for those kernels' scratch memory, or pick DSP-only kernels and layouts.
tuning (mcugen.tune): the layers whose reference kernel measured faster lower as if without DSP,
and every measured layer's comment says what was measured.
"""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir import Graph


def lower_ops(g: Graph, dsp: bool = False, tuning=None) -> Graph:
    g = dataclasses.replace(g, dsp=dsp, tuning=tuning)
    without_dsp = dataclasses.replace(g, dsp=False)
    reference = tuning.reference if tuning is not None else frozenset()
    lowered = []
    for op in g.ops:
        measured = tuning.layers.get(op.index) if tuning is not None else None
        call = ops.lookup(op.opcode).lower(without_dsp if op.index in reference else g, op)
        if measured is not None:
            times = ", ".join(f"{kernel} {t:,}" for kernel, t in measured.times.items())
            call = dataclasses.replace(call, note=f"{call.note}; tuned on {tuning.measured_on} ({tuning.unit}): {times}")
        lowered.append(dataclasses.replace(op, call=call))
    return g.replace_ops(lowered)
