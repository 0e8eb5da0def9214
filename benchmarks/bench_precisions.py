"""float32 models and INT4 filters on the emulated Cortex-M4F (mps2-an386), issue 42; the float models
quantized to float16 and dynamic range, issue 62.

    python benchmarks/bench_precisions.py [float32|int4|float16|fp16]   # prints the tables (all, or
                                                                        # those named) and rewrites them
                                                                        # in benchmarks/README.md

float32: the MLPerf Tiny float reference models (tests/models), mcugen's instructions per inference,
each bit-exact on the board, next to TFLM's float reference kernels built and counted as ANCHORS are
(TFLM 90b983c2 with its Makefile, TARGET_ARCH=cortex-m4+fp, release_with_logs, around Invoke).

INT4: the six anchors with their CONV_2D and DEPTHWISE_CONV_2D filters re-quantized to INT4 (per output
channel, scale = max |w| / 7: a size and speed study, not an accuracy one) next to the int8 files:
constant bytes in flash (the build's .rodata of the model), instructions and the arena, each bit-exact on
the board.

float16: the float models through `mcugen quantize --precision float16` and `--precision dynamic` (12
random calibration samples: neither uses the ranges), each bit-exact with LiteRT BUILTIN_REF in the
golden model (quantize checks it) and on the board: the model's weights as the file holds them, the
constants, the arena, instructions and est. cycles, default build (balanced).

fp16: the same on the Cortex-M55 (mps3-an547), `--precision fp16` beside float32 and float16: its layers
computed in fp16 by Helium's kernels, bit-exact with the golden model on the board.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.validation.cycles import estimate_cycles
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _tables import rewrite  # noqa: E402
from bench_boards import ANCHORS, MODELS  # noqa: E402
from model_edit import with_int4_filters  # noqa: E402

BOARD = "mps2-an386"
FLOAT_MODELS = ("mlperf_ic_resnet8_float", "mlperf_vww_mobilenet_float", "mlperf_ad_autoencoder_float")
# TFLM's float reference kernels (the only float kernels TFLM has for the M4: CMSIS-NN is integer),
# the same board and count: (instructions, est. Cortex-M4 cycles by the m4cycles plugin, the model
# mcugen/validation/cycles.py follows) per Invoke, every invoke equal but for ResNet-8's +-7, 2026-11-25;
# TFLM's arena_used_bytes: 201,760, 321,808, 4,528
TFLM_FLOAT = {"mlperf_ic_resnet8_float": (85_806_271, 165_739_975),
              "mlperf_vww_mobilenet_float": (78_834_003, 139_726_985),
              "mlperf_ad_autoencoder_float": (1_360_472, 2_953_762)}


def measure(path: Path, cycles: bool = False, board_id: str = BOARD) -> tuple[int, int, int, int]:
    """(instructions per inference, the model's constant bytes, est. cycles if asked else 0, arena bytes) on
    the board, bit-exact or an error."""
    board = load_board(board_id)
    g = compile_model(path, features=board.features, fp16=board.fp16_arithmetic)
    with tempfile.TemporaryDirectory() as tmp:
        built = build_board(g, board, OutDir(Path(tmp) / "fw"), path.stem)
        _, results = run_on_target(Target.of(board_id), built.program, g, random_inputs(g, 2, seed=0))
        estimate = (estimate_cycles(Target.of(board_id), built.program, g, random_inputs(g, 1, seed=0)[0],
                                    board.cpu).cycles if cycles else 0)
    if not all(r.passed for r in results):
        raise SystemExit(f"{path.name}: not bit-exact on {board_id}")
    # ticks of -icount shift=0
    return int(results[-1].cycles * 1e9 / board.clock_hz), built.model.rodata, estimate, g.arena.plan.size


def float_rows() -> list[str]:
    rows = ["| model | mcugen instr. | est. cycles | TFLM float reference instr. | est. cycles | ratio (cycles) |",
            "|---|---:|---:|---:|---:|---:|"]
    for name in FLOAT_MODELS:
        instructions, _, cycles, _ = measure(MODELS / f"{name}.tflite", cycles=True)
        theirs, their_cycles = TFLM_FLOAT[name]
        rows.append(f"| {name} | {instructions:,} | {cycles:,} | {theirs:,} | {their_cycles:,} | "
                    f"{cycles / their_cycles:.2f} |")
        print(rows[-1], flush=True)
    return rows


def int4_rows() -> list[str]:
    rows = ["| model | int8 constants (B) | INT4 constants (B) | ratio | int8 instr. | INT4 instr. | ratio | "
            "int8 est. cycles | INT4 est. cycles | ratio | int8 arena (B) | INT4 arena (B) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        for name in ANCHORS:
            path = MODELS / f"{name}.tflite"
            int4 = with_int4_filters(path, Path(tmp) / f"{name}_int4.tflite")
            (i8, c8, e8, a8), (i4, c4, e4, a4) = measure(path, cycles=True), measure(int4, cycles=True)
            rows.append(f"| {name} | {c8:,} | {c4:,} | {c4 / c8:.2f} | {i8:,} | {i4:,} | {i4 / i8:.2f} | "
                        f"{e8:,} | {e4:,} | {e4 / e8:.2f} | {a8:,} | {a4:,} |")
            print(rows[-1], flush=True)
    return rows


def quantized(path: Path, precision: str, folder: Path) -> Path:
    """The float model through `mcugen quantize --precision`."""
    g = compile_model(path)
    shape = (12, *g.tensors[g.inputs[0]].shape)
    np.save(folder / "calibration.npy", np.random.default_rng(0).uniform(0, 1, shape).astype(np.float32))
    out = folder / f"{path.stem}_{precision}.tflite"
    subprocess.run([sys.executable, "-m", "mcugen", "quantize", str(path), "--data", str(folder / "calibration.npy"),
                    "--out", str(out), "--precision", precision, "--force"], check=True, capture_output=True)
    return out


def float16_rows(precisions: tuple[str, ...] = ("float32", "float16", "dynamic"), board_id: str = BOARD,
                 models: tuple[str, ...] = FLOAT_MODELS) -> list[str]:
    rows = ["| model | precision | weights in the file (B) | constants (B) | arena (B) | instr. | est. cycles |",
            "|---|---|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        for name in models:
            source = MODELS / f"{name}.tflite"
            for precision in precisions:
                path = source if precision == "float32" else quantized(source, precision, Path(tmp))
                instructions, constants, cycles, arena = measure(path, True, board_id)
                rows.append(f"| {name} | {precision} | {compile_model(path).weight_bytes:,} | {constants:,} | "
                            f"{arena:,} | {instructions:,} | {cycles:,} |")
                print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    def fp16_rows() -> list[str]:
        return float16_rows(("float32", "float16", "fp16"), "mps3-an547",
                            ("mlperf_ad_autoencoder_float", "mlperf_ic_resnet8_float"))

    for key, rows in (("float32", float_rows), ("int4", int4_rows), ("float16", float16_rows), ("fp16", fp16_rows)):
        if len(sys.argv) < 2 or key in sys.argv[1:]:
            rewrite(f"precisions-{key}", rows())
