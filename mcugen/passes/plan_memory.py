"""Give every activation tensor an arena offset: the Graph becomes a Compiled one (Compiled.arena).

Lifetimes come from the op order: a tensor is born at the op that writes it (graph inputs at
step 0, written by the caller before invoking) and dies after the last op that reads it, as an
input or as an argument of its call (graph outputs after the last op, so the caller can read
them). Some tensors share a buffer instead of getting their own, and some get none:
- the output of an op with no kernel call (RESHAPE, SQUEEZE, EXPAND_DIMS) is its input's bytes;
- the output of an op that may run in place (Call.in_place names the input: elementwise ops; the
  DSP depthwise kernel, which copies each group of channels out before overwriting it; a fused
  conv + ADD, which adds each strip into the residual it has just read; Call.over: a fused ResNet block
  writing behind its reads of the first conv's input) takes that input's buffer when the input dies at
  this op, is no smaller, and no other argument of the call reads it;
- the output of an op fused into a later op's call (Op.fused_into, passes/fuse_strips.py) never
  exists whole: it has no buffer, nor do views of it, and the fused call reads the fused op's
  inputs, so they live until it runs;
- a tensor another's bytes hold (Op.aliases, passes/place_views.py) lies inside that one's buffer at
  its offset (ArenaPlan.within): a contiguous slice's or split's outputs in its input's, a concatenation's
  inputs in its output's, which is then born with the first of them.
A kernel's scratch memory (Call.scratch) is a buffer live at its own step only.

With `regions` (a board whose RAM is several regions, mcugen/ir/planner.py place), each buffer also gets a
region: the graph's inputs and outputs stay in the main one (the caller's arena), the others go where
their accesses pay most. A buffer's accesses per inference are taken as its bytes written once and read
once by every step that reads it (a scratch buffer: written and read once): a proxy that ranks the
buffers, not a count of loads.
"""
from __future__ import annotations

import dataclasses

from mcugen.errors import McugenError
from mcugen.ir.graph import Compiled, Graph, Op
from mcugen.ir.lowering import Call, Slice, layer_name
from mcugen.ir.planner import ArenaPlan, Buffer, PlacementError, Region, place, plan, state_layout


def _reads(op: Op) -> set[int]:
    """What an op's step reads: its inputs, and every slice its call passes (a fused call's too)."""
    if op.fused_into is not None:
        return set()
    touched = set(op.inputs)
    if op.call is not None:
        touched |= {t for a in op.call.args if isinstance(a, Slice) for t in a.tensors}
    return touched


def _read_once(call: Call, src: int, root: dict[int, int]) -> bool:
    """No other argument of the call reads src's bytes: a fused conv whose input is also the
    residual would read rows its own strips had overwritten."""
    read = [t for a in call.args if isinstance(a, Slice) and not a.writable for t in a.tensors]
    return read.count(src) == 1 and all(root.get(t) != root[src] for t in read if t != src)


def plan_memory(g: Graph, regions: tuple[Region, ...] | None = None,
                pins: tuple[tuple[str, str], ...] = ()) -> Compiled:
    buffers, buffer_of, scratch_of, activations, within = _buffers(g)
    if regions is None:
        return Compiled.of(g, ArenaPlan(plan(buffers), buffer_of, scratch_of, within=within))
    placed = _placed(g, buffers, buffer_of, scratch_of, activations, regions, pins)
    return Compiled.of(g, dataclasses.replace(placed, within=within))


def _last_reads(g: Graph) -> dict[int, int]:
    """Each activation's last reading step (a graph output's: the step after the last op, so the caller can
    read it)."""
    end = len(g.ops)  # the step after the last op: graph outputs are still live there
    last_read: dict[int, int] = {}
    for op in g.ops:
        for t in _reads(op):
            if t >= 0 and not g.tensors[t].is_const:
                last_read[t] = op.index
    for t in g.outputs:
        last_read[t] = end
    return last_read


class _Roots:
    """Which buffer (named after its root tensor) each tensor lives in and at which byte offset, and each
    buffer's first step and last: the last read of any tensor in it, kept as tensors join it."""

    def __init__(self, last_read: dict[int, int]):
        self.last_read = last_read
        self.root: dict[int, int] = {}
        self.born: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.within: dict[int, int] = {}
        self.reach: dict[int, int] = {}

    def new(self, t: int, step: int, name: str) -> None:
        self.born[t], self.names[t] = step, name
        self.join(t, t)

    def join(self, t: int, r: int, offset: int = 0) -> None:
        self.root[t] = r
        if offset:
            self.within[t] = offset
        self.reach[r] = max(self.reach.get(r, self.born[r]), self.last_read.get(t, self.born[r]))


def _buffers(g: Graph) -> tuple[list[Buffer], dict[int, int], dict[int, int], int, dict[int, int]]:
    """The buffers (the activations' then the scratch), each tensor's and each op's scratch buffer, how
    many of the buffers are activations', and the offset within its buffer of each tensor not at its start."""
    r = _Roots(_last_reads(g))
    root, within = r.root, r.within
    # a concatenation's inputs written in place: tensor -> (its Alias, the concatenation)
    part_of = {a.tensor: (a, op) for op in g.ops for a in op.aliases if a.whole in op.outputs}
    for k, t in enumerate(g.inputs):
        r.new(t, 0, f"input_{k}")
    for op in g.ops:
        if not op.outputs:  # ASSIGN_VARIABLE writes a variable, which lives outside the arena
            continue
        out = op.outputs[0]
        first = op.inputs[0] if op.inputs and op.inputs[0] >= 0 else None
        if out in part_of:  # written in its place in a concatenation's output
            alias, concat = part_of[out]
            if alias.whole not in root:
                r.new(alias.whole, op.index, f"{layer_name(g, concat)}_out")
            r.join(out, alias.whole, alias.offset)
            continue
        if out in root:  # a concatenation whose inputs were written in place
            continue
        views = [a for a in op.aliases if a.tensor in op.outputs]
        if views and all(a.whole in root for a in views):  # a slice's or split's outputs: bytes of their input
            for a in views:
                r.join(a.tensor, root[a.whole], within.get(a.whole, 0) + a.offset)
            continue
        if op.fused_into is not None or (op.call is None and first not in root):
            continue  # never exists whole: computed strip by strip inside a later call
        src = first if op.call is None else (op.inputs[op.call.in_place] if op.call.in_place is not None
                                             else op.call.over)
        shares = src is not None and src in root and (
            op.call is None
            or (r.reach[root[src]] == op.index and g.tensors[src].nbytes >= g.tensors[out].nbytes
                and _read_once(op.call, src, root)))
        if shares and src is not None:
            r.join(out, root[src], within.get(src, 0))
        else:
            r.new(out, op.index, f"{layer_name(g, op)}_out")
        for k, extra in enumerate(op.outputs[1:], start=1):  # SPLIT's other outputs: their own bytes
            r.new(extra, op.index, f"{layer_name(g, op)}_out{k}")
    roots = sorted(set(root.values()), key=lambda t: (r.born[t], t))
    shrinks = _shrinks(g, r)
    buffers = [Buffer(r.names[t], g.tensors[t].nbytes, r.born[t], r.reach[t], shrinks.get(t, ())) for t in roots]
    position = {t: k for k, t in enumerate(roots)}
    scratch_of = {}
    for op in g.ops:
        if op.call is not None and op.call.scratch:
            scratch_of[op.index] = len(buffers)
            buffers.append(Buffer(f"{layer_name(g, op)}_scratch", op.call.scratch, op.index, op.index))
    return buffers, {t: position[t_root] for t, t_root in root.items()}, scratch_of, len(roots), dict(within)


def _shrinks(g: Graph, r: _Roots) -> dict[int, tuple[tuple[int, int], ...]]:
    """Where a buffer's live bytes fall for good (Buffer.shrinks): a tensor written in place over a larger one
    that then dies leaves the buffer's tail free. A tensor holds its bytes from its writer's step (its
    buffer's first, for the root) to its last read."""
    born = {t: op.index for op in g.ops for t in op.outputs}
    ends: dict[int, list[tuple[int, int]]] = {}  # root -> (last step, the end of its bytes) of each tensor in it
    for t, root in r.root.items():
        ends.setdefault(root, []).append((r.last_read.get(t, born.get(t, r.born[root])),
                                          r.within.get(t, 0) + g.tensors[t].nbytes))
    shrinks = {}
    for root, spans in ends.items():
        steps, falls = sorted(spans, reverse=True), []
        size = 0  # the bytes live from a step on: the largest end of a tensor not dead before it
        for k, (last, end) in enumerate(steps):
            size = max(size, end)
            if k + 1 < len(steps) and steps[k + 1][0] < last:
                falls.append((steps[k + 1][0] + 1, size))
        kept, bytes_ = [], g.tensors[root].nbytes
        for step, size in sorted(falls):
            if size < bytes_ and step > r.born[root]:
                kept.append((step, size))
                bytes_ = size
        if kept:
            shrinks[root] = tuple(kept)
    return shrinks


def _placed(g: Graph, buffers: list[Buffer], buffer_of: dict[int, int], scratch_of: dict[int, int],
            activations: int, regions: tuple[Region, ...], pins: tuple[tuple[str, str], ...]) -> ArenaPlan:
    """The buffers placed across the RAM regions (the module's docstring says by what)."""
    readers = [0] * len(buffers)
    for op in g.ops:
        for k in {buffer_of[t] for t in _reads(op) if t in buffer_of}:
            readers[k] += 1
    accesses = [b.size * (1 + max(readers[k], 1 if k >= activations else 0)) for k, b in enumerate(buffers)]
    pinned = _pinned(g, buffer_of, [r.name for r in regions], pins)
    main = regions[0]  # the variables live beside the main arena
    regions = (Region(main.name, main.capacity - state_layout(g.variables)[1], main.rank), *regions[1:])
    try:
        return ArenaPlan(place(buffers, regions, accesses, pinned), buffer_of, scratch_of, tuple(accesses))
    except PlacementError as exc:
        where = f"layer {exc.step} ({layer_name(g, g.ops[exc.step])})" if exc.step < len(g.ops) else "the end"
        sizes = ", ".join(f"{r.name} {max(r.capacity, 0):,} B" for r in regions)
        raise McugenError(f"the model's activations do not fit the RAM regions: at {where} {exc.live:,} B are live, "
                          f"and no split of the live buffers fits the regions' room for them ({sizes})",
                          "choose a board with more RAM or a smaller model") from None


def _pinned(g: Graph, buffer_of: dict[int, int], region_names: list[str],
            pins: tuple[tuple[str, str], ...]) -> dict[int, int]:
    """Each pinned buffer's region: the graph's inputs and outputs in the main one, then the user's --pin."""
    pinned = {buffer_of[t]: 0 for t in (*g.inputs, *g.outputs) if t in buffer_of}
    for tensor, region in pins:
        found = [k for k, x in enumerate(g.tensors) if x.name == tensor]
        if not found or found[0] not in buffer_of:
            what = "no tensor of the model" if not found else "a tensor without a buffer of its own (a constant, " \
                   "a variable, or computed inside a fused layer)"
            raise McugenError(f"--pin {tensor}={region}: {tensor} is {what}",
                              "pin an activation `mcugen inspect` lists")
        k, r = buffer_of[found[0]], region_names.index(region)
        if pinned.get(k, r) != r:
            raise McugenError(f"--pin {tensor}={region}: the model's inputs and outputs stay in {region_names[0]}, "
                              "the arena NAME_init takes", f"pin another tensor, or pin it to {region_names[0]}")
        pinned[k] = r
    return pinned
