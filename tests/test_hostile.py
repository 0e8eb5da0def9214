"""Hostile input, case by case: each one clear error line naming the problem, exit 1, nothing of
the user's replaced. (tests/test_fuzz.py throws thousands of mutated models at the same checks.)"""
from __future__ import annotations

import os
import shutil
import time

import numpy as np
import pytest

from mcugen.errors import McugenError
from mcugen.validation.oracle import Tflm
from test_cli import assert_one_error_line, refused, run_cli
from test_fuzz import _conv, _fc, _fc16, _softmax, _softmax16
from tflite_writer import ModelSpec


def _model(tmp_path, make, mutate):
    m = ModelSpec()
    x, y = make(m, np.random.default_rng(0))
    m.inputs, m.outputs = [x], [y]
    mutate(m)
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    return path


def _set(where, key, value):
    def mutate(m):
        where(m)[key] = value
    return mutate


def _mul16(m, rng):
    x = m.tensor("x", [2, 3], "int16", scale=0.001, zp=0)
    k = m.const("k", rng.integers(-3000, 3000, (2, 3)), "int16", scale=0.002, zp=0)
    y = m.tensor("y", [2, 3], "int16", scale=0.004, zp=0)
    m.op("MUL", [x, k], [y], "MulOptions", version=2)
    return x, y


def _logistic16(m, rng):
    x = m.tensor("x", [2, 3], "int16", scale=0.001, zp=0)
    y = m.tensor("y", [2, 3], "int16", scale=1 / 32768, zp=0)
    m.op("LOGISTIC", [x], [y], version=3)
    return x, y


def _leaky16(m, rng):
    x = m.tensor("x", [2, 3], "int16", scale=0.001, zp=0)
    y = m.tensor("y", [2, 3], "int16", scale=0.002, zp=0)
    m.op("LEAKY_RELU", [x], [y], "LeakyReluOptions", version=2, Alpha=0.2)
    return x, y


def _concat11(m, rng):
    x = m.tensor("x", [1, 2], "int8", scale=0.1, zp=0)
    rest = [m.const(f"c{k}", rng.integers(-9, 9, (1, 2)), "int8", scale=0.1, zp=0) for k in range(10)]
    y = m.tensor("y", [1, 22], "int8", scale=0.1, zp=0)
    m.op("CONCATENATION", [x, *rest], [y], "ConcatenationOptions", Axis=1)
    return x, y


def _lstm(m, rng):
    x = m.tensor("x", [1, 2, 3], "int8", scale=0.1, zp=0)
    weights = [m.const(f"w{k}", rng.integers(-127, 128, (4, 3 if k < 4 else 4)), "int8", scale=0.01, zp=0)
               for k in range(8)]
    biases = [m.const(f"b{k}", rng.integers(-500, 500, 4), "int32", scale=0.001, zp=0) for k in range(4)]
    h = m.tensor("h", [1, 4], "int8", scale=0.1, zp=0, variable=True)
    c = m.tensor("c", [1, 4], "int16", scale=2.0 ** -11, zp=0, variable=True)
    y = m.tensor("y", [1, 2, 4], "int8", scale=0.1, zp=0)
    m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", [x, *weights, -1, -1, -1, *biases, -1, -1, h, c, -1, -1, -1, -1], [y],
         "UnidirectionalSequenceLSTMOptions", FusedActivationFunction="TANH")
    return x, y


def _reshape_fc(m, rng):
    """An unquantized tensor reshaped (fine: TFLM's RESHAPE reads no scale) into a layer that reads its scale."""
    x = m.tensor("x", [2, 1, 4], "int8")
    flat = m.tensor("flat", [2, 4], "int8")
    m.op("RESHAPE", [x, m.const("s", [2, 4], "int32")], [flat])
    w = m.const("w", rng.integers(-127, 128, (5, 4)), "int8", scale=0.02, zp=0)
    y = m.tensor("y", [2, 5], "int8", scale=0.2, zp=0)
    m.op("FULLY_CONNECTED", [flat, w, -1], [y], "FullyConnectedOptions")
    return x, y


def _gather16(m, rng):
    x = m.tensor("x", [4, 2], "int16", scale=0.1, zp=0)
    y = m.tensor("y", [2, 2], "int16", scale=0.1, zp=0)
    m.op("GATHER", [x, m.const("i", [0, 2], "int32")], [y], "GatherOptions")
    return x, y


CASES = {
    "stride 0": (lambda m, r: _conv(m, r, False), _set(lambda m: m.ops[0]["fields"], "StrideH", 0),
                 ["CONV_2D at index 0", "stride_h 0"]),
    "dilation 2^30": (lambda m, r: _conv(m, r, True), _set(lambda m: m.ops[0]["fields"], "DilationWFactor", 1 << 30),
                      ["DEPTHWISE_CONV_2D at index 0", "dilation"]),
    "NaN scale": (_fc, _set(lambda m: m.tensors[0], "scale", float("nan")), ["tensor 'x' has scale nan"]),
    "filter zero point 128": (_fc, _set(lambda m: m.tensors[1], "zp", 128), ["tensor 'w' has zero point 128"]),
    "declared output shape": (_fc, _set(lambda m: m.tensors[3], "shape", [1, 10]),
                              ["declared output shape [1, 10], the op computes [2, 5]"]),
    "input index -5": (_fc, lambda m: m.ops[0]["inputs"].__setitem__(2, -5), ["reads missing tensor -5"]),
    "int32 weights": (_fc, lambda m: m.tensors[1].update(dtype="int32", data=m.tensors[1]["data"].astype("int32")),
                      ["input 1 'w' is int32; TFLM's kernel reads int8 or int4 there"]),
    "extra input": (_softmax, lambda m: m.ops[0]["inputs"].append(0), ["SOFTMAX at index 0: 2 inputs"]),
    "huge dimension": (_fc, _set(lambda m: m.tensors[0], "shape", [(1 << 31) - 1]), ["more than"]),
    "per-channel count": (lambda m, r: _conv(m, r, False), lambda m: m.tensors[1].update(scale=[0.02] * 3, zp=[0] * 3),
                          ["tensor 'w' [4, 3, 3, 3] has 3 per-channel scales on quantized_dimension 0"]),
    "type outside the schema": (_fc, _set(lambda m: m.tensors[3], "dtype", 99),
                                ["tensor 'y' has type 99, not a TensorType of the TFLite schema"]),
    "INT4 activation": (_fc, _set(lambda m: m.tensors[0], "dtype", 17), ["tensor 'x' is INT4, a type mcugen does not run"]),
    "STRING output": (_fc, _set(lambda m: m.tensors[3], "dtype", 5), ["tensor 'y' is STRING"]),
    "unquantized int8 activation": (_fc, _set(lambda m: m.tensors[0], "scale", None),
                                    ["int8 tensor 'x' has no quantization parameters"]),
    "constant output": (_fc, lambda m: setattr(m, "outputs", [m.outputs[0], 1]), ["output 'w' is a constant tensor"]),
    "constant input": (_fc, lambda m: setattr(m, "inputs", [m.inputs[0], 2]), ["input 'b' is a constant tensor"]),
    "NaN bias scale": (_fc, _set(lambda m: m.tensors[2], "scale", float("nan")), ["tensor 'b' has scale nan"]),
    "-inf bias scale": (_fc, _set(lambda m: m.tensors[2], "scale", float("-inf")), ["tensor 'b' has scale -inf"]),
    "unquantized weights": (_fc, _set(lambda m: m.tensors[1], "scale", None),
                            ["input 1 'w' is int8 without quantization parameters"]),
    "unquantized int16 activation": (_softmax16, _set(lambda m: m.tensors[0], "scale", None),
                                     ["int16 tensor 'x' has no quantization parameters"]),
    "unquantized tensor reshaped into a layer": (_reshape_fc, lambda m: None,
                                                ["FULLY_CONNECTED at index 1", "int8 tensor 'flat' has no "
                                                 "quantization parameters"]),
    "int16 GATHER": (_gather16, lambda m: None, ["GATHER at index 0: tensor 'x' is int16",
                                                 "an int16 GATHER is not supported"]),
    "int16 softmax beta -1": (_softmax16, _set(lambda m: m.ops[0]["fields"], "Beta", -1.0),
                              ["beta -1: the int16 SOFTMAX needs a positive beta"]),
    "unquantized LSTM cell state": (_lstm, _set(lambda m: m.tensors[-2], "scale", None),
                                    ["input 19 'c' is int16 without quantization parameters"]),
    "LSTM cell scale 2^-50": (_lstm, _set(lambda m: m.tensors[-2], "scale", 2.0 ** -50),
                              ["cell state scale", "2^-42 to 2^2 works"]),
    "LSTM cell state not variable": (_lstm, _set(lambda m: m.tensors[-2], "variable", False),
                                     ["reads tensor 'c' that no earlier op writes"]),
    "int64 bias 2^62": (_fc16, lambda m: m.tensors[2].update(data=np.full(5, 1 << 62, np.int64)),
                        ["an int64 bias of 2^47 or more"]),
    "int16 MUL zero point": (_mul16, _set(lambda m: m.tensors[0], "zp", 5),
                             ["int16 tensor 'x' has a zero point other than 0"]),
    "int16 LOGISTIC output scale": (_logistic16, _set(lambda m: m.tensors[1], "scale", 1 / 256),
                                    ["int16 output scale 0.00390625", "Q0.15"]),
    "int16 LOGISTIC input zero point": (_logistic16, _set(lambda m: m.tensors[0], "zp", -3),
                                        ["int16 tensor 'x' has a zero point other than 0"]),
    "int8 into a 16x8 layer": (_fc16, _set(lambda m: m.tensors[0], "dtype", "int8"),
                               ["FULLY_CONNECTED at index 0", "mix int16 and int8"]),
    "LEAKY_RELU alpha NaN": (_leaky16, _set(lambda m: m.ops[0]["fields"], "Alpha", float("nan")),
                             ["LEAKY_RELU at index 0", "a rescale factor of nan is not a finite number"]),
    "11 concatenated inputs": (_concat11, lambda m: None, ["CONCATENATION at index 0: 11 inputs"]),
    "huge rescale": (_fc, lambda m: (m.tensors[3].update(scale=1e-15), m.ops[0]["inputs"].pop()),
                     ["beyond what an int32 requantize"]),
    # TFLM reads options only through the union's declared type, and only the op's own
    "conv options deleted": (lambda m, r: _conv(m, r, False), _set(lambda m: m.ops[0], "options", None),
                             ["CONV_2D at index 0: no options (the file declares no options"]),
    "conv options table deleted, type kept": (lambda m, r: _conv(m, r, False),
                                              lambda m: m.ops[0].update(options=None, options_type=1),
                                              ["CONV_2D at index 0: no options (its table is missing"]),
    "conv options of another op": (lambda m, r: _conv(m, r, False),
                                   _set(lambda m: m.ops[0], "options_type", 10),
                                   ["CONV_2D at index 0: no options",
                                    "the file gives ConcatenationOptions"]),
    "depthwise options type NONE, table kept": (lambda m, r: _conv(m, r, True),
                                                _set(lambda m: m.ops[0], "options_type", 0),
                                                ["DEPTHWISE_CONV_2D at index 0: no options"]),
    "conv options type 250": (lambda m, r: _conv(m, r, False), _set(lambda m: m.ops[0], "options_type", 250),
                              ["no options (the file gives type 250"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_invalid_field_is_one_line_naming_it(capsys, tmp_path, case):
    make, mutate, phrases = CASES[case]
    code, _, err = run_cli(capsys, "compare", _model(tmp_path, make, mutate))
    assert_one_error_line(code, err, *phrases)


@pytest.mark.parametrize("case", ["int16 MUL zero point", "int16 LOGISTIC output scale",
                                  "int16 LOGISTIC input zero point", "int8 into a 16x8 layer",
                                  "11 concatenated inputs", "int16 GATHER"])
def test_tflm_refuses_them_too(tmp_path, case):
    make, mutate, _ = CASES[case]
    with pytest.raises(McugenError, match="TFLM refuses this model"):
        Tflm(_model(tmp_path, make, mutate))


def test_missing_options_are_refused_where_tflm_would_crash_and_a_crash_of_tflm_is_one_line(capsys, tmp_path):
    path = _model(tmp_path, _softmax, _set(lambda m: m.ops[0], "options", None))
    with pytest.raises(McugenError, match=r"TFLM crashed on this model \(signal 6\)"):
        Tflm(path)  # beta 0: TFLM aborts in Prepare
    code, _, err = run_cli(capsys, "inspect", path)
    assert_one_error_line(code, err, "SOFTMAX at index 0: no options")


def _split(opcode):
    def make(m, rng):
        x = m.tensor("x", [2, 4], "int8", scale=0.1, zp=3)
        y = m.tensor("y", [2, 4], "int8", scale=0.1, zp=3)
        axis = m.const("axis", [1], "int32")
        if opcode == "SPLIT":
            m.op(opcode, [axis, x], [y], "SplitOptions", NumSplits=1)
        else:
            m.op(opcode, [x, m.const("sizes", [4], "int32"), axis], [y], "SplitVOptions", NumSplits=1)
        return x, y
    return make


def _arg(opcode):
    def make(m, rng):
        x = m.tensor("x", [2, 4], "int8", scale=0.1, zp=3)
        y = m.tensor("y", [2], "int32")
        m.op(opcode, [x, m.const("axis", [1], "int32")], [y], "ArgMaxOptions" if opcode == "ARG_MAX"
             else "ArgMinOptions", version=2, OutputType=2)
        return x, y
    return make


def _reshape(m, rng):
    x = m.tensor("x", [2, 4], "int8", scale=0.1, zp=3)
    y = m.tensor("y", [8], "int8", scale=0.1, zp=3)
    m.op("RESHAPE", [x, m.const("shape", [8], "int32")], [y], "ReshapeOptions", NewShape=[8])
    return x, y


UNREAD_OPTIONS = {"SPLIT": _split("SPLIT"), "SPLIT_V": _split("SPLIT_V"), "ARG_MAX": _arg("ARG_MAX"),
                  "ARG_MIN": _arg("ARG_MIN"), "RESHAPE": _reshape}


@pytest.mark.parametrize("opcode", sorted(UNREAD_OPTIONS))
def test_absent_options_that_tflm_never_reads_are_fine(tmp_path, opcode):
    """These kernels take nothing from their options (OpDef.options_unread): without them TFLM gives
    the same answer, and so does mcugen."""
    from mcugen import ops
    from mcugen.validation import golden
    from mcugen.validation.compare import compare_with_tflm, random_inputs
    from mcugen.codegen.pipeline import compile_model
    assert opcode in ops.lookup(opcode).options_unread
    path = _model(tmp_path, UNREAD_OPTIONS[opcode], _set(lambda m: m.ops[0], "options", None))
    g = compile_model(path)
    xs = random_inputs(g, 2, seed=1)
    assert compare_with_tflm(g, path, xs) is None
    assert golden.run(g, xs[0])[0].size  # ran


def test_absent_options_that_tflm_reads_are_refused_as_tflm_would_run_them_zeroed(capsys, tmp_path):
    """The hole the refusal closes: TFLM runs a FULLY_CONNECTED without options with every parameter
    zero (no RELU, whatever the model meant), an answer no converter asked for."""
    def relu_fc(m, rng):
        x, y = _fc(m, rng)
        m.ops[0]["fields"]["FusedActivationFunction"] = "RELU"
        return x, y
    with_options = tmp_path / "with.tflite"
    with_options.write_bytes(_model(tmp_path, relu_fc, lambda m: None).read_bytes())
    without = _model(tmp_path, relu_fc, _set(lambda m: m.ops[0], "options", None))
    x = [np.random.default_rng(5).integers(-128, 128, (2, 8)).astype(np.int8)]
    assert not np.array_equal(Tflm(with_options).run(x, 1)[0], Tflm(without).run(x, 1)[0])
    code, _, err = run_cli(capsys, "compare", without)
    assert_one_error_line(code, err, "FULLY_CONNECTED at index 0: no options", "every parameter zero")


WRITES = {
    "run --dump-layers": ("run", "--input", "{x}", "--output", "{tmp}/o.npz", "--dump-layers", "/sys/mcugen-dump"),
    "run --output": ("run", "--input", "{x}", "--output", "/proc/mcugen/o.npz"),
    "test --json": ("test", "--board", "host", "--json", "/proc/mcugen.json"),
    "test --out": ("test", "--board", "host", "--out", "/sys/mcugen-out"),
    "build --out": ("build", "--board", "host", "--out", "/proc/mcugen-out"),
    "build --json": ("build", "--board", "host", "--out", "{tmp}/b", "--json", "/sys/b.json"),
    "export --out": ("export", "--name", "net", "--out", "/sys/mcugen-lib"),
}


@pytest.mark.parametrize("case", sorted(WRITES))
def test_a_path_that_cannot_be_written_is_one_line_before_any_work(capsys, tmp_path, case):
    path = _model(tmp_path, _fc, lambda m: None)
    np.save(tmp_path / "x.npy", np.zeros((2, 8), np.int8))
    command, *rest = WRITES[case]
    before = sorted(tmp_path.iterdir())
    code, out, err = run_cli(capsys, command, path, *(a.format(x=tmp_path / "x.npy", tmp=tmp_path) for a in rest))
    assert_one_error_line(code, err, "cannot write", "is not a writable folder")
    assert code == 1 and not out and "building" not in err  # refused before any work
    assert sorted(tmp_path.iterdir()) == before


def test_a_compiler_that_fails_without_a_word_is_named_not_mcugens_c(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CC", "false")
    code, _, err = run_cli(capsys, "build", _model(tmp_path, _fc, lambda m: None), "--board", "host",
                           "--out", tmp_path / "b")
    assert_one_error_line(code, err, "the compiler exited with code 1 without a message", "false -std=c99",
                          "check the compiler")
    assert "mcugen's C" not in err and code == 1


def test_zero_samples_are_refused(capsys, tmp_path):
    path = _model(tmp_path, _fc, lambda m: None)
    for n in ("0", "-1", "x"):
        with pytest.raises(SystemExit):
            run_cli(capsys, "compare", path, "--samples", n)
        assert "sample count >= 1" in capsys.readouterr().err


def test_outputs_go_only_to_regular_files_and_are_checked_first(capsys, tmp_path):
    path = _model(tmp_path, _fc, lambda m: None)
    np.save(tmp_path / "x.npy", np.zeros((2, 8), np.int8))
    run = ("run", path, "--input", tmp_path / "x.npy", "--force", "--output")
    code, _, err = run_cli(capsys, *run, "/dev/null")
    assert_one_error_line(code, err, "/dev/null", ".npz")
    os.mkfifo(tmp_path / "pipe.npz")
    code, _, err = run_cli(capsys, *run, tmp_path / "pipe.npz")
    assert_one_error_line(code, err, "is not a regular file")
    assert (tmp_path / "pipe.npz").exists() and not (tmp_path / "pipe.npz").is_file()
    (tmp_path / "file").write_text("mine")
    code, _, err = run_cli(capsys, *run, tmp_path / "file" / "out.npz")
    assert_one_error_line(code, err, "file is not a folder")
    assert (tmp_path / "file").read_text() == "mine"
    code, _, err = run_cli(capsys, *run, tmp_path / "out.npy")
    assert_one_error_line(code, err, "name the file .npz")


def test_a_fifo_or_device_is_not_read_as_a_model(capsys, tmp_path):
    os.mkfifo(tmp_path / "model.tflite")
    for path in (tmp_path / "model.tflite", "/dev/zero"):
        code, _, err = run_cli(capsys, "inspect", path)
        assert_one_error_line(code, err, "not a regular file")


def test_a_build_folder_is_kept_for_its_model_and_board(capsys, tmp_path, models):
    hello = models / "tflm_hello_world.tflite"
    out = tmp_path / "build"
    code, _, _ = run_cli(capsys, "build", hello, "--board", "mps2-an386", "--out", out)
    assert code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and ".build" not in p.parts}
    code, _, err = run_cli(capsys, "test", models / "tflm_simple_add.tflite", "--board", "mps2-an386",
                           "--out", out)
    assert_one_error_line(code, err, "holds the build of tflm_hello_world.tflite for mps2-an386",
                          "not tflm_simple_add.tflite for mps2-an386")
    code, _, err = run_cli(capsys, "build", hello, "--board", "lm3s6965evb", "--out", out)
    assert_one_error_line(code, err, "holds the build of tflm_hello_world.tflite for mps2-an386")
    code, _, err = run_cli(capsys, "flash", "--board", "lm3s6965evb", "--out", out)
    assert_one_error_line(code, err, "holds a build for mps2-an386, not lm3s6965evb")
    assert before == {p: p.read_bytes() for p in before}  # nothing of the build was touched


def test_a_real_board_without_a_port_is_refused_before_any_work(capsys, models):
    start = time.monotonic()
    code, _, err = run_cli(capsys, "test", models / "mlperf_kws_dscnn.tflite", "--board", "nano33")
    # the offline firmware talks on a UART, through a USB-serial adapter: its port, not the board's USB one
    assert_one_error_line(code, err, "nano33 is a real board", "--port, e.g. /dev/ttyUSB0 (the adapter's port)")
    assert "ttyACM" not in err
    assert time.monotonic() - start < 5
    code, _, err = run_cli(capsys, "test", models / "mlperf_kws_dscnn.tflite", "--board", "nano33", "--stock")
    assert_one_error_line(code, err, "Serial over USB CDC", "--port, e.g. /dev/ttyACM0")


def test_bad_names_get_the_closest_and_float_models_the_quantize_command(capsys, tmp_path, models):
    kws = models / "mlperf_kws_dscnn.tflite"
    code, err = refused(capsys, "export", kws, "--format", "cmak", "--out", tmp_path / "x")
    assert_one_error_line(code, err, "invalid choice: 'cmak'", "(did you mean cmake?)")
    code, err = refused(capsys, "quantize", kws, "--precision", "in8", "--out", tmp_path / "y.tflite")
    assert_one_error_line(code, err, "invalid choice: 'in8'", "(did you mean int8?)")
    keras, saved = tmp_path / "model.keras", tmp_path / "exported"
    keras.write_bytes(b"PK\x03\x04 a Keras zip")
    saved.mkdir()
    (saved / "saved_model.pb").write_bytes(b"\x08\x01")
    for path, kind in ((keras, "a Keras model"), (saved, "a SavedModel")):
        code, _, err = run_cli(capsys, "test", path, "--board", "host")
        assert_one_error_line(code, err, f"it looks like {kind}: `mcugen quantize {path} --data CALIB.npz")


def test_flashing_a_pico_without_its_drive_mounted_is_one_line(capsys, tmp_path, models):
    out = tmp_path / "fw"
    code, _, _ = run_cli(capsys, "build", models / "tflm_hello_world.tflite", "--board", "rpi-pico", "--out", out)
    assert code == 0
    code, _, err = run_cli(capsys, "flash", "--board", "rpi-pico", "--port", "/dev/ttyUSB0", "--out", out)
    assert_one_error_line(code, err, "no RPI-RP2 drive is mounted", "BOOTSEL")


@pytest.mark.parametrize("board, tool", [("nucleo-u575zi-q", "st-flash"), ("nrf5340dk", "JLinkExe"),
                                         ("alif-devkit-e7", "Alif's Security Toolkit")])
def test_flashing_without_the_board_s_flasher_is_one_line(capsys, tmp_path, models, monkeypatch, board, tool):
    """The offline firmware of a probe-flashed board goes through the vendor's flasher; without it on
    PATH, one line says which to install, and the build is kept."""
    out = tmp_path / "fw"
    code, _, _ = run_cli(capsys, "build", models / "tflm_hello_world.tflite", "--board", board, "--out", out)
    assert code == 0
    toolchain = os.path.dirname(shutil.which("arm-none-eabi-objcopy"))
    monkeypatch.setenv("PATH", toolchain)  # the compiler's folder only: no flasher
    monkeypatch.delenv("ALIF_SETOOLS", raising=False)
    code, _, err = run_cli(capsys, "flash", "--board", board, "--port", "/dev/ttyACM0", "--out", out)
    assert_one_error_line(code, err, f"{tool} not found")
    assert (out / ".pio" / "build" / "offline" / "firmware.elf").exists()
