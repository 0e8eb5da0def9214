"""Emulated validation throughput: wall time per sample of `mcugen test` on QEMU mps2-an386, against the
model's own instructions (what the emulator must execute) and its input bytes (what the link must carry).

    python benchmarks/bench_validation.py [SAMPLES] [JOBS]     # prints one row per model

Each model is built once, then validated on SAMPLES random inputs; the firmware build and QEMU's start are
timed apart from the samples. Instructions per second of wall time = instructions per inference x
samples / the samples' wall time.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target

ROOT = Path(__file__).resolve().parents[1] / "tests" / "models"
MODELS = [ROOT / "mlperf_kws_dscnn.tflite", ROOT / "tflm_person_detect.tflite",
          ROOT / "real" / "efx_mediapipe_face_landmark.tflite"]


def main() -> int:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    board = load_board("mps2-an386")
    print("| model | input B | instructions per inference | wall per sample (ms) | samples per minute | "
          "instructions per second of wall | jobs |")
    print("|---|---|---|---|---|---|---|")
    for model in MODELS:
        g = compile_model(model, features=board.features)
        with tempfile.TemporaryDirectory() as work:
            result = build_board(g, board, OutDir(Path(work) / "fw"), model.name)
            xs = random_inputs(g, samples, seed=1)
            start = time.monotonic()
            _, results = run_on_target(Target.of(board.id), result.program, g, xs, jobs=jobs)
            wall = time.monotonic() - start
        assert all(r.passed for r in results)
        instructions = sorted(r.time for r in results)[len(results) // 2]
        print(f"| {model.stem} | {sum(g.tensors[t].nbytes for t in g.inputs):,} | {instructions:,} | "
              f"{1000 * wall / samples:.1f} | {60 * samples / wall:,.0f} | {instructions * samples / wall / 1e6:,.0f} M "
              f"| {jobs} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
