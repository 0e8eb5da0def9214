"""`mcugen quantize` on the MLPerf Tiny float models against the official int8 models, and the precision
search's wall time (issue 43).

    python benchmarks/bench_quantize.py   # prints the tables and rewrites them in benchmarks/README.md

No data set of these benchmarks ships here: both int8 models are compared on random inputs spanning the
official int8 model's input range (the range its input quantization covers), mcugen's calibrated on 100
others from the same range. Each int8 model is measured on the emulated Cortex-M4 (mps2-an386):
constants (the build's .rodata of the model), arena, instructions and estimated cycles of one inference;
and against the float model on 50 inputs: top-1 agreement (classifiers) and the output's SNR.
"""
from __future__ import annotations

import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from mcugen.targets.boards import load_board
from mcugen.validation.cycles import estimate_cycles
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.quantize.measure import accuracy, output_predictions
from mcugen.quantize.model import load_float_model
from mcugen.quantize.recipe import Plan, calibrate, check, model_inputs, quantize
from mcugen.targets.target import Target

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "tests" / "models"
BOARD = "mps2-an386"
PAIRS = (("mlperf_ic_resnet8_float", "mlperf_ic_resnet8"), ("mlperf_vww_mobilenet_float", "mlperf_vww_mobilenet"),
         ("mlperf_ad_autoencoder_float", "mlperf_ad_autoencoder"))


def inputs_in_range(official, shape: tuple[int, ...], count: int, seed: int) -> list[list[np.ndarray]]:
    t = official.tensors[official.inputs[0]]
    info = np.iinfo(t.dtype)
    low, high = (t.q.s * (v - t.q.zp) for v in (info.min, info.max))
    rng = np.random.default_rng(seed)
    return [[rng.uniform(low, high, shape).astype(np.float32)] for _ in range(count)]


def on_board(path: Path, sample) -> tuple[int, int, int, int]:
    """(constant bytes, arena bytes, instructions, est. cycles) of one inference on BOARD."""
    board = load_board(BOARD)
    g = compile_model(path, features=board.features)
    with tempfile.TemporaryDirectory() as tmp:
        built = build_board(g, board, OutDir(Path(tmp) / "fw"), path.stem)
        estimate = estimate_cycles(Target.of(BOARD), built.program, g, model_inputs(g, sample), board.cpu)
    return built.model.rodata, built.arena_bytes, estimate.instructions, estimate.cycles


def compare() -> list[str]:
    rows = ["| model | int8 from | constants (B) | arena (B) | instructions | est. cycles | top-1 agreement "
            "with float | output SNR (dB) |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for float_name, int8_name in PAIRS:
        model = load_float_model(MODELS / f"{float_name}.tflite")
        official = compile_model(MODELS / f"{int8_name}.tflite")
        shape = model.graph.tensors[model.graph.inputs[0]].shape
        calibration = inputs_in_range(official, shape, 100, seed=1)
        tests = inputs_in_range(official, shape, 50, seed=2)
        ours = check(quantize(model, calibrate(model, calibration), Plan()), int8_name, calibration[:2])
        reference = output_predictions(model.graph, tests)
        with tempfile.TemporaryDirectory() as tmp:
            mine = Path(tmp) / f"{int8_name}_mcugen.tflite"
            mine.write_bytes(ours.content)
            for label, path, graph in (("mcugen quantize", mine, ours.graph),
                                       ("official", MODELS / f"{int8_name}.tflite", official)):
                acc = accuracy(graph, tests, reference, None)
                constants, arena, instructions, cycles = on_board(path, tests[0])
                classifier = int(np.prod(graph.tensors[graph.outputs[0]].shape)) <= 16
                rows.append(f"| {float_name} | {label} | {constants:,} | {arena:,} | {instructions:,} | {cycles:,} | "
                            f"{f'{100 * acc.top1:.0f}%' if classifier else '-'} | "
                            f"{'exact' if acc.snr_db == math.inf else f'{acc.snr_db:.1f}'} |")
                print(rows[-1], flush=True)
    return rows


def search_time() -> list[str]:
    digits = ROOT / "examples" / "digits"
    rows = ["| search | candidates | wall time (s) |", "|---|---:|---:|"]
    for drop in ("1", "0"):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.monotonic()
            subprocess.run([sys.executable, "-m", "mcugen", "quantize", digits / "digits_float.tflite", "--data",
                            digits / "calibration.npz", "--search", "--eval", digits / "evaluation.npz",
                            "--labels", digits / "labels.npy", "--board", BOARD, "--max-drop", drop,
                            "--out", Path(tmp) / "chosen.tflite", "--json", Path(tmp) / "r.json"],
                           check=True, capture_output=True)
            seconds = time.monotonic() - start
            import json

            count = len(json.loads((Path(tmp) / "r.json").read_text())["candidates"])
        rows.append(f"| digits CNN, labels, --max-drop {drop} | {count} | {seconds:.0f} |")
        print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    rewrite("quantize-mlperf", compare())
    rewrite("quantize-search", search_time())
