"""--external-input: the layers read a model's inputs where the caller keeps them (NAME_set_input), in no buffer of
the arena. Two inputs (one reshaped first, a view of it), read by a depthwise conv, a conv and an ADD, bit-exact
with TFLM on the host and on the emulated M0, M4 and M55 (their reference, DSP and Helium kernels), the arena
smaller by the inputs' bytes; the IR shows the inputs without an arena place."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mcugen.codegen.pipeline import compile_model
from mcugen.commands.cli import main
from mcugen.ir.budget import Budget
from tflite_writer import ModelSpec


def _two_inputs() -> ModelSpec:
    """x [1, 96] reshaped to [1, 4, 8, 3] -> 3x3 depthwise (SAME) -> 1x1 conv (8) -> ADD z [1, 4, 8, 8] -> y."""
    rng = np.random.default_rng(5)
    m = ModelSpec()
    x = m.tensor("x", [1, 96], "int8", scale=0.5, zp=-3)
    image = m.tensor("image", [1, 4, 8, 3], "int8", scale=0.5, zp=-3)
    m.op("RESHAPE", [x, m.const("shape", np.array([1, 4, 8, 3]), "int32")], [image])
    dw = m.tensor("dw", [1, 4, 8, 3], "int8", scale=0.25, zp=1)
    m.op("DEPTHWISE_CONV_2D", [image, m.const("w_dw", rng.integers(-9, 9, (1, 3, 3, 3)), "int8", scale=0.05, zp=0)],
         [dw], "DepthwiseConv2DOptions", version=3, DepthMultiplier=1, Padding="SAME", StrideH=1, StrideW=1)
    pw = m.tensor("pw", [1, 4, 8, 8], "int8", scale=0.5, zp=2)
    m.op("CONV_2D", [dw, m.const("w_pw", rng.integers(-9, 9, (8, 1, 1, 3)), "int8", scale=0.05, zp=0), -1], [pw],
         "Conv2DOptions", version=3, Padding="VALID", StrideH=1, StrideW=1, DilationHFactor=1, DilationWFactor=1)
    z = m.tensor("z", [1, 4, 8, 8], "int8", scale=0.25, zp=0)
    y = m.tensor("y", [1, 4, 8, 8], "int8", scale=0.5, zp=-1)
    m.op("ADD", [pw, z], [y], "AddOptions")
    m.inputs, m.outputs = [x, z], [y]
    return m


def test_the_inputs_have_no_place_in_the_arena(tmp_path):
    path = tmp_path / "m.tflite"
    path.write_bytes(_two_inputs().build())
    whole, outside = (compile_model(path, budget=Budget(external_inputs=e)) for e in (False, True))
    # x, its reshape (the same bytes) and z: read where the caller keeps them, in no buffer
    assert outside.arena.outside == {0: (0, 0), 1: (0, 0), 7: (1, 0)}
    assert not set(outside.arena.outside) & set(outside.arena.buffer_of)
    assert [line for line in outside.text().splitlines() if line.startswith(("  t0 ", "  t1 ", "  t7 "))] == [
        "  t0 int8[1, 96] scale 0.5 zp -3 input 'x'", "  t1 int8[1, 4, 8, 3] scale 0.5 zp -3 'image'",
        "  t7 int8[1, 4, 8, 8] scale 0.25 zp 0 input 'z'"]
    assert (whole.arena.plan.size, outside.arena.plan.size) == (608, 352)  # z's 256 B were at the peak


@pytest.mark.parametrize("board", ["host", "lm3s6965evb", "mps2-an386", "mps3-an547"])
def test_an_external_input_runs_bit_exact_on_every_kernel_family(tmp_path, capsys, board):
    path, report = tmp_path / "m.tflite", tmp_path / "t.json"
    path.write_bytes(_two_inputs().build())
    code = main(["test", str(path), "--board", board, "--external-input", "--samples", "2", "--json", str(report)])
    _, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(report.read_text())
    assert result["passed"] == 2 and result["failed"] == 0 and result["oracle"].startswith("TFLM")


def test_patches_read_their_slices_of_an_external_input(tmp_path, capsys):
    """2x2 patches over a 3x3 stride-2 conv and a RELU: each patch copies its rows and columns of the image from
    where the caller keeps it (not a view: the columns are not contiguous). Bit-exact on the emulated M4."""
    m = ModelSpec()
    x = m.tensor("x", [1, 16, 16, 3], "int8", scale=0.5, zp=-3)
    w = m.const("w", np.arange(8 * 9 * 3).reshape(8, 3, 3, 3) % 7 - 3, "int8", scale=0.05, zp=0)
    h = m.tensor("h", [1, 8, 8, 8], "int8", scale=0.5, zp=2)
    m.op("CONV_2D", [x, w, -1], [h], "Conv2DOptions", version=3, Padding="SAME", StrideH=2, StrideW=2,
         DilationHFactor=1, DilationWFactor=1)
    y = m.tensor("y", [1, 8, 8, 8], "int8", scale=0.5, zp=2)
    m.op("RELU", [h], [y])
    m.inputs, m.outputs = [x], [y]
    path, report = tmp_path / "m.tflite", tmp_path / "t.json"
    path.write_bytes(m.build())
    code = main(["test", str(path), "--board", "mps2-an386", "--external-input", "--patches", "2x2", "--samples", "2",
                 "--json", str(report)])
    _, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(report.read_text())
    assert result["passed"] == 2 and result["failed"] == 0
    g = compile_model(path, features=frozenset({"dsp"}), budget=Budget(patches="2x2", external_inputs=True))
    copies = [op for op in g.ops if op.opcode == "STRIDED_SLICE" and op.call is not None]
    assert copies and all(op.inputs[0] in g.arena.outside for op in copies)
