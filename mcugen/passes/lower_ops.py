"""Decide each op's C kernel call (Op.call); RESHAPE-like ops get none and alias their input.

features: the ISA features of the target's core (Board.features): each layer gets the first kernel
row of its opcode's table they allow and that takes it, else its reference kernel (mcugen/kernels/).
tuning (mcugen.validation.tune): each measured layer gets the candidate that measured fastest.
const_room: the bytes of flash the constants may take (None: no limit); optimize (--optimize): speed takes
widened weights wherever const_room has room, size none, balanced only while the constants stay within
OPTIMIZE_ROOM of the model's weights plus ROOM_PER_CHANNEL a requantized output channel. While they take more,
the layer whose call widens its weights (a `widens` row) and has the most constant bytes takes its next
candidate that does not.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from mcugen.ir.budget import OPTIMIZE_ROOM, ROOM_PER_CHANNEL
from mcugen.ir.graph import Graph
from mcugen.ir.lowering import const_bytes, distinct_bytes, keyed_arrays
from mcugen.kernels import lower_layer, widens
from mcugen.ops._quant import Rescale

if TYPE_CHECKING:  # tune.py builds and measures through the pipeline, which runs this pass
    from mcugen.ir.tuning import Tuning


def lower_ops(g: Graph, features: frozenset[str] = frozenset(), tuning: Tuning | None = None,
              const_room: int | None = None, optimize: str = "balanced") -> Graph:
    ranks = {op.index: tuning.rank_of(op.index) if tuning is not None else 0 for op in g.ops}
    calls = {op.index: lower_layer(g, op, features, ranks[op.index]) for op in g.ops}
    rooms = [r for r in (const_room, {"size": 0, "balanced": balanced_room(g)}.get(optimize)) if r is not None]
    if rooms:
        const_room = min(rooms)
        arrays = {k: keyed_arrays(call) for k, call in calls.items()}  # a band's weights count once for its layer
        wide = sorted((op for op in g.ops if widens(calls[op.index])), key=lambda op: -const_bytes(calls[op.index]))
        for op in wide:
            if sum(distinct_bytes(arrays.values())) <= const_room:
                break
            narrow = calls[op.index]
            while widens(narrow):  # past every widening variant (the live-channel conv's next is the dense one)
                ranks[op.index] += 1
                narrow = lower_layer(g, op, features, ranks[op.index])
            calls[op.index], arrays[op.index] = narrow, keyed_arrays(narrow)
    return g.replace_ops(dataclasses.replace(op, call=calls[op.index]) for op in g.ops)


def balanced_room(g: Graph) -> int:
    """--optimize balanced's bytes of constants: OPTIMIZE_ROOM x the model's weights, and ROOM_PER_CHANNEL a
    requantized output channel (a layer's per-channel multipliers)."""
    weights = g.weight_bytes
    rescaled = {(op.origin, op.opcode) if op.part else op.index: quant for op in g.ops  # a layer's bands: once
                for quant in [getattr(op.params, "quant", None)] if isinstance(quant, Rescale)}
    channels = sum(len(quant.multiplier) for quant in rescaled.values())
    return int(OPTIMIZE_ROOM * weights) + ROOM_PER_CHANNEL * channels
