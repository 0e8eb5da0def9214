"""The TFLM signal library's audio front end (micro_speech's preprocessor: window, FFT auto-scale, kissfft
int16 RFFT, energy, mel filter bank, square root, stateful spectral subtraction, PCAN, log) and the plain
ops around it (CAST, int32 arithmetic, slices, concatenations): bit-exact with TFLM on the example's own
WAVs frame after frame (the noise estimate carried across frames), on the host C and on emulated cores
with and without an FPU; other FFT lengths (radices 2, 3, 4, 5); what TFLM refuses or leaves undefined
is one line."""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest
from flatbuffers import flexbuffers

from conftest import OBJECT_CACHE
from single_op import check
from mcugen.validation import golden
from mcugen.targets.boards import load_board
from mcugen.codegen.build import build_host
from mcugen.targets.firmware import build_board
from mcugen.validation.oracle import Tflm
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec

MODELS = Path(__file__).parent / "models"
PREPROCESSORS = ["tflm_audio_preprocessor_int8.tflite", "tflm_audio_preprocessor_float.tflite"]


def frames(word: str) -> list[list[np.ndarray]]:
    """The example's one-second WAV as the preprocessor reads it: 30 ms frames every 20 ms."""
    with wave.open(str(MODELS / "samples" / f"micro_speech_{word}_1000ms.wav")) as w:
        audio = np.frombuffer(w.readframes(w.getnframes()), np.int16)
    return [[audio[k:k + 480].reshape(1, 480)] for k in range(0, len(audio) - 480, 320)]


def hostile_frames(count: int, seed: int) -> list[list[np.ndarray]]:
    """Frames that reach the arithmetic's corners: full-scale noise, constant -32768 and 32767 (the
    auto-scale's wrap, the FFT's saturating sums), silence, a pure tone."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        kind = k % 4
        if kind == 0:
            x = rng.integers(-32768, 32768, 480)
        elif kind == 1:
            x = np.full(480, rng.choice([-32768, 32767, 0, 1, -1]))
        elif kind == 2:
            x = rng.integers(-3, 4, 480) * rng.choice([1, 100, 10000, 32767])
        else:
            x = np.sin(np.arange(480) * rng.uniform(0, 3)) * rng.uniform(0, 32768)
        out.append([np.clip(x, -32768, 32767).astype(np.int16).reshape(1, 480)])
    return out


def assert_equal_to_tflm(model: Path, steps: list[list[np.ndarray]]):
    g = compile_model(model)
    runner, tflm = golden.Runner(g), Tflm(model)
    for k, xs in enumerate(steps):
        ours, theirs = runner.run(xs), tflm.run(xs, len(g.outputs))
        assert all(a.tobytes() == b.tobytes() for a, b in zip(ours, theirs)), (k, ours, theirs)
    return g


@pytest.mark.parametrize("name", PREPROCESSORS)
def test_preprocessor_equals_tflm_on_the_example_wavs_and_hostile_frames(name):
    model = MODELS / name
    for steps in (frames("yes") + frames("no"), hostile_frames(80, 1)):
        assert_equal_to_tflm(model, steps)


@pytest.mark.parametrize("name, board", [(PREPROCESSORS[0], "host"), (PREPROCESSORS[0], "mps2-an386"),
                                         (PREPROCESSORS[1], "microbit")])
def test_preprocessor_bit_exact_in_c_frame_after_frame(tmp_path, name, board):
    """49 consecutive frames: the spectral subtraction's noise estimate is carried from each to the next."""
    g = compile_model(MODELS / name, features=load_board(board).features if board != "host" else frozenset())
    if board == "host":
        program = build_host(g, tmp_path / "c", name, object_cache=OBJECT_CACHE).program
    else:
        program = build_board(g, load_board(board), OutDir(tmp_path / "fw"), name).program
    _, results = run_on_target(Target.of(board), program, g, frames("yes"))
    assert len(results) == 49 and all(r.passed for r in results), [r.outputs for r in results if not r.passed]


TENSOR_TYPES = {"int16": 7, "int32": 2, "float32": 0}


def rffts(lengths=(8, 20, 36, 64, 120), row=18, dtype="int16") -> ModelSpec:
    """One input [2, row] through an RFFT of each length (halves 4, 10, 18, 32, 60: radices 4, 2 x 5,
    2 x 3 x 3, 4 x 4 x 2, 4 x 3 x 5); the shorter rows zero-padded, as TFLM's kernel pads."""
    m = ModelSpec()
    x = m.tensor("x", [2, row], dtype)
    outs = []
    for n in lengths:
        y = m.tensor(f"spectrum{n}", [2, n + 2], dtype)
        options = dict(T=TENSOR_TYPES[dtype], fft_length=n)
        m.op("CUSTOM", [x], [y], custom="SignalRfft", custom_options=bytes(flexbuffers.Dumps(options)))
        outs.append(y)
    m.inputs, m.outputs = [x], outs
    return m


def spectra_inputs(dtype: str, count: int, seed: int) -> list[list[np.ndarray]]:
    """Random rows over the type's whole range (float32: magnitudes from 1e-3 to 1e6), then its extremes."""
    rng = np.random.default_rng(seed)
    if dtype == "float32":
        rows = [(rng.normal(0, 1, (2, 8)) * 10.0 ** rng.integers(-3, 7)).astype(np.float32) for _ in range(count)]
        return [[r] for r in rows] + [[np.full((2, 8), v, np.float32)] for v in (-1e30, 3.5)]
    info = np.iinfo(dtype)
    rows = [rng.integers(info.min, info.max, (2, 8), endpoint=True).astype(dtype) for _ in range(count)]
    return [[r] for r in rows] + [[np.full((2, 8), v, dtype)] for v in (info.min, info.max)]


@pytest.mark.parametrize("dtype, board", [("int16", "mps2-an386"), ("int32", "microbit"), ("float32", "mps2-an386")])
def test_rfft_of_every_radix_and_type_equals_tflm_and_the_c(tmp_path, dtype, board):
    path = tmp_path / "rfft.tflite"
    path.write_bytes(rffts(row=8, dtype=dtype).build())
    samples = spectra_inputs(dtype, 6, 3)
    g = assert_equal_to_tflm(path, samples)
    program = build_host(g, tmp_path / "c", "rfft.tflite", object_cache=OBJECT_CACHE).program
    _, results = run_on_target(Target.of("host"), program, g, samples)
    assert all(r.passed for r in results)
    target = load_board(board)
    program = build_board(compile_model(path, features=target.features), target, OutDir(tmp_path / "fw"),
                          "rfft.tflite").program
    _, results = run_on_target(Target.of(board), program, g, samples)
    assert all(r.passed for r in results)


def int32_arithmetic() -> ModelSpec:
    """int32 [2, 3] and [3] (broadcast) through ADD (its RELU ignored, as TFLM does), SUB with RELU6, MUL
    with RELU, DIV, MAXIMUM, MINIMUM; float32 [8] through CAST to every integer type, int32 back to
    float32 and int16 (wrapping)."""
    m = ModelSpec()
    a, b = m.tensor("a", [2, 3], "int32"), m.tensor("b", [3], "int32")
    f = m.tensor("f", [8], "float32")
    outs = []
    for opcode, options, act in (("ADD", "AddOptions", "RELU"), ("SUB", "SubOptions", "RELU6"),
                                 ("MUL", "MulOptions", "RELU"), ("DIV", "DivOptions", "NONE"),
                                 ("MAXIMUM", None, None), ("MINIMUM", None, None)):
        y = m.tensor(opcode.lower(), [2, 3], "int32")
        if options:
            m.op(opcode, [a, b], [y], options, FusedActivationFunction=act)
        else:
            m.op(opcode, [a, b], [y])
        outs.append(y)
    for dtype in ("int8", "int16", "int32", "uint32"):
        y = m.tensor(f"f_{dtype}", [8], dtype)
        m.op("CAST", [f], [y], "CastOptions")
        outs.append(y)
    back, narrow = m.tensor("a_float", [2, 3], "float32"), m.tensor("a_int16", [2, 3], "int16")
    m.op("CAST", [a], [back], "CastOptions")
    m.op("CAST", [a], [narrow], "CastOptions")
    m.inputs, m.outputs = [a, b, f], outs + [back, narrow]
    return m


def test_int32_arithmetic_and_casts_equal_tflm_on_host_and_a_core(tmp_path):
    path = tmp_path / "int32.tflite"
    path.write_bytes(int32_arithmetic().build())
    rng = np.random.default_rng(5)
    big = np.array([2 ** 31 - 1, -2 ** 31 + 1, 65537, -70000, 123456789, 3], np.int32)
    special = np.array([np.nan, np.inf, -np.inf, 3e9, -3e9, 300.7, -129.5, 5e18], np.float32)
    samples = []
    for k in range(4):  # divisors never 0 nor -1 with -2^31: TFLM's host build traps there
        a = big.reshape(2, 3) if k == 0 else rng.integers(-2 ** 31, 2 ** 31, (2, 3)).astype(np.int32)
        b = np.where(rng.random(3) < 0.5, rng.integers(1, 9, 3), rng.integers(-2 ** 31 + 1, -1, 3)).astype(np.int32)
        f = special if k == 0 else rng.normal(0, 10.0 ** (k + 1), 8).astype(np.float32)
        samples.append([a, b, f])
    g = assert_equal_to_tflm(path, samples)
    program = build_host(g, tmp_path / "c", "int32.tflite", object_cache=OBJECT_CACHE).program
    _, results = run_on_target(Target.of("host"), program, g, samples)
    assert all(r.passed for r in results)
    board = load_board("mps2-an386")
    program = build_board(compile_model(path, features=board.features), board, OutDir(tmp_path / "fw"),
                          "int32.tflite").program
    _, results = run_on_target(Target.of("mps2-an386"), program, g, samples)
    assert all(r.passed for r in results)


def test_what_tflm_refuses_or_leaves_undefined_is_one_line(tmp_path, capsys):
    def window(shift):
        m = ModelSpec()
        x, w, y = m.tensor("x", [1, 8], "int16"), m.const("w", np.ones(4), "int16"), m.tensor("y", [1, 8], "int16")
        m.op("CUSTOM", [x, w], [y], custom="SignalWindow", custom_options=bytes(flexbuffers.Dumps(dict(shift=shift))))
        m.inputs, m.outputs = [x], [y]
        return m

    def divide_by(values):
        m = ModelSpec()
        a, d, y = m.tensor("a", [3], "int32"), m.const("d", np.array(values), "int32"), m.tensor("y", [3], "int32")
        m.op("DIV", [a, d], [y], "DivOptions")
        m.inputs, m.outputs = [a], [y]
        return m

    int32_fft = rffts(lengths=(16,))
    int32_fft.ops[0]["custom_options"] = bytes(flexbuffers.Dumps(dict(T=2, fft_length=16)))
    int64_fft = rffts(lengths=(16,))
    int64_fft.ops[0]["custom_options"] = bytes(flexbuffers.Dumps(dict(T=4, fft_length=16)))
    for model, phrase in ((rffts(lengths=(28,)), "fft_length 28"),  # half 14 = 2 x 7
                          (rffts(lengths=(10,)), "exceed fft_length 10"),
                          (int32_fft, "option T says int32, the tensors are int16"),
                          (int64_fft, "tensor type 4"),
                          (window(40), "shift 40"),
                          (divide_by([1, 0, 2]), "holds a zero")):
        path = tmp_path / "bad.tflite"
        path.write_bytes(model.build())
        code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
        assert_one_error_line(code, err, phrase)
        assert not (tmp_path / "out").exists()


def test_the_micro_speech_example_hears_yes_and_no():
    """examples/micro_speech/listen.py: the front end's features through the keyword model, TFLM's verdict."""
    import subprocess
    import sys

    from conftest import ROOT

    example = ROOT / "examples" / "micro_speech"
    for word in ("yes", "no"):
        printed = subprocess.run([sys.executable, str(example / "listen.py"), str(example / f"{word}_1000ms.wav")],
                                 capture_output=True, text=True, check=True).stdout
        assert printed.startswith(f"{word}_1000ms.wav: {word} ")
        tflm = Tflm(example / "audio_preprocessor_int8.tflite")
        features = np.stack([tflm.run(xs, 1)[0] for xs in frames(word)])
        scores = Tflm(example / "micro_speech_quantized.tflite").run([features.reshape(1, 1960)], 1)[0]
        assert ["silence", "unknown", "yes", "no"][int(np.argmax(scores))] == word


def _energy_then(start, end, then):
    """x [16] int16 (8 bins) -> SignalEnergy(start_index, end_index) -> uint32 [8] -> `then` (CAST to int32 and
    RESHAPE, or an int32 ADD that computes with every value)."""
    m = ModelSpec()
    x, e = m.tensor("x", [16], "int16"), m.tensor("e", [8], "uint32")
    m.op("CUSTOM", [x], [e], custom="SignalEnergy",
         custom_options=bytes(flexbuffers.Dumps(dict(end_index=end, start_index=start))))
    c, y = m.tensor("c", [8], "int32"), m.tensor("y", [2, 4], "int32")
    m.op("CAST", [e], [c])
    if then == "add":
        s = m.tensor("s", [8], "int32")
        m.op("ADD", [c, c], [s], "AddOptions")
        c = s
    m.op("RESHAPE", [c, m.const("shape", [2, 4], "int32")], [y], "ReshapeOptions", NewShape=[2, 4])
    m.inputs, m.outputs = [x], [y]
    return m


def test_values_tflm_leaves_undefined_are_moved_along_but_never_computed_with(tmp_path, capsys):
    """SignalEnergy writes its bins start_index..end_index only: CAST and RESHAPE carry the other outputs'
    undefinedness to the model's output, where comparisons skip them (compare: bit-exact on the rest); an
    ADD that computes with them gives TFLM an answer of what its arena held, refused in one line naming both
    layers."""
    path = tmp_path / "moved.tflite"
    path.write_bytes(_energy_then(2, 6, "reshape").build())
    code, out, err = run_cli(capsys, "compare", path, "--samples", "2")
    assert code == 0 and "bit-exact" in out + err, out + err
    path = tmp_path / "added.tflite"
    path.write_bytes(_energy_then(2, 6, "add").build())
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
    assert_one_error_line(code, err, "ADD at index 2 computes with 4 value(s) of 'c' that "
                          "CUSTOM:SignalEnergy at index 0 left undefined")


def test_an_option_of_another_type_is_read_as_tflm_reads_its_bytes(tmp_path):
    """TFLM's FlexbufferWrapper reads each option slot's bytes as an integer whatever its type: a float 3.0 is
    its bits, 0x40400000 (a window shift past 31, refused as TFLM's C++ leaves it undefined), and a shift
    written as a bool True is 1, bit-exact with TFLM."""
    from mcugen.codegen.pipeline import compile_model
    from mcugen.errors import McugenError

    def window(shift):
        m = ModelSpec()
        x, w, y = m.tensor("x", [1, 8], "int16"), m.const("w", np.arange(8) * 300, "int16"), m.tensor("y", [1, 8], "int16")
        m.op("CUSTOM", [x, w], [y], custom="SignalWindow", custom_options=bytes(flexbuffers.Dumps(dict(shift=shift))))
        m.inputs, m.outputs = [x], [y]
        return m

    path = tmp_path / "float.tflite"
    path.write_bytes(window(3.0).build())
    with pytest.raises(McugenError, match=f"shift {0x40400000}"):
        compile_model(path)
    check(tmp_path / "bool", window(True), 1, oracles=("tflm",))
