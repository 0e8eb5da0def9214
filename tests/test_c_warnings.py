"""The C every build emits compiles without a warning under the strictest flags a maintainer would set,
for every core class and feature set (reference, DSP, Helium) and every board's harness and UART driver;
and cppcheck finds nothing in runtime_c/ that is not explained in runtime_c/cppcheck-suppressions.txt."""
from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import MODELS, ROOT
from mcugen.targets.boards import all_boards, load_board
from mcugen.codegen.emit_c import emit_c
from mcugen.targets.firmware import core_macro, write_project
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model

STRICT = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Wshadow", "-Wundef", "-Werror"]
RUNTIME = ROOT / "runtime_c"
# one board per core class and feature set: M0, M3, M4 + DSP, M7 + DSP (FPU), M33 + DSP, M55 + Helium
CORES = ["microbit", "lm3s6965evb", "mps2-an386", "disco-f746ng", "mps2-an505", "mps3-an547"]
# int8 with fused strips, 16x8, resource variables, LSTM, SVDF
MODELS_ = [MODELS / "mlperf_ic_resnet8.tflite", MODELS / "real" / "mlzoo_ds_cnn_s_int16.tflite",
           MODELS / "real" / "pypi_pmw_hey_jarvis.tflite", MODELS / "real" / "tflm_mnist_lstm_int8.tflite",
           MODELS / "real" / "tflm_keyword_scrambled_8bit.tflite"]


def _machine(board) -> list[str]:
    fpu = ["-mfpu=" + board.cpu.fpu, "-mfloat-abi=hard"] if board.fpu else ["-mfloat-abi=soft"]
    return ["-mthumb", f"-mcpu={board.core}", *fpu, f"-D{core_macro(board)}"]


def _compile(flags: list[str], sources: list[Path], cwd: Path) -> None:
    proc = subprocess.run(["arm-none-eabi-gcc", *flags, *STRICT, "-c", *map(str, sources)], cwd=cwd,
                          capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr[-4000:]


@pytest.mark.parametrize("board_id", CORES)
def test_every_kernel_of_the_core_s_feature_set(tmp_path, board_id):
    board = load_board(board_id)
    (tmp_path / "mcu_nn_names.h").write_text("")  # what a build generates to rename kernels per model
    folders = ["src", *sorted(board.features)]
    sources = [f for folder in folders for f in sorted((RUNTIME / folder).glob("*.c"))]
    _compile([*_machine(board), f"-I{RUNTIME / 'include'}", f"-I{tmp_path}"], sources, tmp_path)


def _project(tmp_path: Path, board, model: Path) -> tuple[Path, str]:
    """The PlatformIO project a build writes (generated model, kernels, harness) and its build flags."""
    g = compile_model(model, features=board.features)
    out = OutDir(tmp_path / f"{board.id}-{model.stem}")
    write_project(g, board, out, emit_c(g, "model"), "model", "offline")
    out.finish()
    ini = (out.root / "platformio.ini").read_text()
    flags = [line.split("=", 1)[1] for line in ini.splitlines() if line.startswith("build_flags")]
    return out.root, flags[-1].replace("${env.build_flags}", flags[0])  # the offline environment's, if any


@pytest.mark.parametrize("board_id", CORES)
def test_generated_models_and_harness_for_each_core(tmp_path, board_id):
    board = load_board(board_id)

    def one(model: Path) -> None:
        root, flags = _project(tmp_path, board, model)
        objects = root / "obj"
        objects.mkdir()
        _compile([*_machine(board), *flags.split(), f"-I{root / 'include'}"], sorted((root / "src").glob("*.c")),
                 objects)

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(one, MODELS_))


@pytest.mark.parametrize("board_id", sorted(b.id for b in all_boards().values() if b.offline is not None and b.link != "semihosting"))
def test_every_uart_driver_and_chip_start_up(tmp_path, board_id):
    board = load_board(board_id)
    root, flags = _project(tmp_path, board, MODELS / "tflm_hello_world.tflite")
    from mcugen.targets.firmware import port_files

    harness = [root / "src" / f for f in ("mcu_harness.c", "mcu_frame.c", *port_files(board)) if f.endswith(".c")]
    _compile([*_machine(board), *flags.split(), f"-I{root / 'include'}"], harness, tmp_path)


@pytest.mark.parametrize("defines, folders", [
    # the Cortex-M4/M7 build every optimized kernel is compiled in (the M55's Helium files too: their header
    # tests only that Helium is there), and the Cortex-M0's, the reference kernels without the DSP extension;
    # each file in those configurations alone, not cppcheck's own guesses at a dozen (90 s where these take 30)
    # (MVE=3: with its floating point, the fp16 kernels' too)
    (("__GNUC__", "__ARM_ARCH_7EM__", "__ARM_FEATURE_SAT", "__ARM_FEATURE_DSP", "__ARM_FEATURE_MVE=3", "__ARM_FP=4",
      "__FLT16_MAX__=65504"),
     ("src", "dsp", "mve")),
    (("__GNUC__",), ("src",)),
])
def test_cppcheck_finds_nothing_unexplained(defines, folders):
    if shutil.which("cppcheck") is None:
        pytest.fail("cppcheck is not installed: scripts/install.sh installs Debian's package")
    suppressions = RUNTIME / "cppcheck-suppressions.txt"
    proc = subprocess.run(["cppcheck", "--enable=warning,portability,performance", "--inline-suppr",
                           "--std=c99", "--error-exitcode=1", "--quiet", f"--suppressions-list={suppressions}",
                           f"-I{RUNTIME / 'include'}", *(f"-D{d}" for d in defines),
                           *(str(RUNTIME / f) for f in folders),
                           *(str(RUNTIME / "harness" / f) for f in ("mcu_harness.c", "mcu_frame.c",
                                                                      "mcu_harness_mlperf.c"))],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
