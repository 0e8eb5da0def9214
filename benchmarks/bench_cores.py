"""Instructions per inference of the six anchor models on every emulated core class: Cortex-M4 (mps2-an386),
Cortex-M33 (mps2-an505), Cortex-M55 (mps3-an547), Cortex-M0 (microbit), each with the kernel variants its
board's features allow; models that do not fit a board are named with the fit check's reason. Then the
public models with a Cortex-M55 anchor (int16, LSTM, SVDF, streaming) on the M55, per step.

    python benchmarks/bench_cores.py [core|m55-real]  # prints the tables (both, or the one named) and
                                                      # rewrites them in benchmarks/README.md

Instructions, not cycles: SysTick ticks under `-icount shift=0` times the ticks' length at the board's
clock; on the M55 QEMU counts one MVE instruction as one, whatever its beats.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.errors import McugenError
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402
from bench_boards import ANCHORS, MODELS  # noqa: E402
from bench_real_models import REAL  # noqa: E402

BOARDS = ("mps2-an386", "mps2-an505", "mps3-an547", "microbit")
# TFLM + CMSIS-NN (TFLM 90b983c2, CMSIS-NN 4ab83cc3, as ANCHORS) built for each core with TFLM's Makefile
# (TARGET_ARCH=cortex-m33: CMSIS-NN's DSP paths; cortex-m55: its Helium paths) and counted the same way,
# around MicroInterpreter::Invoke on the same emulated boards, mean of invokes 2..20 (2026-11-23)
M33_CMSIS = {"mlperf_kws_dscnn": 7_680_564, "mlperf_vww_mobilenet": 24_047_569, "mlperf_ic_resnet8": 29_963_156,
             "mlperf_ad_autoencoder": 583_711, "tflm_person_detect": 22_841_580, "tflm_micro_speech": 1_481_494}
# TFLM with its reference kernels (no CMSIS-NN) for the M0 (TARGET_ARCH=cortex-m0), on the micro:bit itself
# (an 8 KB arena; its UART is an nRF51 one the anchor firmware does not drive, so the counts stand alone)
M0_REFERENCE = {"tflm_micro_speech": 15_361_792}
M55_CMSIS = {"mlperf_kws_dscnn": 1_814_067, "mlperf_vww_mobilenet": 6_559_136, "mlperf_ic_resnet8": 4_912_392,
             "mlperf_ad_autoencoder": 150_286, "tflm_person_detect": 6_508_905, "tflm_micro_speech": 1_008_175}


# The public models of tests/models/real with an M55 anchor (TFLM + CMSIS-NN with Helium built from source,
# same build and count; per step for the stateful ones)
M55_REAL = {"mlzoo_ds_cnn_s_int16": 10_822_063, "tflm_mnist_lstm_int8": 261_129, "tflm_keyword_scrambled_8bit": 54_434,
            "pypi_pmw_hey_jarvis": 54_092, "mlex_ds_cnn_m_quantized": 4_169_604,
            "stm_miniresnet_1stacks_64x50_tl_int8": 3_695_352}
STEPS = 20  # consecutive invocations of a stateful model (its state kept), each bit-exact; the mean is reported


def measure(path: Path, board_id: str) -> str:
    board = load_board(board_id)
    g = compile_model(path, features=board.features)
    steps = STEPS if g.variables else 1
    with tempfile.TemporaryDirectory() as tmp:
        try:
            r = build_board(g, board, OutDir(Path(tmp) / board_id), path.stem)
        except McugenError as exc:
            return "does not fit: " + str(exc).split(": it needs")[0].split("fit ")[-1]
        _, results = run_on_target(Target.of(board_id), r.program, g, random_inputs(g, steps, seed=0))
    assert all(x.passed for x in results), f"{path.stem} is not bit-exact on {board_id}"
    return f"{int(sum(x.cycles for x in results) / steps * 1e9 / board.clock_hz):,}"


def core_table() -> None:
    rows = ["| model | TFLM + CMSIS-NN on the M4 | M4 (an386, DSP) | TFLM + CMSIS-NN on the M33 (DSP) | "
            "M33 (an505, DSP) | TFLM + CMSIS-NN on the M55 (MVE) | M55 (an547) | TFLM reference on the M0 | "
            "M0 (microbit, 16 KB RAM) |", "|---|---|---|---|---|---|---|---|---|"]
    for name, (_, cmsis, _) in ANCHORS.items():
        cells = {b: measure(MODELS / f"{name}.tflite", b) for b in BOARDS}
        rows.append(f"| {name} | {cmsis:,} | {versus(cells['mps2-an386'], cmsis)} | {M33_CMSIS[name]:,} | "
                    f"{versus(cells['mps2-an505'], M33_CMSIS[name])} | {M55_CMSIS[name]:,} | "
                    f"{versus(cells['mps3-an547'], M55_CMSIS[name])} | "
                    + (f"{M0_REFERENCE[name]:,} | {versus(cells['microbit'], M0_REFERENCE[name])} |" if name in M0_REFERENCE
                       else f"not measured | {cells['microbit']} |"))
        print(rows[-1], flush=True)
    rewrite("core-table", rows)


def m55_real_table() -> None:
    rows = ["| model | TFLM + CMSIS-NN on the M55 (MVE) | M55 (an547) |", "|---|---|---|"]
    for name, anchor in M55_REAL.items():
        rows.append(f"| {name} | {anchor:,} | {versus(measure(REAL / f'{name}.tflite', 'mps3-an547'), anchor)} |")
        print(rows[-1], flush=True)
    rewrite("m55-real-table", rows)


def versus(cell: str, anchor: int) -> str:
    return f"{cell} ({int(cell.replace(',', '')) / anchor:.2f})" if cell[0].isdigit() else cell


def main(which: list[str]) -> int:
    for key, table in (("core", core_table), ("m55-real", m55_real_table)):
        if not which or key in which:
            table()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
