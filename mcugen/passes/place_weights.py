"""Place the weights in flash: in the chip's own, or, on a board with an external flash region
(QSPI/OSPI, memory-mapped; the board's budget names it), in that one (--weights); or in RAM.

`internal` keeps every constant in the chip's flash; `external` moves every layer's weight arrays
(those of WEIGHTS_BYTES and more) out; `auto` keeps everything in when it fits the chip's room for
constants, else moves out the layers whose weights are read least per byte (MACs per constant byte)
first, until the rest fits. `ram` copies weight arrays into RAM at start-up, where reading them waits no
flash wait states (mcugen/validation/memory.py): the layers whose weights are read most per byte first,
as long as they fit the RAM the arena's main part and the variables leave. The Compiled record says which
layers' weights go where; emit_c puts those arrays in the region's section (.mcu_const.<region>, which
the board's linker script places; for RAM a .data one, which every start-up copies).
"""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir.budget import RAM, Budget
from mcugen.ir.calls import WEIGHTS_BYTES
from mcugen.ir.graph import Compiled
from mcugen.ir.lowering import layers_const_bytes
from mcugen.ir.planner import state_layout


def place_weights(g: Compiled, budget: Budget) -> Compiled:
    if not budget.weights_region or budget.weights == "internal":
        return g
    sizes = dict(enumerate(layers_const_bytes(g)))
    left = sum(sizes.values())
    room = budget.internal_room
    if budget.weights == "auto" and (room is None or left <= room):
        return g
    reads = sorted((ops.get(g, op).macs(g, op) / max(sizes[op.index], 1), op.index)
                   for op in g.ops if sizes[op.index] >= WEIGHTS_BYTES)
    if budget.weights == "ram":
        return _into_ram(g, budget, sizes, reads)
    moved = set()
    for _, k in reads:
        if budget.weights == "auto" and room is not None and left <= room:
            break
        moved.add(k)
        left -= sizes[k]
    return dataclasses.replace(g, weights_region=budget.weights_region, weights_out=frozenset(moved))


def _into_ram(g: Compiled, budget: Budget, sizes: dict[int, int], reads: list[tuple[float, int]]) -> Compiled:
    plan = g.arena.plan
    room = None if budget.ram_room is None else \
        budget.ram_room - (plan.region_sizes[0][1] if plan.region_sizes else plan.size) - state_layout(g.variables)[1]
    moved = set()
    for _, k in reversed(reads):  # the most read per byte first
        if room is None or sizes[k] <= room:
            moved.add(k)
            room = None if room is None else room - sizes[k]
    return dataclasses.replace(g, weights_region=RAM, weights_out=frozenset(moved))
