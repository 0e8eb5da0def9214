"""Run a conv inside its consumer's call, a strip of rows at a time, so that its output never
exists whole (patch-based execution, as in MCUNetV2 and TinyEngine).

A CONV_2D (or a DEPTHWISE_CONV_2D lowered as one) whose output only one op reads, through views
(RESHAPE) at most, and is no graph output, is fused into that op where kernels/strips.py's FUSIONS
has a call for the pair: the conv computes a few output rows into a small tile, the consumer uses them at once (a
FULLY_CONNECTED accumulates them into its units, an ADD adds them to the residual's rows, a
DEPTHWISE_CONV_2D keeps the few rows its next output row reads) and the next strip reuses the tile.
A consumer may take a chain (Call.fuses): an ADD whose conv reads a conv that only it reads runs
both, the first's rows held as the second's input (a ResNet block's two convs and its residual).
The intermediate tensor, often a layer's largest, is gone from the arena. The consumer's call runs
at the consumer's step, so the conv's input lives until then; the fusions are kept only if the
planned arena is no larger with them, and only those its peak needs. On a board whose RAM is several
regions the arena is judged as plan_memory will place it there (the regions' bytes in all; a plan that
does not fit them is the largest).
On a board whose flash waits (passes/stage_weights.py copies re-read weights into the arena's free bytes at
their step), bytes a fusion frees are bytes those copies would have used: there a fusion the peak needs is undone
too where the graph without it still fits the board's RAM (and --max-arena) and its copies save more waits
(ResNet-8 on the NUCLEO-L4R5ZI: 51,024 B of arena unfused against 25,760 B fused, 1.3% fewer cycles), but for
--optimize size, which grows the arena for no copy.
The fused op keeps its place with no call (Op.fused_into) so layer numbers stay the model's.
"""
from __future__ import annotations

import dataclasses
import math

from mcugen.errors import McugenError
from mcugen.ir.budget import Budget
from mcugen.ir.graph import Graph, Op
from mcugen.ir.tuning import Tuning
from mcugen.kernels.strips import fused_call
from mcugen.passes.plan_memory import plan_memory
from mcugen.passes.stage_weights import staged_savings


def fuse_strips(g: Graph, budget: Budget = Budget(), tuning: Tuning | None = None) -> Graph:
    """`tuning`: --tune's measurements, which say where a fusion measured slower (Tuning.may_fuse)."""
    fused = fuse_all(g, tuning)
    # Moving a conv to its consumer's step keeps the conv's input alive until then, and the tile
    # and scratch come on top: where that outweighs the intermediate (tiny layers) or the graph
    # peaks elsewhere, fusing would cost RAM. It must never.
    if fused is g or _plan(fused, budget)[0] > _plan(g, budget)[0]:
        return g
    # A fusion also costs time (a call per strip or row): each is undone, in order, where the arena
    # stays as small without it, so those left are the ones the peak needs; where the flash waits, also
    # where the arena still fits without it and the weights copied into its bytes save more waits.
    least, saved = _plan(fused, budget)
    for consumer in sorted({op.fused_into for op in fused.ops if op.fused_into is not None}):
        undone = fused.replace_ops(g.ops[op.index] if consumer in (op.index, op.fused_into) else op
                                   for op in fused.ops)
        peak, more = _plan(undone, budget)
        if peak <= least or (peak <= (budget.arena_room or math.inf) and more > saved):
            fused, least, saved = undone, max(least, peak), more
    return fused


def _plan(g: Graph, budget: Budget) -> tuple[float, int]:
    """The arena's bytes as plan_memory places it: in all the regions where there are several (inf: not
    placed in them; plan_memory says why when it runs); and the waits the board's flash saves with g's re-read
    weights copied into that arena (0 where it never waits, and with --optimize size, which grows the arena for
    no copy)."""
    try:
        compiled = plan_memory(g, budget.regions, budget.pins, budget.external_inputs)
    except McugenError:
        return math.inf, 0
    plan = compiled.arena.plan
    peak = sum(size for _, size in plan.region_sizes) if plan.region_sizes else plan.size
    waits = budget.flash.wait_states and budget.optimize != "size"
    return peak, staged_savings(compiled, budget) if waits else 0


def fuse_all(g: Graph, tuning: Tuning | None = None) -> Graph:
    """Every fusion a consumer takes, whatever it saves (but those --tune measured slower)."""
    readers = g.readers()
    fused: dict[int, Op] = {}
    for op in g.ops:
        if op.call is None or len(op.outputs) != 1 or op.index in fused:
            continue
        consumer, tensor = _only_reader(g, readers, op.outputs[0])
        if consumer is None or consumer.index in fused or (tuning is not None and not tuning.may_fuse(consumer.index)):
            continue
        call = fused_call(g, consumer, op, consumer.inputs.index(tensor))
        if call is not None and not any(k in fused for k in call.fuses):
            for k in (op.index, *call.fuses):
                fused[k] = dataclasses.replace(g.ops[k], call=None, fused_into=consumer.index)
            fused[consumer.index] = dataclasses.replace(consumer, call=call)
    return g.replace_ops(fused.get(op.index, op) for op in g.ops) if fused else g


def _only_reader(g: Graph, readers: dict[int, list[Op]], t: int) -> tuple[Op | None, int]:
    """The one op that reads t, following views (ops without a call), and the tensor it reads."""
    while True:
        users = readers.get(t, [])
        if t in g.outputs or len(users) != 1 or users[0].inputs.count(t) != 1:
            return None, t
        if users[0].call is not None:
            return users[0], t
        t = users[0].outputs[0]
