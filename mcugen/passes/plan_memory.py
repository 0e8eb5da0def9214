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
  inputs in its output's, which is then born with the first of them;
- a patch stage's output (passes/split_patches.py) shares one buffer with the stage's input, lying
  `shift` bytes before it: each patch writes its part of the output behind what the later patches still
  read of the input (_stage_shift finds the least such shift in bytes), so the two take max(output,
  shift + input) bytes, not their sum; and the bytes of the input no later step reads, until the output is
  written over them, may hold other buffers (Buffer.holes: a later patch's intermediates).
A kernel's scratch memory (Call.scratch) is a buffer live at its own step only.

With `external_inputs` (--external-input) the graph's inputs are read where the caller keeps them
(NAME_set_input), in no buffer: they and their views (a RESHAPE's output, a contiguous slice's) are
ArenaPlan.outside, and nothing is written over them.

With `regions` (a board whose RAM is several regions, mcugen/ir/planner.py place), each buffer also gets a
region: the graph's inputs and outputs stay in the main one (the caller's arena), the others go where
their accesses pay most. A buffer's accesses per inference are taken as its bytes written once and read
once by every step that reads it (a scratch buffer: written and read once): a proxy that ranks the
buffers, not a count of loads.
"""
from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.graph import Compiled, Graph, Op
from mcugen.ir.lowering import Call, Slice, layer_name
from mcugen.ir.options import StridedSliceOptions
from mcugen.ir.planner import ALIGN, ArenaPlan, Buffer, PlacementError, Region, place, plan, state_layout


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
                pins: tuple[tuple[str, str], ...] = (), external_inputs: bool = False) -> Compiled:
    outside = _outside(g) if external_inputs else {}
    buffers, buffer_of, scratch_of, activations, within = _buffers(g, outside)
    if regions is None:
        return Compiled.of(g, ArenaPlan(plan(buffers), buffer_of, scratch_of, within=within, outside=outside))
    placed = _placed(g, buffers, buffer_of, scratch_of, activations, regions, pins)
    return Compiled.of(g, dataclasses.replace(placed, within=within, outside=outside))


def _outside(g: Graph) -> dict[int, tuple[int, int]]:
    """The graph's inputs and the views of them that read their bytes where the caller keeps them: tensor ->
    (input position, byte offset). A view is an op without a call that keeps its input's bytes (a RESHAPE) or
    a contiguous slice's alias (passes/place_views.py)."""
    outside = {t: (k, 0) for k, t in enumerate(g.inputs)}
    for op in g.ops:
        for a in op.aliases:
            if a.whole in outside and a.tensor in op.outputs:
                k, at = outside[a.whole]
                outside[a.tensor] = (k, at + a.offset)
        if op.call is None and op.fused_into is None and not op.aliases and op.inputs and op.inputs[0] in outside \
                and op.outputs and g.tensors[op.outputs[0]].nbytes == g.tensors[op.inputs[0]].nbytes:
            outside[op.outputs[0]] = outside[op.inputs[0]]
    return outside  # a graph input is never written into a concatenation's output (place_views)


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
    buffer's first step and last (the last read of any tensor in it) and bytes, kept as tensors join it.
    `behind`: a patch stage's input and output that share a buffer (_stage_shift)."""

    def __init__(self, g: Graph, last_read: dict[int, int], behind: _Behind | None):
        self.g, self.last_read, self.behind = g, last_read, behind
        self.root: dict[int, int] = {}
        self.born: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.within: dict[int, int] = {}
        self.reach: dict[int, int] = {}
        self.size: dict[int, int] = {}
        self.holes: dict[int, tuple[tuple[int, int, int, int], ...]] = {}  # root -> Buffer.holes

    def new(self, t: int, step: int, name: str) -> None:
        """A buffer for t; for a patch stage's input, the stage output's, t `shift` bytes into it."""
        if self.behind is None or t != self.behind.source:
            self.born[t], self.names[t] = step, name
            self.join(t, t)
            return
        out = self.behind.output
        self.new(out, step, f"{layer_name(self.g, next(op for op in self.g.ops if out in op.outputs))}_out")
        self.join(t, out, self.behind.shift)
        self.holes[out] = self.behind.holes

    def join(self, t: int, r: int, offset: int = 0) -> None:
        self.root[t] = r
        if offset:
            self.within[t] = offset
        self.reach[r] = max(self.reach.get(r, self.born[r]), self.last_read.get(t, self.born[r]))
        self.size[r] = max(self.size.get(r, 0), offset + self.g.tensors[t].nbytes)


def _buffers(g: Graph, outside: dict[int, tuple[int, int]]) -> tuple[list[Buffer], dict[int, int], dict[int, int],
                                                                    int, dict[int, int]]:
    """The buffers (the activations' then the scratch), each tensor's and each op's scratch buffer, how
    many of the buffers are activations', and the offset within its buffer of each tensor not at its start;
    none for the tensors `outside` the arena."""
    behind = _stage_shift(g)
    if behind is not None and behind.source in outside:  # nothing is written over the caller's bytes
        behind = None
    r = _Roots(g, _last_reads(g), behind)
    root, within = r.root, r.within
    # a concatenation's inputs written in place: tensor -> (its Alias, the concatenation)
    part_of = {a.tensor: (a, op) for op in g.ops for a in op.aliases if a.whole in op.outputs}
    for k, t in enumerate(g.inputs):
        if t not in outside:
            r.new(t, 0, f"input_{k}")
    for op in g.ops:
        if not op.outputs or op.outputs[0] in outside:  # ASSIGN_VARIABLE writes a variable, outside the arena
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
        # nothing is written in place over the stage's input: _stage_shift counts the reads of its bytes it knows
        shares = src is not None and src in root and (behind is None or src not in behind.inside) and (
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
    buffers = [Buffer(r.names[t], r.size[t], r.born[t], r.reach[t], shrinks.get(t, ()), r.holes.get(t, ()))
               for t in roots]
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
        kept, bytes_ = [], r.size[root]
        for step, size in sorted(falls):
            if size < bytes_ and step > r.born[root]:
                kept.append((step, size))
                bytes_ = size
        if kept:
            shrinks[root] = tuple(kept)
    return shrinks


class _Behind(NamedTuple):
    """A patch stage's output and input in one buffer: the output at its start, the input `shift` bytes on;
    `holes` as Buffer.holes; `inside`: the tensors whose bytes are the input's."""

    source: int
    output: int
    shift: int
    holes: tuple[tuple[int, int, int, int], ...]
    inside: frozenset[int]


def _stage_shift(g: Graph) -> _Behind | None:
    """Where a patch stage's output written `shift` bytes before its input (the least, word-aligned) overwrites
    no input byte a later step reads (nor one its own step reads), and takes fewer bytes than the two apart;
    None elsewhere."""
    b = g.banded
    if b is None or b.source < 0 or b.source in g.outputs or b.output in g.inputs:
        return None
    # each tensor's bytes in another's: a view's where it lies; an op without a call (RESHAPE, a slice read in its
    # reader's copy, a layer run inside a later call) read as its first input's bytes it spans
    links = {a.tensor: (a.whole, a.offset, a.offset + g.tensors[a.tensor].nbytes) for op in g.ops for a in op.aliases}
    links.update({op.outputs[0]: (op.inputs[0], *_slice_span(g, op)) for op in g.ops
                  if op.call is None and not op.aliases and op.inputs and op.inputs[0] >= 0 and op.outputs})

    def place(t: int, home: int) -> tuple[int, int] | None:
        """The bytes of home's that t's are (at most; None: none of them)."""
        lo, hi = 0, g.tensors[t].nbytes
        while t != home:
            if t not in links:
                return None
            t, start, end = links[t]
            lo, hi = (start + lo, start + hi) if end - start == hi - lo else (start, end)
        return lo, hi

    writes, reads = [], []  # (step, start, end): the output's bytes written, the input's read
    for op in g.ops:
        if op.fused_into is not None:
            continue
        for t in op.outputs:
            at = place(t, b.output)
            if at is not None and (op.call is not None or t == b.output):
                writes.append((op.index, *at))
        for t in _reads(op) if op.call is not None else ():  # a view's op reads nothing: its readers do
            at = place(t, b.source) if t >= 0 else None
            if at is not None:
                reads.append((op.index, *(_slice_span(g, op) if t == b.source else at)))
    shift = 0
    for step, _, end in writes:
        first = min((start for k, start, _ in reads if k >= step), default=None)
        if first is not None:
            shift = max(shift, end - first)
    shift = -(-shift // ALIGN) * ALIGN
    if shift >= g.tensors[b.output].nbytes:
        return None
    born = next((op.index for op in g.ops if b.source in op.outputs), 0)
    holes = _holes(born, len(g.ops), (shift, shift + g.tensors[b.source].nbytes),
                   [(k, shift + start, shift + end) for k, start, end in reads], writes)
    return _Behind(b.source, b.output, shift, holes,
                   frozenset(t for t in range(len(g.tensors)) if place(t, b.source) is not None))


def _holes(born: int, end: int, source: tuple[int, int], reads: list[tuple[int, int, int]],
           writes: list[tuple[int, int, int]]) -> tuple[tuple[int, int, int, int], ...]:
    """Buffer.holes of the shared buffer: a byte of the input is free after its last read, one outside it from
    the buffer's first step, until the output's first write there."""
    cuts = sorted({0, *source, *(x for _, a, z in (*reads, *writes) for x in (a, z))})
    holes: list[tuple[int, int, int, int]] = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        inside = source[0] <= lo and hi <= source[1]
        last_read = max((k for k, a, z in reads if a <= lo and hi <= z), default=born)
        free_from = last_read + 1 if inside else born
        free_to = min((k for k, a, z in writes if a <= lo and hi <= z), default=end) - 1
        if free_from > free_to:
            continue
        if holes and holes[-1][:2] == (free_from, free_to) and holes[-1][3] == lo:
            holes[-1] = (free_from, free_to, holes[-1][2], hi)
        else:
            holes.append((free_from, free_to, lo, hi))
    return tuple(holes)


def _slice_span(g: Graph, op: Op) -> tuple[int, int]:
    """The bytes of its input from the first a STRIDED_SLICE reads to the last (any other op: all of them)."""
    x = op.input(g, 0)
    if op.opcode != "STRIDED_SLICE":
        return 0, x.nbytes
    begin, end, strides = op.input(g, 1), op.input(g, 2), op.input(g, 3)
    o = op.options_as(StridedSliceOptions)
    masks = any((o.begin_mask, o.end_mask, o.ellipsis_mask, o.new_axis_mask, o.shrink_axis_mask))
    if begin.data is None or end.data is None or strides.data is None or masks \
            or not begin.data.size == end.data.size == strides.data.size == len(x.shape) \
            or (strides.data != 1).any() or (begin.data < 0).any() or (end.data <= begin.data).any():
        return 0, x.nbytes
    steps = np.cumprod((*x.shape[1:], 1)[::-1])[::-1]  # elements a step along each axis
    size = x.nbytes // max(1, int(np.prod(x.shape)))
    return (int(np.dot(begin.data.astype(np.int64), steps)) * size,
            (int(np.dot(end.data.astype(np.int64) - 1, steps)) + 1) * size)


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
