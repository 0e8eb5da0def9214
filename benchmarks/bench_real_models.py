"""The public models of tests/models/real: verdict, MACs, arena vs TFLM's, instructions on the
emulated Cortex-M4 (QEMU mps2-an386; SysTick ticks under -icount times 40, as bench_boards.py).

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
from mcugen.boards import load_board
from mcugen.compare import random_inputs
from mcugen.firmware import build_board
from mcugen.outdir import OutDir
from mcugen.passes.check_support import find_problems
from mcugen.pipeline import compile_model, read
from mcugen.validate import run_on_target

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


def main() -> int:
    an386 = load_board("mps2-an386")
    per_tick = 1e9 / an386.clock_hz
    rows = ["| model | mcugen verdict | MACs | mcugen arena B | TFLM head B (total) | arena vs head | "
            "instructions on mps2-an386 | MAC / instruction |", "|---|---|---|---|---|---|---|---|"]
    for path in sorted(REAL.glob("*.tflite")):
        problems = find_problems(read(path))
        tflm = tflm_arena(path)
        tflm_cell = f"{tflm[0]:,} ({tflm[1]:,})" if tflm else "refused"
        if problems:
            verdict = problems[0] if len(problems[0]) < 70 else problems[0][:67] + "..."
            rows.append(f"| {path.stem} | refused: {verdict} | | | {tflm_cell} | | | |")
        else:
            g = compile_model(path)
            macs = sum(ops.lookup(op.opcode).macs(g, op) for op in g.ops)
            with tempfile.TemporaryDirectory() as tmp:
                r = build_board(g, an386, OutDir(Path(tmp) / "an386"), path.name)
                _, results = run_on_target(an386.id, r.program, g, random_inputs(g, 1, seed=0))
                assert results[0].passed, f"{path.name} is not bit-exact on {an386.id}"
            instructions = int(results[0].cycles * per_tick)
            arena = g.arena.plan.size
            rows.append(f"| {path.stem} | supported | {macs:,} | {arena:,} | {tflm_cell} | "
                        f"{(arena - tflm[0]) / tflm[0]:+.1%} | {instructions:,} | {macs / instructions:.3f} |")
        print(rows[-1], flush=True)
    rewrite("real-models-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
