"""`--tune`: per layer, the kernel variant that runs fewest instructions, measured on the board's core.

On a core with an ISA extension a layer may have a kernel variant (mcugen/variants.py, runtime_c/dsp/)
and the reference kernel of runtime_c/src/. Which is faster depends on the layer's shapes (a few
channels, a tiny spatial size, a block of six positions that is mostly padding), so instead of
guessing, the model is built both ways for an emulated board with the same core, each build runs
one sample under QEMU (where instruction counts are exact and repeatable) with per-layer timing,
and every layer keeps its faster variant (a conv fused into its consumer's call, passes/fuse_strips.py,
is timed with it, against the two reference kernels). Both builds must be bit-exact with the golden model;
the layers' timings don't depend on each other's kernels, so one run per variant covers all
combinations. The choice is recorded in each layer's comment in the generated C (Call.note) and
in the build report (Tuning.layers).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from mcugen.boards import Board, all_boards
from mcugen.compare import random_inputs
from mcugen.errors import McugenError
from mcugen.firmware import build_board
from mcugen.ir import Graph
from mcugen.outdir import OutDir
from mcugen.pipeline import compile_model
from mcugen.targets import Target
from mcugen.validate import run_on_target

VARIANTS = ("optimized", "reference")  # every layer on its first variant the core allows; on its reference kernel


@dataclass(frozen=True)
class Measured:
    """One layer's variants: time per kernel (in Tuning.unit)."""

    times: dict
    reference_kernel: str

    @property
    def chosen(self) -> str:
        return min(self.times, key=lambda kernel: (self.times[kernel], kernel != self.reference_kernel))


@dataclass(frozen=True)
class Tuning:
    measured_on: str  # the emulated board
    unit: str  # what the times count: instructions under QEMU
    layers: dict  # op index -> Measured, for the layers with more than one variant

    @property
    def reference(self) -> frozenset[int]:
        """Ops whose reference kernel won (or tied)."""
        return frozenset(i for i, m in self.layers.items() if m.chosen == m.reference_kernel)


def emulator_for(board: Board) -> Board:
    """The board itself when QEMU runs it, else an emulated board with the same core."""
    if board.emulated:
        return board
    for other in all_boards().values():
        if other.emulated and other.core == board.core and other.features == board.features:
            return other
    raise McugenError(f"--tune measures on an emulated {board.core}, and no board in boards/ emulates one",
                      "build without --tune")


def tune(model_path: Path, board: Board, outputs: tuple[str, ...], work: Path) -> Tuning:
    emulator = emulator_for(board)
    timed: dict[str, tuple[Graph, list[int]]] = {}
    for k, variant in enumerate(VARIANTS, start=1):
        print(f"tuning {k}/{len(VARIANTS)}: {variant} kernels on {emulator.id}", file=sys.stderr, flush=True)
        g = compile_model(model_path, outputs, features=board.features if variant == "optimized" else frozenset())
        result = build_board(g, emulator, OutDir(work / variant), Path(model_path).name)
        _, results = run_on_target(Target(emulator), result.program, g, random_inputs(g, 1, seed=0), profile=True)
        if not results[0].passed:
            raise McugenError(f"internal error: the {variant} kernels are not bit-exact on {emulator.id} while tuning",
                              "build without --tune and report this model")
        timed[variant] = (g, [results[0].unit.count(c) for c in results[0].layer_cycles])
        unit = results[0].unit.name
    (fast_g, fast_t), (ref_g, ref_t) = timed["optimized"], timed["reference"]
    layers = {}
    for i, (a, b) in enumerate(zip(fast_g.ops, ref_g.ops)):
        if a.call is None or b.call is None:
            continue
        # a conv fused into this layer's call (its own layer then takes no time) is measured with it,
        # and both layers keep the same variant
        group = [op.index for op in fast_g.ops if op.fused_into == i] + [i]
        kernels = [ref_g.ops[k].call.kernel for k in group if ref_g.ops[k].call is not None]
        if [a.call.kernel] == kernels:
            continue
        reference = " + ".join(kernels)
        measured = Measured({a.call.kernel: sum(fast_t[k] for k in group), reference: sum(ref_t[k] for k in group)},
                            reference)
        layers.update(dict.fromkeys(group, measured))
    return Tuning(emulator.id, unit, layers)
