"""Estimated cycles of the six anchor models on each core with a cycle model: the Cortex-M4 (mps2-an386),
the M55 (mps3-an547, Helium), the M7 (mps2-an500) and the M33 (mps2-an505), each with the kernels its board's features allow;
one inference of seeded random inputs traced under QEMU and costed by mcugen/validation/core_models/<core>.py
(zero wait states).

    python benchmarks/bench_core_cycles.py  # prints the table and rewrites it in benchmarks/README.md
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mcugen import ops
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import build_board
from mcugen.targets.target import Target
from mcugen.validation.compare import random_inputs
from mcugen.validation.cycles import estimate_cycles

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402
from bench_boards import ANCHORS, MODELS  # noqa: E402

BOARDS = ("mps2-an386", "mps3-an547", "mps2-an500", "mps2-an505")


def main() -> int:
    boards = [load_board(b) for b in BOARDS]
    heads = (f"{b.cpu.name.removeprefix('Arm ')} ({b.id}) est. cycles | CPI | MAC / cycle" for b in boards)
    rows = ["| model | MACs | " + " | ".join(heads) + " |",
            "|---|---|" + "---|---|---|" * len(boards)]
    for name in ANCHORS:
        cells = []
        macs = 0
        for board in boards:
            g = compile_model(MODELS / f"{name}.tflite", features=board.features, budget=board.budget())
            macs = sum(ops.lookup(op.opcode).macs(g, op) for op in g.ops)
            with tempfile.TemporaryDirectory() as tmp:
                r = build_board(g, board, OutDir(Path(tmp) / board.id), name)
                e = estimate_cycles(Target.of(board.id), r.program, g, random_inputs(g, 1, seed=0)[0], board.cpu)
            cells.append(f"{e.cycles:,} | {e.cycles / e.instructions:.2f} | {macs / e.cycles:.2f}")
        rows.append(f"| {name} | {macs:,} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    rewrite("core-cycles-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
