"""Static arena planning: where every activation lives, decided once, at build time.

A buffer is live from the step that writes it (`first`) to the last step that reads it (`last`),
both inclusive; steps are op indices. Two buffers may share bytes only if their lifetimes are
disjoint. The plan gives each buffer an offset; the arena is the highest end.

Algorithm: greedy first fit, like TFLM's GreedyMemoryPlanner. Buffers are placed one at a time;
each goes to the lowest aligned offset where it overlaps (in bytes) no already-placed buffer that
is live at the same time. The order of placement matters and no order is best for every graph
(the problem is NP-hard), so the planner tries a few (largest first, as TFLM; largest
size x lifetime; longest-lived; earliest) and keeps the smallest arena, ties going to the first.
That is never worse than TFLM's single ordering on the same lifetimes.

The plan prints as a timeline (`Plan.timeline()`): one row per step, one column per arena slice,
a letter where a buffer is live.

Across memory regions (`place`, for boards whose RAM is several regions): the first region is the main
one, the arena the caller passes (the graph's inputs and outputs are pinned there); each other region has
an arena of its own. A buffer lives in exactly one region, never straddling two. Buffers are assigned to
regions one at a time, the most accessed bytes first (accesses / size: the bytes a step reads and writes
per inference, over the buffer's size), each to the fastest region (lowest rank) where the bytes live at
every step of its lifetime, its own included, still fit. Then each region is planned as above; where
fragmentation makes a region's plan exceed it, its least accessed buffer moves on to the next region that
takes it. If the access order fails to place everything, the largest-first order is tried (it packs
tighter); if that fails too, the model does not fit, and `PlacementError` names the step with the most
live bytes.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

ALIGN = 4  # word alignment: the Cortex-M's natural access size


@dataclass(frozen=True)
class Buffer:
    name: str
    size: int
    first: int
    last: int
    # (step, bytes), steps rising and bytes falling: from that step on only the buffer's first bytes are live (a
    # smaller tensor written in place over a larger one that has died); the rest may hold other buffers
    shrinks: tuple[tuple[int, int], ...] = ()
    # (first step, last step, start, end): bytes [start, end) that hold nothing over those steps (a patch stage's
    # input read and its output not yet written there, passes/plan_memory.py); another buffer may lie there
    holes: tuple[tuple[int, int, int, int], ...] = ()

    def overlaps_in_time(self, other: "Buffer") -> bool:
        return self.first <= other.last and other.first <= self.last

    def size_at(self, step: int) -> int:
        """The bytes live at `step` and at every later step of the buffer's life at most."""
        size = self.size
        for at, bytes_ in self.shrinks:
            if at <= step:
                size = bytes_
        return size

    def free_runs(self, first: int, last: int) -> list[tuple[int, int]]:
        """The runs of bytes (start, end) that hold nothing from step `first` to `last`: holes spanning them,
        adjacent ones joined."""
        runs: list[tuple[int, int]] = []
        for start, end in sorted((a, b) for s0, s1, a, b in self.holes if s0 <= first and last <= s1):
            if runs and start <= runs[-1][1]:
                runs[-1] = (runs[-1][0], max(runs[-1][1], end))
            else:
                runs.append((start, end))
        return runs

    def clashes(self, at: int, other: "Buffer", other_at: int) -> bool:
        """Whether this buffer at byte `at` and other at `other_at`, live at a same step, share a byte: neither
        apart nor one inside a run of the other's bytes that holds nothing over its life."""
        size, other_size = self.sizes_beside(other)
        if at + size <= other_at or other_at + other_size <= at:
            return False
        return not (any(other_at + a <= at and at + size <= other_at + b
                        for a, b in other.free_runs(self.first, self.last))
                    or any(at + a <= other_at and other_at + other_size <= at + b
                           for a, b in self.free_runs(other.first, other.last)))

    def sizes_beside(self, other: "Buffer") -> tuple[int, int]:
        """This buffer's bytes and other's while both are live (the most of each over the steps they share)."""
        start = max(self.first, other.first)
        return self.size_at(start), other.size_at(start)


@dataclass(frozen=True)
class Plan:
    buffers: tuple[Buffer, ...]
    offsets: tuple[int, ...]  # within each buffer's region
    size: int  # the main arena's bytes (the only arena without regions)
    strategy: str = ""
    region_of: tuple[str, ...] = ()  # each buffer's region; empty: all in the one arena
    region_sizes: tuple[tuple[str, int], ...] = ()  # every region's arena bytes, the main one first

    def region(self, k: int) -> str:
        return self.region_of[k] if self.region_of else ""

    def in_region(self, name: str) -> "Plan":
        """The part of the plan in one region, as a plan of its own."""
        keep = [k for k in range(len(self.buffers)) if self.region(k) == name]
        return Plan(tuple(self.buffers[k] for k in keep), tuple(self.offsets[k] for k in keep),
                    dict(self.region_sizes).get(name, self.size), self.strategy)

    def conflicts(self) -> list[tuple[str, str]]:
        """Pairs of buffers live at the same time whose bytes overlap in one region (always empty for a valid plan)."""
        bad = []
        items = [(b, o, self.region(k)) for k, (b, o) in enumerate(zip(self.buffers, self.offsets))]
        for i, (a, oa, ra) in enumerate(items):
            for b, ob, rb in items[i + 1:]:
                if ra == rb and a.overlaps_in_time(b) and a.clashes(oa, b, ob):
                    bad.append((a.name, b.name))
        return bad

    def timeline(self, width: int = 64) -> str:
        """ASCII picture: rows are steps, columns are arena bytes scaled to `width`; one per region."""
        if self.region_of:
            why = (f"one region per buffer: the inputs and outputs in {self.region_sizes[0][0]} (the caller's arena), "
                   "the others, most accessed bytes per inference first, in the fastest region holding them at "
                   "every step of their lives\n\n")
            return why + "\n\n".join(f"region {name}: " + self.in_region(name).timeline(width)
                                      for name, _ in self.region_sizes)
        if not self.buffers:
            return "(empty arena)"
        scale = max(self.size, 1) / width
        first = min(b.first for b in self.buffers)
        last = max(b.last for b in self.buffers)
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        lines = [f"arena {self.size} B, one column = {scale:.0f} B"]
        for step in range(first, last + 1):
            row = ["."] * width
            live = 0
            for k, (b, off) in enumerate(zip(self.buffers, self.offsets)):
                if b.first <= step <= b.last:
                    live += b.size_at(step)
                    lo, hi = int(off / scale), max(int(off / scale) + 1, int((off + b.size_at(step)) / scale))
                    for c in range(lo, min(hi, width)):
                        row[c] = letters[k % len(letters)]
            lines.append(f"{step:4d} |{''.join(row)}| {live:>8} B live")
        lines.append("")
        for k, (b, off) in enumerate(zip(self.buffers, self.offsets)):
            lines.append(f"  {letters[k % len(letters)]} {b.name}: {b.size} B at {off}, "
                         f"steps {b.first}..{b.last}" + "".join(f", {n} B from {at}" for at, n in b.shrinks))
        return "\n".join(lines)


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def lowest_fit(busy: list[tuple[int, int]], size: int) -> int:
    """The lowest aligned offset where `size` bytes meet none of the sorted busy [start, end) ranges."""
    offset = 0
    for lo, hi in busy:
        if offset + size <= lo:
            break
        offset = max(offset, _align(hi))
    return offset


def _lowest_fit_each(lo: np.ndarray, hi: np.ndarray, need: np.ndarray) -> int:
    """The lowest aligned offset o where, for each busy range [lo, hi), o + its need <= lo or o >= hi: what this
    buffer needs beside each one differs where either shrinks."""
    candidates = np.unique(np.concatenate(([0], (hi + ALIGN - 1) // ALIGN * ALIGN)))
    fits = ((candidates[:, None] + need[None, :] <= lo[None, :]) | (candidates[:, None] >= hi[None, :])).all(axis=1)
    return int(candidates[np.argmax(fits)])


def _lowest_fit_holed(buffers: list[Buffer], i: int, beside: list[int], at: list[int]) -> int:
    """The lowest aligned offset for buffer i beside the placed buffers `beside` (at their offsets `at`), some of
    them with holes i may lie in."""
    b = buffers[i]
    candidates = {0}
    for j, o in zip(beside, at):
        candidates.add(_align(o + b.sizes_beside(buffers[j])[1]))
        candidates.update(_align(o + start) for start, _ in buffers[j].free_runs(b.first, b.last))
    return next(c for c in sorted(candidates) if not any(b.clashes(c, buffers[j], o) for j, o in zip(beside, at)))


def _first_fit(buffers: list[Buffer], order: list[int]) -> list[int]:
    # the buffers placed so far that are live beside the next one, found as arrays: a banded model has
    # thousands of buffers, and fuse_strips plans each candidate fusion
    first, last, size = (np.array([getattr(b, f) for b in buffers], np.int64) for f in ("first", "last", "size"))
    offsets = np.zeros(len(buffers), np.int64)
    placed = np.zeros(len(buffers), bool)
    shrinking = any(b.shrinks for b in buffers)
    holed = np.array([bool(b.holes) for b in buffers])
    for i in order:
        beside = np.flatnonzero(placed & (first <= last[i]) & (first[i] <= last))
        lo = offsets[beside]
        if holed[beside].any():
            offsets[i] = _lowest_fit_holed(buffers, i, beside.tolist(), lo.tolist())
        elif shrinking:
            pairs = np.array([buffers[i].sizes_beside(buffers[j]) for j in beside.tolist()], np.int64).reshape(-1, 2)
            offsets[i] = _lowest_fit_each(lo, lo + pairs[:, 1], pairs[:, 0])
        else:
            hi = lo + size[beside]
            by = np.lexsort((hi, lo))
            offsets[i] = lowest_fit(list(zip(lo[by].tolist(), hi[by].tolist())), int(size[i]))
        placed[i] = True
    return offsets.tolist()


ORDERS: dict[str, Callable[[Buffer], tuple[int, int]]] = {
    "largest first": lambda b: (-b.size, b.first),
    "largest size x lifetime": lambda b: (-b.size * (b.last - b.first + 1), -b.size),
    "longest lived": lambda b: (-(b.last - b.first), -b.size),
    "earliest": lambda b: (b.first, -b.size),
}


def plan(buffers: list[Buffer]) -> Plan:
    best: Plan | None = None
    for name, key in ORDERS.items():
        order = sorted(range(len(buffers)), key=lambda i: (key(buffers[i]), i))
        offsets = _first_fit(buffers, order)
        size = max((o + b.size for o, b in zip(offsets, buffers)), default=0)
        if best is None or size < best.size:
            best = Plan(tuple(buffers), tuple(offsets), _align(size), name)
    assert best is not None  # ORDERS is not empty
    return best


class _Sized(Protocol):
    @property
    def nbytes(self) -> int: ...


def state_layout(variables: Sequence[_Sized]) -> tuple[list[int], int]:
    """Where each variable (Graph.variables) sits in the state array beside the arena (each aligned to
    ALIGN), and the array's bytes: NAME_STATE_BYTES, and what the fit check counts."""
    offsets, end = [], 0
    for v in variables:
        offsets.append(end)
        end += (v.nbytes + ALIGN - 1) // ALIGN * ALIGN
    return offsets, end


@dataclass(frozen=True)
class Region:
    """A RAM region the arena may use: `capacity` bytes of it; `rank` its access cost, 0 the fastest."""

    name: str
    capacity: int
    rank: int


class PlacementError(Exception):
    """No placement in the regions holds every step's live buffers."""

    def __init__(self, step: int, live: int):
        super().__init__(f"step {step}: {live} B live")
        self.step, self.live = step, live


def _live(buffers: list[Buffer], where: list[int], regions: int, steps: int) -> list[list[int]]:
    """Bytes live at each step in each region, for the buffers assigned so far (where[i] >= 0)."""
    live = [[0] * steps for _ in range(regions)]
    for b, r in zip(buffers, where):
        if r >= 0:
            for s in range(b.first, b.last + 1):
                live[r][s] += _align(b.size_at(s))
    return live


def _room(live: list[int], b: Buffer) -> int:
    """The most bytes live in a region at a step of b's life with b added."""
    return max(live[s] + _align(b.size_at(s)) for s in range(b.first, b.last + 1))


def _ranked(regions: tuple[Region, ...]) -> list[int]:
    return sorted(range(len(regions)), key=lambda r: (regions[r].rank, -regions[r].capacity, r))


def _assign(buffers: list[Buffer], regions: tuple[Region, ...], order: list[int], pinned: dict[int, int],
            steps: int) -> list[int] | None:
    """Each buffer's region (an index into regions), or None: the live-bytes test of place()."""
    where = [-1] * len(buffers)
    live = _live(buffers, where, len(regions), steps)
    for i in [k for k in order if k in pinned] + [k for k in order if k not in pinned]:
        b = buffers[i]
        for r in ([pinned[i]] if i in pinned else _ranked(regions)):
            if _room(live[r], b) <= regions[r].capacity:
                where[i] = r
                for s in range(b.first, b.last + 1):
                    live[r][s] += _align(b.size_at(s))
                break
        else:
            return None
    return where


def _move(buffers: list[Buffer], regions: tuple[Region, ...], where: list[int], moved: int, away: int,
          steps: int) -> list[int] | None:
    """where with buffer `moved` in the fastest region other than `away` that takes it, or None."""
    rest = [r if i != moved else -1 for i, r in enumerate(where)]
    live = _live(buffers, rest, len(regions), steps)
    b = buffers[moved]
    for r in _ranked(regions):
        if r != away and _room(live[r], b) <= regions[r].capacity:
            rest[moved] = r
            return rest
    return None


def place(buffers: list[Buffer], regions: tuple[Region, ...], accesses: list[int], pinned: dict[int, int]) -> Plan:
    """A plan across `regions` (the first is the main one); `pinned` buffers (index -> region index) go
    where they are told; see the module's docstring. Raises PlacementError when no assignment fits."""
    steps = max((b.last for b in buffers), default=0) + 1
    density = sorted(range(len(buffers)), key=lambda i: (-accesses[i] / max(buffers[i].size, 1), -buffers[i].size, i))
    largest = sorted(range(len(buffers)), key=lambda i: (-buffers[i].size, i))
    for order in (density, largest):
        where = _assign(buffers, regions, order, pinned, steps)
        for _ in range(len(buffers) * len(regions)):  # each move takes a buffer further down the ranks
            if where is None:
                break
            plans = [plan([buffers[i] for i in range(len(buffers)) if where[i] == r]) for r in range(len(regions))]
            over = next((r for r in range(len(regions)) if plans[r].size > regions[r].capacity), None)
            if over is None:
                offsets, cursor = [0] * len(buffers), [0] * len(regions)
                for i, r in enumerate(where):
                    offsets[i] = plans[r].offsets[cursor[r]]
                    cursor[r] += 1
                return Plan(tuple(buffers), tuple(offsets), plans[0].size, plans[0].strategy,
                            tuple(regions[r].name for r in where),
                            tuple((region.name, p.size) for region, p in zip(regions, plans)))
            # fragmentation: the region's least accessed movable buffer goes elsewhere
            movable = [i for i in density if where[i] == over and i not in pinned]
            where = _move(buffers, regions, where, movable[-1], over, steps) if movable else None
    live = [sum(_align(b.size_at(s)) for b in buffers if b.first <= s <= b.last) for s in range(steps)]
    peak = max(range(steps), key=lambda s: live[s])
    raise PlacementError(peak, live[peak])


@dataclass(frozen=True)
class ArenaPlan:
    """A Plan plus which buffer holds each activation tensor (aliases share one) and each kernel's scratch."""

    plan: Plan
    buffer_of: dict[int, int]  # tensor index -> index into plan.buffers
    scratch_of: dict[int, int] = field(default_factory=dict)  # op index -> index into plan.buffers
    accesses: tuple[int, ...] = ()  # with regions: each buffer's bytes accessed per inference (the placement's proxy)
    within: dict[int, int] = field(default_factory=dict)  # tensor -> its offset inside its buffer, where not 0
    # op index -> (its call's argument (Const.key), the struct field holding it or "", index into plan.buffers)
    # of each constant array copied into the arena for that step (passes/stage_weights.py)
    staged: dict[int, tuple[tuple[tuple[str, str], str, int], ...]] = field(default_factory=dict)
    # --external-input: tensor -> (the graph input whose bytes it is, by position; the byte offset in it) of the
    # tensors read where the caller keeps its inputs, in no buffer of the arena
    outside: dict[int, tuple[int, int]] = field(default_factory=dict)

    def offset(self, tensor: int) -> int:
        return self.plan.offsets[self.buffer_of[tensor]] + self.within.get(tensor, 0)

    def buffer(self, tensor: int) -> Buffer:
        return self.plan.buffers[self.buffer_of[tensor]]
