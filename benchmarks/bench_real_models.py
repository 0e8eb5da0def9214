"""The public models of tests/models/real: verdict, MACs, arena vs TFLM's, instructions on the
emulated Cortex-M4 (QEMU mps2-an386, DSP kernels; a stateful model's mean over consecutive steps).

    python benchmarks/bench_real_models.py       # prints the table and rewrites it in README.md

TFLM's arena is what its RecordingMicroAllocator reports for the same file (head: the planned
activations; total adds the interpreter's persistent tail), from the tflite-micro package.
"""
from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

from mcugen import ops
from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.passes.check_support import find_problems
from mcugen.codegen.pipeline import compile_model, read
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

REAL = Path(__file__).resolve().parents[1] / "tests" / "models" / "real"


def tflm_arena(path: Path) -> tuple[int, int] | None:
    """(head, total) bytes of TFLM's arena for the model, or None where TFLM refuses it."""
    from tflite_micro import runtime

    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            it = runtime.Interpreter.from_bytes(path.read_bytes(), arena_size=16 << 20,
                                                intrepreter_config=runtime.InterpreterConfig.kAllocationRecording)
            it.print_allocations()
        except RuntimeError:
            return None
        finally:
            sys.stdout.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
        log.seek(0)
        text = log.read().decode(errors="replace")
    head = re.search(r"allocation head (\d+)", text)
    total = re.search(r"allocation total (\d+)", text)
    return (int(head.group(1)), int(total.group(1))) if head and total else None


# Refused models measured up to a supported tensor (`--outputs`) while the rest waits for a kernel
CUTS: dict[str, tuple[str, ...]] = {}
STEPS = 20  # consecutive invocations for a stateful model (state kept), each checked bit-exact


def measure(path: Path, outputs: tuple, tflm, label: str) -> str:
    an386 = load_board("mps2-an386")
    g = compile_model(path, outputs, features=an386.features)
    macs = sum(ops.lookup(op.opcode).macs(g, op) for op in g.ops)
    steps = STEPS if g.variables else 1
    with tempfile.TemporaryDirectory() as tmp:
        r = build_board(g, an386, OutDir(Path(tmp) / "an386"), path.name)
        _, results = run_on_target(Target.of(an386.id), r.program, g, random_inputs(g, steps, seed=0))
        assert all(x.passed for x in results), f"{path.name} is not bit-exact on {an386.id}"
    instructions = int(sum(x.unit.count(x.cycles) for x in results) / steps)
    arena, state = g.arena.plan.size, sum(v.nbytes for v in g.variables)
    head, total = tflm
    label += f", stateful: mean of {steps} steps" if g.variables else ""
    return (f"| {path.stem} | {label} | {macs:,} | {arena:,} | {state:,} | {head:,} ({total:,}) | "
            f"{(arena - head) / head:+.1%} | {(arena + state) / total:.2f} | {instructions:,} | "
            f"{macs / instructions:.3f} |")


def main() -> int:
    rows = ["| model | mcugen verdict | MACs | mcugen arena B | state B | TFLM head B (total) | arena vs head | "
            "(arena + state) / TFLM total | instructions per step on mps2-an386 | MAC / instruction |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for path in sorted(REAL.glob("*.tflite")):
        problems = find_problems(read(path))
        tflm = tflm_arena(path)
        if not problems:
            rows.append(measure(path, (), tflm, "supported"))
        else:
            verdict = problems[0] if len(problems[0]) < 70 else problems[0][:67] + "..."
            tflm_cell = f"{tflm[0]:,} ({tflm[1]:,})" if tflm else "refused"
            rows.append(f"| {path.stem} | refused: {verdict} | | | | {tflm_cell} | | | | |")
            if path.stem in CUTS:
                rows.append(measure(path, CUTS[path.stem], tflm, f"up to `--outputs {CUTS[path.stem][0]}`"))
        print(rows[-1], flush=True)
    rewrite("real-models-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
