"""What a candidate of the precision search costs: its build for the board's core (as --optimize, --patches and
--max-arena ask), one inference's estimated cycles on the core's emulator, its flash and RAM, and whether it fits
the user's board."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.budget import Budget
from mcugen.targets.boards import Board, emulated_twin


@dataclass(frozen=True)
class Cost:
    time: int  # one inference: estimated cycles, or instructions where the core has no timing table
    unit: str  # "cycles" or "instructions"
    flash: int  # the model's code and constants, and the kernels it calls (bytes)
    ram: int  # the arena and the model's state (bytes)
    layers: tuple[tuple[str, int], ...] = ()  # each op of the built model: (opcode, its time)
    misfit: str = ""  # why it does not fit the user's board ("": it fits)

    def of(self, kind: str) -> int:
        return int(getattr(self, kind))


@dataclass(frozen=True)
class Builds:
    """What --optimize, --patches and --max-arena ask of every candidate's build (and the choice's)."""

    optimize: str = "balanced"
    patches: str = "auto"
    max_arena: int | None = None


def measure_cost(content: bytes, board: Board, work: Path, sample: list[np.ndarray], builds: Builds) -> Cost:
    """Build the model for `board`'s core (as `builds` asks), run `sample` once on the emulator with every
    instruction counted (mcugen/validation/cycles.py), and read the sizes from the build."""
    from mcugen.validation.cycles import estimate_cycles
    from mcugen.targets.firmware import build_board, check_fit
    from mcugen.codegen.outdir import OutDir
    from mcugen.codegen.patch_plan import arena_bytes
    from mcugen.codegen.pipeline import compile_model
    from mcugen.validation.golden import model_inputs
    from mcugen.targets.target import Target

    path = work / "candidate.tflite"
    path.write_bytes(content)
    twin = emulated_twin(board, "the search measures each candidate there")
    g = compile_model(path, features=board.features, budget=board_budget(board, builds), fp16=board.fp16_arithmetic)
    result = build_board(g, twin, OutDir(work / "fw"), path.name)
    estimate = estimate_cycles(Target.of(twin.id), result.program, g, model_inputs(g, sample), twin.cpu,
                               timeout=600, memory=board.memory_timing if twin.cpu.timing else None)
    ram = arena_bytes(g)  # the arena and the variables, as the fit check and --max-arena count them
    try:  # built on the twin, held to the user's board
        check_fit(g, board, result.const_bytes, harness_ram=0)
        misfit = ""
    except McugenError as exc:
        misfit = exc.problem
    if builds.max_arena is not None and ram > builds.max_arena:
        misfit = misfit or f"its arena needs {ram:,} B, more than --max-arena {builds.max_arena:,} B"
    per_layer = estimate.layers_with_memory
    return Cost(sum(per_layer), "cycles" if estimate.timing else "instructions",
                result.model.flash + result.kernels.flash, ram,
                tuple((op.opcode, int(t)) for op, t in zip(g.ops, per_layer)), misfit)


def board_budget(board: Board, builds: Builds) -> Budget:
    """A candidate's budget on `board`: one arena (the search compares models, not placements), in bands where
    it does not fit the board's RAM or --max-arena (as `build` would run it; one that still does not is a
    misfit, measure_cost says)."""
    budget = board.budget(optimize=builds.optimize)
    room = min((r for r in (budget.arena_room, builds.max_arena) if r is not None), default=None)
    return dataclasses.replace(budget, regions=None, patches=builds.patches, arena_room=room)


def builds_for(cost: str, builds: Builds) -> Builds:
    """How a candidate is built: its smallest build (--optimize size) where flash is the cost."""
    return replace(builds, optimize="size") if cost == "flash" else builds
