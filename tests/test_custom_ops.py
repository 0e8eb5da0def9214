"""Your own op (`--ops FILE.py`): examples/custom_op/'s SquareClip between two of mcugen's layers, its C kernel
built into the host program and the emulated boards' firmware and checked bit-exact against its numpy
function; a user op that fails its own checks, and a model whose custom op nobody brought, are one line."""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from flatbuffers import flexbuffers

from conftest import ROOT
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec

EXAMPLE = ROOT / "examples" / "custom_op"
OPS = EXAMPLE / "square_clip.py"


def model(shift: int = 3) -> ModelSpec:
    """x -> RELU -> SquareClip(shift) -> FULLY_CONNECTED -> y."""
    rng = np.random.default_rng(2)
    m = ModelSpec()
    x = m.tensor("x", [1, 12], "int8", scale=0.05, zp=-3)
    r = m.tensor("r", [1, 12], "int8", scale=0.05, zp=-3)
    s = m.tensor("s", [1, 12], "int8", scale=0.02, zp=-100)
    w = m.const("w", rng.integers(-127, 128, (4, 12)), "int8", scale=0.01, zp=0)
    y = m.tensor("y", [1, 4], "int8", scale=0.1, zp=5)
    m.op("RELU", [x], [r])
    m.op("CUSTOM", [r], [s], custom="SquareClip", custom_options=bytes(flexbuffers.Dumps({"shift": shift})))
    m.op("FULLY_CONNECTED", [s, w, -1], [y], "FullyConnectedOptions", version=4)
    m.inputs, m.outputs = [x], [y]
    return m


def test_the_example_model_is_the_one_the_test_writes():
    assert (EXAMPLE / "square_clip.tflite").read_bytes() == model().build()


@pytest.mark.parametrize("board", ["host", "mps2-an386", "microbit"])
def test_a_user_op_runs_bit_exact_with_its_numpy_function(capsys, tmp_path, board):
    code, out, err = run_cli(capsys, "test", EXAMPLE / "square_clip.tflite", "--ops", OPS, "--board", board,
                             "--samples", "3", "--out", tmp_path / "build")
    assert code == 0, out + err
    assert f"bit-exact on 3 sample(s) on {board}" in out + err, out + err
    generated = (tmp_path / "build" / "src" / "model.c").read_text()
    assert "square_clip_s8(" in generated and '#include "square_clip.h"' in generated


def test_the_golden_model_is_the_user_s_numpy(capsys, tmp_path):
    from mcugen.validation import golden
    from mcugen.ops.custom import forget_ops, load_ops
    from mcugen.codegen.pipeline import compile_model
    path = tmp_path / "m.tflite"
    path.write_bytes(model(shift=2).build())
    x = np.arange(-6, 6, dtype=np.int8).reshape(1, 12)
    inner = {}
    load_ops(OPS)
    try:
        g = compile_model(path)
        golden.Runner(g).run([x], on_tensor=lambda t, v: inner.__setitem__(g.tensors[t].name, v))
    finally:
        forget_ops()
    d = np.maximum(x.astype(np.int32), -3) + 3  # RELU at zero point -3, then x - zp
    np.testing.assert_array_equal(inner["s"], np.clip((d * d >> 2) - 100, -128, 127).astype(np.int8))


def test_export_carries_the_user_kernel(capsys, tmp_path):
    code, _, err = run_cli(capsys, "export", EXAMPLE / "square_clip.tflite", "--ops", OPS, "--name", "sq",
                           "--out", tmp_path / "lib")
    assert code == 0, err
    assert (tmp_path / "lib" / "square_clip.c").exists() and (tmp_path / "lib" / "square_clip.h").exists()


def test_a_custom_op_nobody_brought_is_one_line(capsys, tmp_path):
    code, _, err = run_cli(capsys, "build", EXAMPLE / "square_clip.tflite", "--board", "host", "--out", tmp_path / "b")
    assert_one_error_line(code, err, "unsupported op CUSTOM:SquareClip", "--ops FILE.py")


def _broken(tmp_path, replace: tuple[str, str]):
    folder = tmp_path / "ops"
    shutil.copytree(EXAMPLE, folder)
    text = (folder / "square_clip.py").read_text()
    assert replace[0] in text
    (folder / "square_clip.py").write_text(text.replace(*replace))
    return folder / "square_clip.py"


@pytest.mark.parametrize("replace, phrases", [
    (("return [np.clip(y, -128, 127).astype(np.int8)]", "return [np.clip(y, -128, 127)]"),
     ["custom op SquareClip (op 1): run() returned int32[1, 12] for output 0, the model declares int8[1, 12]"]),
    (('source, header = "square_clip.c"', 'source, header = "missing.c"'),
     ["custom op SquareClip's missing.c is not beside it"]),
    (("return []", "return ['shift too large']"), ["CUSTOM:SquareClip at index 1: shift too large"]),
    (("import numpy as np", "import numpy as np\nraise ValueError('broken on purpose')"),
     ["ValueError: broken on purpose"]),
    (("import numpy as np", "import sys\nimport numpy as np\nsys.exit(0)"), ["SystemExit: 0", "imports"]),
    (("        d = xs[0]", "        raise KeyError('mine')\n        d = xs[0]"),
     ["custom op SquareClip: SquareClip.run() in square_clip.py raised KeyError: 'mine'", "fix run() in"]),
    (("        if inputs[0].dtype", "        1 / 0\n        if inputs[0].dtype"),
     ["SquareClip.check() in square_clip.py raised ZeroDivisionError"]),
    (("        return dict(size", "        raise SystemExit(3)\n        return dict(size"),
     ["SquareClip.params() in square_clip.py raised SystemExit: 3"]),
    (('source, header = "square_clip.c"', 'source, header = "/etc/passwd"'),
     ["custom op SquareClip's /etc/passwd is not beside it", "name it without a folder"]),
])
def test_user_ops_that_fail_their_own_checks_are_one_line(capsys, tmp_path, replace, phrases):
    ops_file = _broken(tmp_path, replace)
    code, _, err = run_cli(capsys, "run", EXAMPLE / "square_clip.tflite", "--ops", ops_file,
                           "--input", tmp_path / "x.npy", "--output", tmp_path / "o.npz")
    if "run()" in phrases[0]:  # only a run shows it: give it an input
        np.save(tmp_path / "x.npy", np.zeros((1, 12), np.int8))
        code, _, err = run_cli(capsys, "run", EXAMPLE / "square_clip.tflite", "--ops", ops_file,
                               "--input", tmp_path / "x.npy", "--output", tmp_path / "o.npz")
    assert_one_error_line(code, err, *phrases)
    assert not (tmp_path / "o.npz").exists()


def _test_with_kernel(capsys, tmp_path, replace: tuple[str, str], board: str, *options):
    """`mcugen test` of the example with its C kernel changed by `replace` (one sample unless told)."""
    folder = tmp_path / "ops"
    shutil.copytree(EXAMPLE, folder)
    source = (folder / "square_clip.c").read_text()
    assert replace[0] in source
    (folder / "square_clip.c").write_text(source.replace(*replace))
    return run_cli(capsys, "test", EXAMPLE / "square_clip.tflite", "--ops", folder / "square_clip.py", "--board", board,
                   *(options or ("--samples", "1")), "--out", tmp_path / "build")


def test_a_host_program_that_crashes_says_so(capsys, tmp_path):
    """A kernel that crashes the host program (here a user's, trapping; a sanitizer's report alike) is called a
    crash with its signal, not a lost connection to check the port of."""
    code, _, err = _test_with_kernel(capsys, tmp_path, ("    const int8_t *x", "    __builtin_trap();\n    const int8_t *x"),
                                     "host")
    assert_one_error_line(code, err, "crashed (mcugen_host ended, killed by signal", "custom op of yours")


@pytest.mark.parametrize("board", ["mps2-an386", "microbit"])
def test_a_user_kernel_that_faults_is_named_on_the_board(capsys, tmp_path, board):
    """The firmware's fault handler reports the fault (FAULT frame) instead of leaving a silent board: the host
    names the layer, its kernel and whose code it is, at once (no waiting out the time limit)."""
    code, _, err = _test_with_kernel(capsys, tmp_path, ("    const int8_t *x", "    __builtin_trap();\n    const int8_t *x"),
                                     board)
    assert_one_error_line(code, err, "faulted (HardFault at pc 0x", "in layer 1 and stopped: CUSTOM:SquareClip (op 1 "
                          "in the file) on square_clip_s8", "your custom op's C kernel (square_clip.c")


@pytest.mark.parametrize("board", ["host", "mps2-an386"])
def test_layers_names_the_layer_a_wrong_kernel_runs(capsys, tmp_path, board):
    """`test --layers` compares every layer's output on the target: a user kernel off by one in its clamp is
    named at its layer, not found only in the FULLY_CONNECTED's output after it."""
    code, out, err = _test_with_kernel(capsys, tmp_path, ("v > 127 ? 127 : v", "v > 126 ? 126 : v"), board,
                                       "--samples", "3", "--layers")
    assert code == 2, out + err
    assert "first layer to differ: layer 1, CUSTOM:SquareClip (op 1 in the file, kernel square_clip_s8), " \
           "output 's'" in out, out + err
    code, out, err = run_cli(capsys, "test", EXAMPLE / "square_clip.tflite", "--ops", OPS, "--board", board,
                             "--samples", "2", "--layers", "--out", tmp_path / "good")
    assert code == 0 and "every layer's output (3) bit-exact on the target" in out, out + err


@pytest.mark.parametrize("board", ["host", "mps2-an386"])
def test_a_user_kernel_that_does_not_compile_is_called_the_user_s(capsys, tmp_path, board):
    code, _, err = _test_with_kernel(capsys, tmp_path, ("y[i] = (int8_t)", "y[i] = (int8_t)undeclared_name + "), board)
    assert_one_error_line(code, err, "failed in your custom op's square_clip.c", "fix square_clip.c")
