"""Copy a layer's weights into the arena for its own step, where the board's flash makes reading them again slow.

A kernel that walks its weights once per block of positions (Const.passes: the six-positions conv reads every
channel pair's weights, requantization constants and bias once a half-block of three) reads them from flash
that many times. On a board whose flash waits (Budget.flash, from its file's memory_timing: the NUCLEO-L4R5ZI's
5 wait states at 120 MHz behind an 8-line data cache), every line read past the cache waits; copied into RAM
first, each line waits once, and the kernel reads RAM.

An array is copied only where the waits it saves are at least twice what copying it costs (the waits of its
lines once, COPY_CYCLES a word); flash holds the same arrays either way. A copy goes into room the arena has at
that step (bytes no buffer live there holds). Past the planned size the arena grows for it: with --optimize
balanced by at most GROWTH of itself, for copies that save GROWTH_WORTH cycles a byte or more (as balanced lets
constants outgrow the weights by a tenth: VWW's first layer, whose step is the arena's peak, copies 608 B for
77 K cycles, 127 a byte); with speed as far as the board's RAM allows (Budget.arena_room); with size never. The
build's arena figure and each layer's staged bytes (build --json) show what the copies take.

The copies are buffers of the plan live at their step alone (ArenaPlan.staged), named after the layer and the
array; emit_c copies each just before its call and passes the copy. Layers whose weights --weights ram already
keeps in RAM are left as they are.
"""
from __future__ import annotations

import dataclasses

from mcugen.ir.budget import RAM, Budget, FlashReads
from mcugen.ir.calls import Const, Struct
from mcugen.ir.graph import Compiled
from mcugen.ir.lowering import layer_name
from mcugen.ir.planner import Buffer, lowest_fit, state_layout

COPY_CYCLES = 2  # a word loaded and stored by memcpy's loop
GROWTH = 1 / 64  # the share of the arena balanced may add for copies,
GROWTH_WORTH = 64  # ... each byte of which saves at least this many cycles an inference


def stage_weights(g: Compiled, budget: Budget) -> Compiled:
    flash = budget.flash
    if not flash.wait_states:
        return g
    plan = g.arena.plan
    # where the main arena may end: the most the board's RAM lets it take beside the variables, and no further
    # than --optimize lets copies grow it
    room = budget.regions[0].capacity if budget.regions else budget.arena_room
    most = None if room is None else max(plan.size, room - state_layout(g.variables)[1])
    grown = {"size": plan.size, "balanced": plan.size + int(plan.size * GROWTH)}.get(budget.optimize, 2 ** 31)
    end = grown if most is None else min(grown, most)
    main = plan.region_sizes[0][0] if plan.region_sizes else ""
    buffers, offsets = list(plan.buffers), list(plan.offsets)
    regions = list(plan.region_of)
    staged: dict[int, tuple[tuple[tuple[str, str], str, int], ...]] = {}
    for op in g.ops:
        if op.call is None or op.fused_into is not None or (g.weights_region == RAM and op.index in g.weights_out):
            continue
        arrays = [(at, a) for at, a in _arrays(op.call.args) if _pays(a, flash)]
        if sum(a.data.nbytes for _, a in arrays) <= flash.cached_bytes:
            continue  # the data cache holds them from one pass to the next
        busy = sorted((offsets[k], offsets[k] + b.size_at(op.index)) for k, b in enumerate(buffers)
                      if b.first <= op.index <= b.last and (regions[k] if regions else "") == main)
        copies = []
        for where, a in sorted(arrays, key=lambda wa: -wa[1].data.nbytes):
            at = lowest_fit(busy, a.data.nbytes)
            if at + a.data.nbytes > end or (at + a.data.nbytes > plan.size and budget.optimize == "balanced"
                                            and _saved(a, flash) < GROWTH_WORTH * a.data.nbytes):
                continue
            busy = sorted([*busy, (at, at + a.data.nbytes)])
            copies.append((*where, len(buffers)))
            buffers.append(Buffer(f"{a.layer or layer_name(g, op)}_{a.name}_staged", a.data.nbytes, op.index,
                                  op.index))
            offsets.append(at)
            if regions:
                regions.append(main)
        if copies:  # in the call's order, as the C copies them
            order = {a.key: k for k, a in enumerate(op.call.args) if isinstance(a, (Const, Struct))}
            staged[op.index] = tuple(sorted(copies, key=lambda c: (order[c[0]], c[1])))
    if not staged:
        return g
    size = max([plan.size, *(at + b.size for k, (at, b) in enumerate(zip(offsets, buffers))
                             if (regions[k] if regions else "") == main)])
    sizes = ((plan.region_sizes[0][0], size), *plan.region_sizes[1:]) if plan.region_sizes else ()
    new_plan = dataclasses.replace(plan, buffers=tuple(buffers), offsets=tuple(offsets), region_of=tuple(regions),
                                   size=size, region_sizes=sizes)
    return dataclasses.replace(g, arena=dataclasses.replace(g.arena, plan=new_plan, staged=staged))


def staged_savings(g: Compiled, budget: Budget) -> int:
    """The waits an inference saves with g's weights staged as stage_weights stages them."""
    staged = stage_weights(g, budget)
    found = 0
    for k, copies in staged.arena.staged.items():
        call = staged.ops[k].call
        arrays = dict(_arrays(call.args)) if call is not None else {}
        found += sum(_saved(arrays[(key, field)], budget.flash) for key, field, _ in copies)
    return found


def _arrays(args: tuple[object, ...]) -> list[tuple[tuple[tuple[str, str], str], Const]]:
    """A call's constant arrays by where they are: (the argument's key, "") for an argument, (key, field) for
    a field of a struct argument (a lookup table the kernel finds through its parameters)."""
    found: list[tuple[tuple[tuple[str, str], str], Const]] = []
    for a in args:
        if isinstance(a, Const):
            found.append(((a.key, ""), a))
        elif isinstance(a, Struct):
            found += [((a.key, name), v) for name, v in a.fields.items() if isinstance(v, Const)]
    return found


def _saved(a: Const, flash: FlashReads) -> int:
    """The cycles an inference saves reading the array from its copy, less the copy's."""
    lines = -(-a.data.nbytes // flash.line_bytes)
    return (a.passes - 1) * lines * flash.wait_states - _copy(a, flash)


def _copy(a: Const, flash: FlashReads) -> int:
    return -(-a.data.nbytes // flash.line_bytes) * flash.wait_states + a.data.nbytes // 4 * COPY_CYCLES


def _pays(a: Const, flash: FlashReads) -> bool:
    """Whether copying the array saves at least twice the cycles the copy takes."""
    return _saved(a, flash) >= _copy(a, flash)
