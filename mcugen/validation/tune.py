"""`--tune`: per layer, the kernel that runs fastest, measured on the board's core.

On a core with an ISA extension a layer may have several candidate kernels: its variants the core
allows (mcugen/kernels/: runtime_c/dsp/, runtime_c/mve/) and the reference kernel of runtime_c/src/.
Which is fastest depends on the layer's shapes (a few channels, a tiny spatial size, a block of six
positions that is mostly padding), so instead of guessing, the model is built once per rank (round r:
every layer on its r-th candidate, or its last, the reference, when it has fewer) for an emulated board
with the same core, each build runs one sample under QEMU (where instruction counts are exact and
repeatable) with per-layer timing, in estimated cycles where the core has a timing table (mcugen/validation/cycles.py:
a kernel is judged by cycles, not instructions), and every layer keeps its fastest candidate (a conv fused into its
consumer's call, passes/fuse_strips.py, is timed with it: the two are one group, against the same two
layers unfused). Every build must be bit-exact with the golden model; the layers' timings don't depend
on each other's kernels, so one run per rank covers all combinations. The choice is recorded in each
layer's comment in the generated C (Call.note) and in the build report (Tuning.layers).
"""
from __future__ import annotations

import sys
from pathlib import Path

from mcugen.targets.boards import Board, emulated_twin
from mcugen.validation.compare import random_inputs
from mcugen.validation.cycles import estimate_cycles
from mcugen.errors import McugenError
from mcugen.targets.firmware import build_board
from mcugen.ir.graph import Compiled
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.ir.budget import Budget
from mcugen.ir.tuning import Measured, Tuning
from mcugen.validation.validate import run_on_target
from mcugen.kernels import candidates


def tune(model_path: Path, board: Board, outputs: tuple[str, ...], work: Path,
         signature: str | None = None) -> Tuning:
    emulator = emulated_twin(board, "--tune measures each layer's kernels there")
    every = Budget(optimize="speed")  # every candidate measured; the build's --optimize then rules out what it must
    first = compile_model(model_path, outputs, features=board.features, signature=signature, budget=every,
                          fp16=board.fp16_arithmetic)
    rounds = max((len(candidates(first, op, board.features)) for op in first.ops), default=1)
    runs: list[tuple[Compiled, list[int]]] = []
    unit = ""
    for r in range(rounds):
        print(f"tuning {r + 1}/{rounds}: each layer on its kernel #{r + 1} (or its reference) on {emulator.id}",
              file=sys.stderr, flush=True)
        g = first if r == 0 else compile_model(model_path, outputs, features=board.features, signature=signature,
                                               tuning=Tuning(emulator.id, "", {}, round=r), budget=every,
                                               fp16=board.fp16_arithmetic)
        result = build_board(g, emulator, OutDir(work / f"round-{r}"), Path(model_path).name)
        inputs = random_inputs(g, 1, seed=0)
        _, results = run_on_target(Target(emulator), result.program, g, inputs, profile=True)
        if not results[0].passed:
            raise McugenError(f"internal error: the kernels of round {r + 1} are not bit-exact on {emulator.id} "
                              "while tuning", "build without --tune and report this model")
        if emulator.cpu.timing is not None:  # kernels are judged in cycles where the core has a timing table
            estimate = estimate_cycles(Target(emulator), result.program, g, inputs[0], emulator.cpu,
                                       memory=board.memory_timing)
            runs.append((g, estimate.layers_with_memory))
            unit = "estimated cycles" + (f" with {board.id}'s flash timing" if board.memory_timing else "")
        else:
            counted = results[0].unit
            if counted is None:
                raise RuntimeError("run_on_target left the time unit unset")
            runs.append((g, [counted.count(c) for c in results[0].layer_cycles]))
            unit = counted.name
    # a conv fused into a consumer in any round is timed with it in every round
    groups: dict[int, list[int]] = {op.index: [op.index] for op in first.ops}
    for g, _ in runs:
        for op in g.ops:
            if op.fused_into is not None and op.index in groups:
                groups[op.fused_into] = sorted({*groups[op.fused_into], *groups.pop(op.index)})
    layers: dict[int, Measured] = {}
    fused: set[int] = set()
    for consumer, members in groups.items():
        times: dict[str, int] = {}
        rounds_of: dict[str, int] = {}
        fused_in = set()
        for r, (g, t) in enumerate(runs):
            kernels = [call.kernel for k in members if (call := g.ops[k].call) is not None]
            if any(g.ops[k].fused_into == consumer for k in members):
                fused_in.add(r)
            label = " + ".join(kernels)
            if kernels and label not in times:
                times[label], rounds_of[label] = sum(t[k] for k in members), r
        if len(times) > 1:
            measured = Measured(times, rounds_of)
            layers.update(dict.fromkeys(members, measured))
            if measured.rounds[measured.chosen] in fused_in:
                fused.add(consumer)
        elif 0 in fused_in:
            fused.add(consumer)
    return Tuning(emulator.id, unit, layers, fused=frozenset(fused))
