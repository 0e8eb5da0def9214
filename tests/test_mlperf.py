"""`--harness mlperf-tiny`: firmware that speaks the MLPerf Tiny benchmark's DUT protocol, driven on emulated
boards by a client written from the protocol's definition (mcugen.targets.mlperf_dut.Dut) through a whole performance
session (name, profile, load, timed inferences) and an accuracy session (results against the golden model):
KWS on the Cortex-M3 board whose UART QEMU puts on a TCP socket, AD on the Cortex-M4 board (its console);
bad commands answered as the reference firmware answers them."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import MODELS
from mcugen.validation import golden
from mcugen.targets.boards import load_board
from mcugen.targets.mlperf_dut import Dut
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import Budget
from mcugen.targets.qemu import QemuTarget
from mcugen.targets.target import build_for, Target
from test_cli import run_cli

BOARD = "mps2-an386"


def firmware(tmp_path, model: str, board: str = BOARD, external: bool = False):
    g = compile_model(MODELS / model, features=load_board(board).features, budget=Budget(external_inputs=external))
    out = OutDir(tmp_path / "fw")
    out.claim(board, model, "mlperf-tiny")
    return g, build_for(Target.of(board), g, out, model, harness="mlperf-tiny").program


def dequantized(g, values: np.ndarray) -> np.ndarray:
    q = g.tensors[g.outputs[0]].quant
    return np.float32(q.s) * (values.astype(np.float32) - np.float32(q.zp))


def printed(value) -> float:
    """A float as the harness prints it: six decimals, rounded half up from its double."""
    return int(float(value) * 1e6 + 0.5) / 1e6


@pytest.mark.parametrize("model, benchmark, board, external", [
    ("mlperf_kws_dscnn.tflite", "kws01", "lm3s6965evb", False), ("mlperf_ad_autoencoder.tflite", "ad01", BOARD, False),
    ("mlperf_kws_dscnn.tflite", "kws01", BOARD, True)])
def test_a_performance_and_an_accuracy_session(tmp_path, model, benchmark, board, external):
    """`external`: built with --external-input, the model reads each loaded input in the harness's buffer."""
    g, program = firmware(tmp_path, model, board, external)
    x = g.tensors[g.inputs[0]]
    rng = np.random.default_rng(3)
    inputs = [rng.integers(-128, 128, x.shape).astype(np.int8) for _ in range(3)]
    with QemuTarget(load_board(board), program) as qemu:
        dut = Dut(qemu.stream, board)
        dut.until_ready()  # the banner: m-timestamp-mode-performance, m-init-done
        assert dut.name() == "mcugen"
        assert dut.profile() == ("ULPMark for tinyML Firmware V0.0.1", benchmark)
        # performance: the runner's load of an input, then timed inferences after a warm-up
        dut.load(inputs[0].tobytes())
        _, two = dut.infer(2, 1)
        _, four = dut.infer(4, 0)
        assert two > 0 and 1.7 < four / two < 2.3, (two, four)  # microseconds of the board's counter
        # accuracy: each input's results, the golden model's outputs as the harness computes and prints them
        for xs in inputs:
            dut.load(xs.tobytes())
            results, _ = dut.infer(1, 0)
            y = dequantized(g, golden.run(g, [xs])[0]).reshape(-1)
            if benchmark == "ad01":  # the reconstruction error against the input, AD's anomaly score
                q = x.quant
                error = y - np.float32(q.s) * (xs.reshape(-1).astype(np.float32) - np.float32(q.zp))
                assert results == pytest.approx([printed(np.mean(error * error, dtype=np.float64))], rel=1e-5)
            else:
                assert results == [printed(v) for v in y]
                assert int(np.argmax(results)) == int(np.argmax(y))
        # what the reference firmware answers to what it cannot do
        assert dut.command("infer 0") == ["e-[Inference iterations must be >0]"]
        assert dut.command("bogus") == ["e-[Unknown command: bogus]"]
        assert dut.command("db load 999999") == [f"e-[Supplied buffer size 999999 exceeds maximum of {x.nbytes}]"]
        assert dut.command("db load 2") == ["m-[Expecting 2 bytes]"] and dut.command("db 0a0b") == ["m-load-done"]
        assert dut.command("db print") == ["m-buffer-0a-0b"]
        assert dut.command("infer 1 0")[0].startswith("e-[Input db has 2 bytes")


def test_flash_boots_an_mlperf_firmware_and_asks_its_name(tmp_path, capsys):
    model = MODELS / "mlperf_kws_dscnn.tflite"
    out = tmp_path / "fw"
    assert run_cli(capsys, "build", model, "--board", BOARD, "--harness", "mlperf-tiny", "--out", out)[0] == 0
    code, stdout, err = run_cli(capsys, "flash", "--board", BOARD, "--out", out)
    assert code == 0, err
    assert "name mcugen, profile ULPMark for tinyML Firmware V0.0.1, model kws01" in stdout


def test_an_exported_library_with_the_harness_runs_on_a_host_port(tmp_path, capsys):
    """--harness mlperf-tiny on export: the harness (its `model_` names mapped to the library's) beside the
    library, for the application's port; here the host's (runtime_c/harness/port_host.c), driven over its
    stdin and stdout."""
    import subprocess

    from mcugen.runtime import runtime_file
    from mcugen.targets.transport import ProcessStream

    model = MODELS / "mlperf_ad_autoencoder.tflite"
    lib = tmp_path / "ad"
    code, _, err = run_cli(capsys, "export", model, "--name", "ad", "--format", "cmake", "--harness", "mlperf-tiny",
                           "--out", lib)
    assert code == 0, err
    assert (lib / "include" / "mcu_port.h").exists() and "mcu_harness_mlperf.c" in (lib / "CMakeLists.txt").read_text()
    program = tmp_path / "dut"
    subprocess.run(["cc", "-std=c99", "-O2", "-Wall", "-Werror", f"-I{lib / 'include'}", f"-I{lib / 'src'}",
                    *map(str, sorted((lib / "src").glob("*.c"))), str(runtime_file("harness/port_host.c")),
                    "-o", str(program)], check=True)
    g = compile_model(model)
    x = np.random.default_rng(5).integers(-128, 128, g.tensors[g.inputs[0]].shape).astype(np.int8)
    with ProcessStream([program]) as process:
        dut = Dut(process, "the host port")
        dut.until_ready()
        assert dut.profile()[1] == "ad01"
        dut.load(x.tobytes())
        results, _ = dut.infer(1, 0)
        process.close()
    q = g.tensors[g.inputs[0]].quant
    error = dequantized(g, golden.run(g, [x])[0]).reshape(-1) - np.float32(q.s) * (
        x.reshape(-1).astype(np.float32) - np.float32(q.zp))
    assert results == pytest.approx([printed(np.mean(error * error, dtype=np.float64))], rel=1e-5)


FAKE_RUNNER = """
# what the MLPerf Tiny runner's device manager does: find the DUT among USB serial ports by VID/PID, open it
import serial
from serial.tools import list_ports
dut = next(p for p in list_ports.comports() if (p.vid, p.pid) == (0x0483, 0x374B))
with serial.Serial(dut.device, 115200, timeout=10) as port:
    port.reset_input_buffer()
    port.write(b"name%")
    answer = b""
    while b"m-ready" not in answer:
        answer += port.read(1)
    print(answer.decode())
"""


def test_flash_serves_the_uart_on_a_pty_for_the_runner_and_stops_qemu(tmp_path, capsys):
    """`mcugen flash --serial pty` as the documented MLPerf path: the printed pseudo-terminal driven by mcugen's own
    protocol client through a whole inference, the printed runner command run against a stand-in runner; SIGTERM
    stops it and its QEMU."""
    import shlex
    import signal
    import subprocess
    import sys
    import time

    import serial

    model, out = MODELS / "mlperf_kws_dscnn.tflite", tmp_path / "fw"
    assert run_cli(capsys, "build", model, "--board", "lm3s6965evb", "--harness", "mlperf-tiny", "--out", out)[0] == 0
    served = subprocess.Popen([sys.executable, "-m", "mcugen", "flash", "--board", "lm3s6965evb", "--out", str(out),
                               "--serial", "pty"], stdout=subprocess.PIPE, text=True)
    try:
        first, runner = served.stdout.readline(), served.stdout.readline()
        pty = first.split("its UART (115200 8N1) is ")[1].split()[0]
        assert runner.strip().startswith("the MLPerf Tiny runner, with its own Python: python ")
        with serial.Serial(pty, 115200, timeout=0.05) as port:
            time.sleep(0.5)
            port.reset_input_buffer()  # the banner, if QEMU kept it
            g = compile_model(model, features=load_board("lm3s6965evb").features)
            x = np.random.default_rng(9).integers(-128, 128, g.tensors[g.inputs[0]].shape).astype(np.int8)
            dut = Dut(port, "the pty")
            assert dut.profile()[1] == "kws01"
            dut.load(x.tobytes())
            results, _ = dut.infer(1, 0)
            assert results == [printed(v) for v in dequantized(g, golden.run(g, [x])[0]).reshape(-1)]
        (tmp_path / "runner").mkdir()
        (tmp_path / "runner" / "main.py").write_text(FAKE_RUNNER)
        argv = shlex.split(runner.split("with its own Python: ")[1])  # pastes into a shell as printed
        argv[argv.index("--runner-dir") + 1] = str(tmp_path / "runner")
        ran = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True, timeout=60)
        assert "m-name-dut-[mcugen]" in ran.stdout, ran.stderr
    finally:
        served.send_signal(signal.SIGTERM)
        code = served.wait(timeout=20)
    assert code == 0
    qemus = subprocess.run(["pgrep", "-f", str(out)], capture_output=True, text=True).stdout
    assert not qemus  # no QEMU left running the firmware


def test_serial_is_refused_where_no_uart_can_be_served(tmp_path, capsys):
    from test_cli import assert_one_error_line, refused

    out = tmp_path / "fw"
    assert run_cli(capsys, "build", MODELS / "mlperf_ad_autoencoder.tflite", "--board", BOARD, "--out", out)[0] == 0
    code, err = refused(capsys, "flash", "--board", BOARD, "--out", out, "--serial", "pty")
    assert_one_error_line(code, err, "semihosting console", "lm3s6965evb, mps2-an500, netduinoplus2")
    code, err = refused(capsys, "flash", "--board", "nano33", "--out", out, "--serial", "pty")
    assert_one_error_line(code, err, "--serial serves an emulated board's UART")
    code, err = refused(capsys, "flash", "--board", BOARD, "--out", out, "--serial", "usb")
    assert_one_error_line(code, err, "'usb' is not pty, tcp or tcp:PORT")


def test_flash_serves_the_uart_on_a_tcp_port(tmp_path, capsys):
    """--serial tcp:PORT: the same firmware's UART on 127.0.0.1:PORT, driven by the protocol client through a
    socket; SIGTERM stops it."""
    import signal
    import socket
    import subprocess
    import sys

    import serial

    model, out = MODELS / "mlperf_kws_dscnn.tflite", tmp_path / "fw"
    assert run_cli(capsys, "build", model, "--board", "lm3s6965evb", "--harness", "mlperf-tiny", "--out", out)[0] == 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    served = subprocess.Popen([sys.executable, "-m", "mcugen", "flash", "--board", "lm3s6965evb", "--out", str(out),
                               "--serial", f"tcp:{port}"], stdout=subprocess.PIPE, text=True)
    try:
        first = served.stdout.readline()
        assert f"its UART (115200 8N1) is socket://127.0.0.1:{port} " in first
        with serial.serial_for_url(f"socket://127.0.0.1:{port}", timeout=0.05) as link:
            assert Dut(link, "the TCP port").profile()[1] == "kws01"
    finally:
        served.send_signal(signal.SIGTERM)
        assert served.wait(timeout=20) == 0
