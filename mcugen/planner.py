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
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

ALIGN = 4  # word alignment: the Cortex-M's natural access size


@dataclass(frozen=True)
class Buffer:
    name: str
    size: int
    first: int
    last: int

    def overlaps_in_time(self, other: "Buffer") -> bool:
        return self.first <= other.last and other.first <= self.last


@dataclass(frozen=True)
class Plan:
    buffers: tuple[Buffer, ...]
    offsets: tuple[int, ...]
    size: int
    strategy: str = ""

    def conflicts(self) -> list[tuple[str, str]]:
        """Pairs of buffers live at the same time whose bytes overlap (always empty for a valid plan)."""
        bad = []
        items = list(zip(self.buffers, self.offsets))
        for i, (a, oa) in enumerate(items):
            for b, ob in items[i + 1:]:
                if a.overlaps_in_time(b) and oa < ob + b.size and ob < oa + a.size:
                    bad.append((a.name, b.name))
        return bad

    def timeline(self, width: int = 64) -> str:
        """ASCII picture: rows are steps, columns are arena bytes scaled to `width`."""
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
                    live += b.size
                    lo, hi = int(off / scale), max(int(off / scale) + 1, int((off + b.size) / scale))
                    for c in range(lo, min(hi, width)):
                        row[c] = letters[k % len(letters)]
            lines.append(f"{step:4d} |{''.join(row)}| {live:>8} B live")
        lines.append("")
        for k, (b, off) in enumerate(zip(self.buffers, self.offsets)):
            lines.append(f"  {letters[k % len(letters)]} {b.name}: {b.size} B at {off}, "
                         f"steps {b.first}..{b.last}")
        return "\n".join(lines)


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def _first_fit(buffers: list[Buffer], order: list[int]) -> list[int]:
    offsets = [0] * len(buffers)
    placed: list[int] = []
    for i in order:
        b = buffers[i]
        busy = sorted((offsets[j], offsets[j] + buffers[j].size) for j in placed
                      if buffers[j].overlaps_in_time(b))
        offset = 0
        for lo, hi in busy:
            if offset + b.size <= lo:
                break
            offset = max(offset, _align(hi))
        offsets[i] = offset
        placed.append(i)
    return offsets


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


@dataclass(frozen=True)
class ArenaPlan:
    """A Plan plus which buffer holds each activation tensor (aliases share one) and each kernel's scratch."""

    plan: Plan
    buffer_of: dict[int, int]  # tensor index -> index into plan.buffers
    scratch_of: dict[int, int] = field(default_factory=dict)  # op index -> index into plan.buffers

    def offset(self, tensor: int) -> int:
        return self.plan.offsets[self.buffer_of[tensor]]

    def buffer(self, tensor: int) -> Buffer:
        return self.plan.buffers[self.buffer_of[tensor]]
