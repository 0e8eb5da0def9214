"""The validation protocol on host and QEMU: reports, per-output statistics on a wrong result, a noisy line
(corrupted, dropped and stray bytes), lost replies, several info frames, stale firmware, dead or silent
serial ports, missing emulators and platforms."""
from __future__ import annotations

import re
import time

import numpy as np
import pytest

from conftest import MODELS
from mcugen.targets.boards import load_board
from mcugen.codegen.build import build_host
from mcugen.validation.compare import random_inputs
from mcugen.errors import McugenError
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.framing import Framer, encode
from mcugen.targets.protocol import ACK, Link
from mcugen.targets.qemu import QemuTarget
from mcugen.targets.transport import ProcessStream
from mcugen.targets.target import Target
from mcugen.validation.validate import OutputDiff, check_target, expected_seconds, run_on_target, run_samples
from test_boards import _build
from test_cli import assert_one_error_line, checked_report, run_cli
from tflite_writer import ModelSpec


def test_cli_test_on_qemu_writes_the_report(capsys, tmp_path):
    report = tmp_path / "r.json"
    code, out, _ = run_cli(capsys, "test", MODELS / "tflm_hello_world.tflite", "--board", "mps2-an386",
                           "--samples", "2", "--json", report)
    assert code == 0 and "bit-exact on 2 sample(s) on mps2-an386" in out
    r = checked_report(report, "test")
    assert r["board"] == "mps2-an386" and r["passed"] == 2 and r["sizes"]["flash_bytes"] > 0
    assert r["sizes"]["ram_bytes"] > 0 and r["time_unit"] == "instructions"
    assert re.search(r"sample 1/2: bit-exact, [\d,]+ instructions", out)
    assert all(s["time"] > 0 and s["time"] % 40 == 0 for s in r["per_sample"])  # SysTick ticks x 40
    assert r["inference"]["ms"]["max"] == pytest.approx(r["inference"]["max"] / 25_000)  # at the 25 MHz clock


def test_a_wrong_result_fails_with_per_output_statistics(capsys, tmp_path, monkeypatch):
    """Fault injection: the generated C gets one bias of the first layer changed, as a miscompiled
    kernel or corrupted flash would. The run fails (exit 2), and each differing output is described
    by max |diff|, RMSE and cosine similarity, on the console and in the JSON report."""
    from mcugen.codegen import build

    emit = build.emit_c

    def emit_with_a_wrong_bias(*args, **kwargs):
        generated = emit(*args, **kwargs)
        source = generated.files["model.c"]
        bias = re.search(r"_bias\[\d+\][^{]*= \{\s*(-?\d+)", source)
        wrong = str(int(bias.group(1)) + 200_000)
        generated.files["model.c"] = source[:bias.start(1)] + wrong + source[bias.end(1):]
        return generated

    monkeypatch.setattr(build, "emit_c", emit_with_a_wrong_bias)
    report = tmp_path / "r.json"
    code, out, _ = run_cli(capsys, "test", MODELS / "tflm_micro_speech.tflite", "--board", "host",
                           "--samples", "3", "--json", report)
    assert code == 2 and "3 of 3 sample(s) differ from the golden model on host" in out
    assert re.search(r"sample 1/3: MISMATCH \(output 0: \d+ differ, max \|diff\| \d+ LSB, "
                     r"rmse [\d.e-]+, cosine -?[\d.]+\)", out), out
    r = checked_report(report, "test")
    assert r["passed"] == 0 and r["max_abs_diff"] > 0 and r["metrics"][0]["rmse"] > 0
    for sample in r["per_sample"]:
        (d,) = sample["outputs"]
        assert not sample["passed"] and d["differing"] > 0 and d["rmse"] > 0 and d["cosine"] < 1


def test_output_statistics_by_hand():
    d = OutputDiff.of(np.array([1, 2, 3], dtype=np.int8), np.array([1, 2, 5], dtype=np.int8), 0.5)
    assert (d.max_abs_diff, d.differing) == (2, 1)
    assert d.rmse == pytest.approx(np.sqrt((2 * 0.5) ** 2 / 3))
    assert d.cosine == pytest.approx(20 / np.sqrt(14 * 30))


# -- protocol faults ----------------------------------------------------------------------------------
class NoisyLine:
    """Sits on the wire between host and target: flips bits, drops bytes and adds garbage, both ways."""

    def __init__(self, stream, seed: int, rate: float):
        self.stream, self.rng, self.rate = stream, np.random.default_rng(seed), rate
        self.faults = 0

    def _spoil(self, data: bytes) -> bytes:
        out = bytearray()
        for b in data:
            r = self.rng.random()
            if r < self.rate:  # dropped
                self.faults += 1
                continue
            if r < 2 * self.rate:  # one bit flipped
                self.faults += 1
                b ^= 1 << int(self.rng.integers(8))
            out.append(b)
            if self.rng.random() < self.rate / 2:  # garbage in between
                self.faults += 1
                out.append(int(self.rng.integers(256)))
        return bytes(out)

    def write(self, data: bytes) -> None:
        self.stream.write(self._spoil(data))

    def read(self, n: int) -> bytes:
        return self._spoil(self.stream.read(n))


def test_corrupted_and_dropped_bytes_are_detected_and_retried_on_host(tmp_path):
    g = compile_model(MODELS / "tflm_micro_speech.tflite")
    result = build_host(g, tmp_path, "m")
    with ProcessStream([result.program]) as target:
        line = NoisyLine(target, seed=5, rate=0.002)
        link = Link(line, timeout=0.5, attempts=20)
        check_target(link.hello(), g, "host")
        results = run_samples(link, g, random_inputs(g, 4, seed=2), clock="ns", timeout=5)
    assert line.faults > 10 and link.retries > 0
    assert all(r.passed for r in results)  # never a false pass, and no false failure either


def test_corrupted_bytes_are_retried_on_qemu(tmp_path):
    g, result = _build(tmp_path, "tflm_hello_world.tflite", "mps2-an386")
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        line = NoisyLine(qemu.stream, seed=1, rate=0.01)
        link = Link(line, timeout=1.0, attempts=20)
        check_target(link.hello(), g, "qemu")
        results = run_samples(link, g, random_inputs(g, 4, seed=4), clock="systick", timeout=10)
    assert line.faults > 0 and link.retries > 0 and all(r.passed for r in results)


def test_one_percent_of_bytes_corrupted_still_validates_kws_on_qemu(tmp_path):
    """~1% of the bytes each way dropped, flipped or followed by garbage: a 250-byte frame arrives
    whole 8% of the time, so the link shrinks its frames until they get through."""
    g, result = _build(tmp_path, "mlperf_kws_dscnn.tflite", "mps2-an386")
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        line = NoisyLine(qemu.stream, seed=3, rate=0.004)
        link = Link(line)
        start = time.monotonic()
        check_target(link.hello(), g, "qemu")
        results = run_samples(link, g, random_inputs(g, 3, seed=5), clock="systick", timeout=60,
                              seconds=expected_seconds(g, Target.of("mps2-an386")))
        took = time.monotonic() - start
    assert line.faults > 10 and link.retries > 0 and all(r.passed for r in results)
    print(f"KWS, 3 samples at ~1% byte errors: {line.faults} faults, {link.retries} retries, {took:.1f} s")


class DropReplies:
    """Loses every byte the target sends for `seconds` after the host's `count`-th INVOKE."""

    def __init__(self, stream, count: int = 1, seconds: float = 0.5):
        self.stream, self.count, self.seconds = stream, count, seconds
        self.invokes, self.until, self.dropped = 0, 0.0, 0

    def write(self, data: bytes) -> None:
        if data[:3] == b"\xa5\x5a\x03":
            self.invokes += 1
            if self.invokes == self.count:
                self.until = time.monotonic() + self.seconds
        self.stream.write(data)

    def read(self, n: int) -> bytes:
        data = self.stream.read(n)
        if time.monotonic() < self.until:
            self.dropped += len(data)
            return b""
        return data


def test_a_lost_invoke_reply_is_recovered_in_seconds_not_the_run_timeout(tmp_path):
    g, result = _build(tmp_path, "mlperf_kws_dscnn.tflite", "mps2-an386")
    xs = random_inputs(g, 2, seed=6)
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        line = DropReplies(qemu.stream, count=2, seconds=1.0)
        link = Link(line)
        check_target(link.hello(), g, "qemu")
        run_samples(link, g, xs[:1], clock="systick", timeout=120, seconds=expected_seconds(g, Target.of("mps2-an386")))
        start = time.monotonic()
        results = run_samples(link, g, xs[1:], clock="systick", timeout=120,
                              seconds=expected_seconds(g, Target.of("mps2-an386")))
        took = time.monotonic() - start
    assert line.dropped > 0 and link.retries > 0 and results[0].passed
    assert took < 10, f"recovering a lost INVOKE reply took {took:.1f} s"


class StraySync:
    """Puts a stray A5 5A in front of every frame the host sends."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(b"\xa5\x5a" + data)

    def read(self, n: int) -> bytes:
        return self.stream.read(n)


def test_stray_sync_bytes_never_swallow_the_frame_behind_them(tmp_path):
    g, result = _build(tmp_path, "tflm_hello_world.tflite", "mps2-an386")
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        link = Link(StraySync(qemu.stream))
        check_target(link.hello(), g, "qemu")
        results = run_samples(link, g, random_inputs(g, 2, seed=1), clock="systick", timeout=30)
    assert link.retries == 0 and all(r.passed for r in results)

    class Replay:  # the host side: a reply preceded by A5 5A and by a frame cut short
        def __init__(self, data):
            self.data = data

        def read(self, n):
            out, self.data = self.data[:n], self.data[n:]
            return out

    reply = encode(ACK, 7)
    host = Framer(Replay(b"\xa5\x5a" + reply[:5] + reply))
    assert host.receive(time.monotonic() + 1) == (ACK, 7, b"")


def test_a_twenty_output_model_describes_itself_over_several_info_frames(tmp_path):
    m = ModelSpec()
    x = m.tensor("x", [1, 2, 3, 20], "int8", scale=0.05, zp=1)
    ys = [m.tensor(f"y{k}", [1, 2, 3, 1], "int8", scale=0.05, zp=1) for k in range(20)]
    m.op("SPLIT", [m.const("axis", [3], "int32"), x], ys, "SplitOptions", NumSplits=20)
    m.inputs, m.outputs = [x], ys
    (tmp_path / "m.tflite").write_bytes(m.build())
    g = compile_model(tmp_path / "m.tflite")
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "b"), "m.tflite")
    info, results = run_on_target(Target.of("mps2-an386"), result.program, g, random_inputs(g, 2, seed=0))
    assert len(info.outputs) == 20 and info.outputs[19] == (6, (1, 2, 3, 1))
    assert all(r.passed for r in results)


def test_stale_firmware_is_caught(tmp_path):
    _, result = _build(tmp_path, "tflm_hello_world.tflite", "mps2-an386")
    other = compile_model(MODELS / "mlperf_kws_dscnn.tflite")
    with pytest.raises(McugenError, match="runs firmware for another model.*run mcugen flash"):
        run_on_target(Target.of("mps2-an386"), result.program, other, random_inputs(other, 1, seed=0))


def test_a_dead_serial_port_is_one_clear_error(capsys, models):
    code, _, err = run_cli(capsys, "test", models / "mlperf_kws_dscnn.tflite", "--board", "nano33",
                           "--port", "/dev/ttyNOSUCHPORT")
    assert_one_error_line(code, err, "cannot open serial port /dev/ttyNOSUCHPORT")


def test_a_silent_target_times_out_with_one_clear_error(capsys, models):
    # A listening socket that never answers: what a board running something else looks like.
    import socket
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        code, _, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "nano33",
                               "--port", f"socket://127.0.0.1:{port}", "--timeout", "1")
    # it says which serial the offline firmware talks on: the Nano's D0/D1 UART, not its USB port
    assert_one_error_line(code, err, "did not answer correctly after 12 attempts", "UARTE0 on the D1 (TX) and D0 (RX)")


def test_nano33_messages_name_the_serial_the_firmware_uses(capsys, tmp_path, models):
    code, _, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "nano33")
    assert_one_error_line(code, err, "offline firmware talks on UARTE0", "USB-serial adapter", "pass --port")
    code, _, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "nano33", "--stock")
    assert_one_error_line(code, err, "stock firmware talks on the USB port")
    code, out, err = run_cli(capsys, "build", models / "tflm_hello_world.tflite", "--board", "nano33",
                             "--out", tmp_path / "nano")
    assert code == 0, err
    assert "serial      the offline firmware talks on UARTE0 on the D1 (TX) and D0 (RX) pins" in out


def test_missing_qemu_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(McugenError, match="qemu-system-arm not found.*apt-get install qemu-system-arm"):
        QemuTarget(load_board("mps2-an386"), tmp_path / "x.elf")


def test_unreachable_stock_platform_fails_within_seconds(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PLATFORMIO_CORE_DIR", str(tmp_path / "empty-pio-home"))
    start = time.monotonic()
    code, _, err = run_cli(capsys, "build", MODELS / "mlperf_kws_dscnn.tflite", "--board", "nano33",
                           "--stock", "--out", tmp_path / "o")
    assert time.monotonic() - start < 15
    assert_one_error_line(code, err, "stock PlatformIO platform 'nordicnrf52' is not installed")


