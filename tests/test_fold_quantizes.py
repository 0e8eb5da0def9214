"""passes/fold_quantizes.py: a QUANTIZE that only moves the zero point (equal scales, int8 -> int8 or int16 ->
int16) becomes part of the layer that writes its input: that layer writes the QUANTIZE's output with its clamp
moved. Each case is checked against TFLM running the file as written (the layer, then the QUANTIZE): on the host
through the golden model and the generated C, on QEMU through the DSP and Helium kernels. Scales that differ,
and a tensor another layer reads too, keep their QUANTIZE."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from conftest import bit_exact_on_board
from single_op import check, opcodes_of
from tflite_writer import ModelSpec

WRITERS = ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL"]


def _writer_then_quantize(opcode, act, zp_mid, zp_out, seed, dtype="int8", out_scale=None, also_read=False):
    """x -> `opcode` (fused `act`, output zero point zp_mid) -> QUANTIZE (scale out_scale, or the layer's:
    zero point zp_out) -> y [and a RELU of the layer's output too where also_read]."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    c, zps = 6, (zp_mid, zp_out) if dtype == "int8" else (0, 0)
    x = m.tensor("x", [1, 5, 4, c], dtype, scale=0.05, zp=-3 if dtype == "int8" else 0)
    shape = [1, 5, 4, c] if opcode != "FULLY_CONNECTED" else [5 * 4, 7]
    mid = m.tensor("mid", shape, dtype, scale=0.07, zp=zps[0])
    bias_type = "int32" if dtype == "int8" else "int64"
    if opcode in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        shape_w = (c, 3, 3, c) if opcode == "CONV_2D" else (1, 3, 3, c)
        w = m.const("w", rng.integers(-127, 128, shape_w), "int8", scale=[0.02] * c, zp=[0] * c,
                    axis=0 if opcode == "CONV_2D" else 3)
        b = m.const("b", rng.integers(-900, 900, c), bias_type, scale=[0.001] * c, zp=[0] * c)
        fields = dict(Padding="SAME", StrideW=1, StrideH=1, FusedActivationFunction=act)
        if opcode == "CONV_2D":
            m.op(opcode, [x, w, b], [mid], "Conv2DOptions", **fields)
        else:
            m.op(opcode, [x, w, b], [mid], "DepthwiseConv2DOptions", DepthMultiplier=1, **fields)
    elif opcode == "FULLY_CONNECTED":
        w = m.const("w", rng.integers(-127, 128, (7, c)), "int8", scale=0.02, zp=0)
        b = m.const("b", rng.integers(-900, 900, 7), bias_type, scale=0.001, zp=0)
        m.op(opcode, [x, w, b], [mid], "FullyConnectedOptions", FusedActivationFunction=act)
    else:
        other = m.tensor("other", [1, 5, 4, c], dtype, scale=0.04, zp=5 if dtype == "int8" else 0)
        options = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}[opcode]
        m.op(opcode, [x, other], [mid], options, FusedActivationFunction=act)
    y = m.tensor("y", shape, dtype, scale=out_scale or 0.07, zp=zps[1])
    m.op("QUANTIZE", [mid], [y])
    m.inputs = [x] + ([other] if opcode in ("ADD", "SUB", "MUL") else [])
    m.outputs = [y]
    if also_read:
        z = m.tensor("z", shape, dtype, scale=0.07, zp=zps[0])
        m.op("RELU", [mid], [z])
        m.outputs = [y, z]
    return m


@settings(max_examples=24, deadline=None)
@given(st.sampled_from(WRITERS), st.sampled_from(["NONE", "RELU", "RELU6"]), st.integers(-128, 127),
       st.integers(-128, 127), st.sampled_from(["int8", "int8", "int16"]), st.integers(0, 999))
@example("CONV_2D", "RELU6", -128, 127, "int8", 1)  # the moved range is [127, 127]
def test_a_zero_point_move_folds_into_its_writer_bit_exact(tmp_path_factory, opcode, act, zp_mid, zp_out, dtype,
                                                           seed):
    """Any zero points and fused activation: the QUANTIZE goes (its output written by the layer, clamped to the
    moved range), the model bit-exact with TFLM."""
    if dtype == "int16" and opcode in ("DEPTHWISE_CONV_2D", "SUB"):
        dtype = "int8"  # not every writer has a 16x8 kernel in TFLM
    tmp = tmp_path_factory.mktemp("fold")
    m = _writer_then_quantize(opcode, act, zp_mid, zp_out, seed, dtype)
    assert "QUANTIZE" not in opcodes_of(tmp, m)
    check(tmp, m, seed, oracles=("tflm",))


@pytest.mark.parametrize("case", ["another scale", "read twice"])
def test_a_quantize_that_rescales_or_whose_input_lives_on_stays(tmp_path, case):
    m = _writer_then_quantize("CONV_2D", "RELU", -20, 30, 3, out_scale=0.09 if case == "another scale" else None,
                              also_read=case == "read twice")
    assert "QUANTIZE" in opcodes_of(tmp_path, m)
    check(tmp_path, m, 3, oracles=("tflm",))


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
@pytest.mark.parametrize("opcode, act, zp_mid, zp_out", [
    ("CONV_2D", "NONE", -128, 100),  # the clamp moved to [-28, 127]: the DSP's unclamped path gives way
    ("DEPTHWISE_CONV_2D", "RELU6", 5, -60),
    ("FULLY_CONNECTED", "RELU", 0, 127),
    ("ADD", "NONE", 40, -90),
])
def test_folded_quantizes_run_bit_exact_on_the_dsp_and_helium_kernels(tmp_path, board, opcode, act, zp_mid, zp_out):
    m = _writer_then_quantize(opcode, act, zp_mid, zp_out, seed=8)
    assert "QUANTIZE" not in opcodes_of(tmp_path, m)
    check(tmp_path / "host", m, 8, oracles=("tflm",))
    bit_exact_on_board(tmp_path / board, m, seed=8, samples=2, board=board)
