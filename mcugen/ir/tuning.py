"""What `--tune` measured (mcugen/validation/tune.py), as the lowering reads it: data only, below the IR, so that the
IR and the passes name it without importing the tuner."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Measured:
    """One layer's (or fused group's) candidates: time per kernel (in Tuning.unit; several kernels
    joined by " + " for a group run unfused), and the round that ran each."""

    times: dict[str, int]
    rounds: dict[str, int]

    @property
    def chosen(self) -> str:
        """The fastest; on a tie the later round's (the plainer kernel: the reference comes last)."""
        return min(self.times, key=lambda kernel: (self.times[kernel], -self.rounds[kernel]))


@dataclass(frozen=True)
class Tuning:
    measured_on: str  # the emulated board
    unit: str  # what the times count: estimated cycles, or instructions under QEMU where the core has no timing table
    layers: dict[int, Measured]  # op index -> its group's times, for the layers with more than one candidate
    round: int = 0  # the candidate of every layer not in `layers` (while measuring: of every layer)
    fused: frozenset[int] | None = None  # the consumers that run a conv in their call; None: any that can

    def rank_of(self, op: int) -> int:
        """Which of the op's candidates (mcugen.kernels.candidates) it runs."""
        measured = self.layers.get(op)
        return self.round if measured is None else measured.rounds[measured.chosen]

    def may_fuse(self, consumer: int) -> bool:
        return self.fused is None or consumer in self.fused

    def summary(self) -> str:
        groups = {id(m): m for m in self.layers.values()}.values()
        moved = sum(1 for m in groups if m.rounds[m.chosen] > 0)
        return (f"tuned on {self.measured_on}: {len(groups)} layer(s) had a choice of kernels, {moved} run "
                "another than the one picked without measuring")
