"""`mcugen quantize --plan FILE`: each layer's precision as the user writes it (by index, output name or
pattern), all six in one model bit-exact on the M4 and the M55 against the golden model (checked against its oracle;
on the M55 the fp16 layer computed in fp16, the golden model's alone) (the search's choice written as a
plan that makes the same model again: tests/test_search.py); every bad plan one line, nothing written."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import ROOT
from test_cli import assert_one_error_line, refused, run_cli
from test_float import transpose_conv
from tflite_writer import ModelSpec

pytest.importorskip("ai_edge_quantizer")

DIGITS = ROOT / "examples" / "digits"
MODEL = DIGITS / "digits_float.tflite"
SIX = """default: int8
layers:
  0: w4a8
  "1": 16x8
  sequential_1/flatten_1/Reshape: fp32
  "*dense_1/MatMul*": dynamic
  4: fp16
"""


def _quantize(capsys, tmp_path, plan: str, name: str = "m"):
    (tmp_path / f"{name}.yaml").write_text(plan)
    out = tmp_path / f"{name}.tflite"
    code, stdout, err = run_cli(capsys, "quantize", MODEL, "--data", DIGITS / "calibration.npz", "--plan",
                                tmp_path / f"{name}.yaml", "--out", out)
    assert code == 0, err
    return out, stdout


def test_a_plan_of_all_six_precisions_runs_bit_exact_on_the_m4_and_the_m55(tmp_path, capsys):
    out, stdout = _quantize(capsys, tmp_path, SIX)
    precisions = [line.split()[2] for line in stdout.splitlines() if line.strip()[:1].isdigit()]
    assert {"w4a8", "16x8", "float32", "dynamic", "fp16", "int8"} <= set(precisions)
    assert "checked: LiteRT BUILTIN_REF (TFLM refuses this model" in stdout  # the hybrid layer: said so
    assert "fp16: 1 layer(s) measured as a core with half-precision arithmetic" in stdout
    for board, fp16 in (("mps2-an386", False), ("mps3-an547", True)):
        code, stdout, err = run_cli(capsys, "test", out, "--board", board, "--samples", "2")
        assert code == 0 and f"bit-exact on 2 sample(s) on {board}" in stdout, err
        assert ("in fp16 they are mcugen's golden model's alone (no TFLite oracle computes fp16)" in stdout) == fp16


@pytest.mark.parametrize("plan, phrase", [
    ("default: int9\n", "'int9' is no precision (int8, 16x8, w4a8, fp16, float16, fp32, dynamic) (did you mean int8?)"),
    ("default: int8\nlayers: {2: fp16}\n", "layer 2 (RESHAPE 'sequential_1/flatten_1/Reshape') has no weights for fp16"),
    ("default: int8\nlayers: {7: fp16}\n", "layer '7' names no layer of the model"),
    ("default: int8\nlayers: {dense_x: fp32}\n", "layer 'dense_x' names no layer of the model"),
    ("default: int8\nlayers: {2: dynamic}\n", "layer 2 (RESHAPE 'sequential_1/flatten_1/Reshape') has no weights"),
    ("default: int8\nlayers: {4: w4a8}\n", "layer 4 (FULLY_CONNECTED"),
    ("default: int8\nlayers: {0: 16x8, '*conv2d_1/Relu*': fp32}\n", "is named twice"),
    ("default: int8\nlaers: {}\n", "unknown key 'laers' (did you mean layers?)"),
    ("[1, 2]\n", "a plan is a mapping with at least `default: PRECISION`"),
    ("default: fp16\nio: int8\n", "io 'int8' with default fp16: the inputs and outputs are float32"),
    ("default: int8\ndefault: int8\n", "key 'default' appears twice"),
    ("default: int8\nper_tensor: 3\n", "per_tensor is true or false"),
])
def test_a_bad_plan_is_one_line_and_nothing_is_written(tmp_path, capsys, plan, phrase):
    (tmp_path / "p.yaml").write_text(plan)
    out = tmp_path / "m.tflite"
    code, err = refused(capsys, "quantize", MODEL, "--data", DIGITS / "calibration.npz", "--plan", tmp_path / "p.yaml",
                        "--out", out)
    assert_one_error_line(code, err, phrase)
    assert not out.exists()


def test_fp16_on_a_layer_without_an_fp16_kernel_is_one_line(tmp_path, capsys):
    """A float TRANSPOSE_CONV has weights (float16 takes them) but no fp16 kernel: the plan names the layer."""
    rng = np.random.default_rng(5)
    m = ModelSpec()
    x = m.tensor("x", [1, 4, 4, 2], "float32")
    m.inputs, m.outputs = [x], [transpose_conv(m, rng, x, (1, 4, 4, 2), 3, 3, 2, "SAME", False, "NONE")]
    model, data = tmp_path / "up.tflite", tmp_path / "calibration.npz"
    model.write_bytes(m.build())
    np.savez(data, x=rng.standard_normal((4, 1, 4, 4, 2)).astype(np.float32))
    (tmp_path / "p.yaml").write_text("default: fp32\nlayers: {0: fp16}\n")
    code, err = refused(capsys, "quantize", model, "--data", data, "--plan", tmp_path / "p.yaml",
                        "--out", tmp_path / "m.tflite")
    assert_one_error_line(code, err, "layer 0 (TRANSPOSE_CONV 't0') has no fp16 kernel")
    assert not (tmp_path / "m.tflite").exists()


def test_plan_goes_alone(tmp_path, capsys):
    (tmp_path / "p.yaml").write_text("default: int8\n")
    for extra in (["--search"], ["--precision", "16x8"], ["--per-tensor"], ["--io", "float32"]):
        code, err = refused(capsys, "quantize", MODEL, "--data", DIGITS / "calibration.npz", "--plan",
                            tmp_path / "p.yaml", "--out", tmp_path / "m.tflite", *extra)
        assert_one_error_line(code, err, "--plan gives every layer's precision")
    code, err = refused(capsys, "quantize", MODEL, "--data", DIGITS / "calibration.npz", "--plan",
                        tmp_path / "missing.yaml", "--out", tmp_path / "m.tflite")
    assert_one_error_line(code, err, "cannot read it")
