"""A float user's small CNN quantized to int8 (examples/digits: `mcugen quantize` on its calibration images),
and the whole firmware of each, float and int8, on every board that builds offline (default build, the board's
own kernels): the int8 model's firmware must be the smaller one.

    python benchmarks/bench_digits_flash.py  # prints the table and rewrites it in benchmarks/README.md
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.boards import all_boards
from mcugen.targets.firmware import build_board

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

DIGITS = Path(__file__).resolve().parents[1] / "examples" / "digits"


def main() -> int:
    rows = ["| board | core | float firmware B | int8 firmware B | int8 / float |", "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        quantized = Path(tmp) / "digits_int8.tflite"
        subprocess.run([sys.executable, "-m", "mcugen", "quantize", str(DIGITS / "digits_float.tflite"), "--data",
                        str(DIGITS / "calibration.npz"), "--out", str(quantized)], check=True)
        for board_id, board in sorted(all_boards().items()):
            if board.offline is None:
                continue
            flash = []
            for model in (DIGITS / "digits_float.tflite", quantized):
                g = compile_model(model, features=board.features, budget=board.budget())
                flash.append(build_board(g, board, OutDir(Path(tmp) / board_id / model.stem), model.name).image.flash)
            rows.append(f"| {board_id} | {board.cpu.name} | {flash[0]:,} | {flash[1]:,} | {flash[1] / flash[0]:.2f} |")
            print(rows[-1], flush=True)
    rewrite("digits-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
