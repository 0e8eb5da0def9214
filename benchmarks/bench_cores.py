"""Instructions per inference of the six anchor models on every emulated core class: Cortex-M4 (mps2-an386),
Cortex-M33 (mps2-an505), Cortex-M55 (mps3-an547), Cortex-M0 (microbit), each with the kernel variants its
board's features allow; models that do not fit a board are named with the fit check's reason.

    python benchmarks/bench_cores.py     # prints the table and rewrites it in benchmarks/README.md

Instructions, not cycles: SysTick ticks under `-icount shift=0` times the ticks' length at the board's
clock; on the M55 QEMU counts one MVE instruction as one, whatever its beats.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mcugen.boards import load_board
from mcugen.compare import random_inputs
from mcugen.errors import McugenError
from mcugen.firmware import build_board
from mcugen.outdir import OutDir
from mcugen.pipeline import compile_model
from mcugen.targets import Target
from mcugen.validate import run_on_target

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402
from bench_boards import ANCHORS, MODELS  # noqa: E402

BOARDS = ("mps2-an386", "mps2-an505", "mps3-an547", "microbit")
# TFLM + CMSIS-NN built for the M55 with Helium (same commits and method as ANCHORS): the one of the six
# models measured there
M55_CMSIS = {"mlperf_kws_dscnn": 1_814_067}


def measure(name: str, board_id: str) -> str:
    board = load_board(board_id)
    g = compile_model(MODELS / f"{name}.tflite", features=board.features)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            r = build_board(g, board, OutDir(Path(tmp) / board_id), name)
        except McugenError as exc:
            return "does not fit: " + str(exc).split(": it needs")[0].split("fit ")[-1]
        _, results = run_on_target(Target.of(board_id), r.program, g, random_inputs(g, 1, seed=0))
    assert results[0].passed, f"{name} is not bit-exact on {board_id}"
    return f"{int(results[0].cycles * 1e9 / board.clock_hz):,}"


def main() -> int:
    rows = ["| model | TFLM + CMSIS-NN on the M4 | M4 (an386, DSP) | M33 (an505, DSP) | M55 (an547) | "
            "TFLM + CMSIS-NN on the M55 (MVE) | M0 (microbit, 16 KB RAM) |", "|---|---|---|---|---|---|---|"]
    for name, (_, cmsis, _) in ANCHORS.items():
        cells = {b: measure(name, b) for b in BOARDS}
        m55 = f"{M55_CMSIS[name]:,}" if name in M55_CMSIS else "not measured"
        rows.append(f"| {name} | {cmsis:,} | {cells['mps2-an386']} | {cells['mps2-an505']} | {cells['mps3-an547']} | "
                    f"{m55} | {cells['microbit']} |")
        print(rows[-1], flush=True)
    rewrite("core-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
