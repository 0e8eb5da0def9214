"""Every model TFLM runs, round three: what newer converters and vendor zoos write that mcugen used to
refuse. Each case bit-exact with TFLM (golden and host C), the kernels on the emulated cores too."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import bit_exact_on_board
from single_op import ACTS, ZP, check
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec


def _grouped(rng, dtype, h, w, groups, per_group, cout_per_group, k, stride, padding, act, zx=0, zy=0):
    m = ModelSpec()
    cin, cout = groups * per_group, groups * cout_per_group
    s_in, s_out = (0.02, 0.05) if dtype == "int8" else (1e-4, 5e-4)
    x = m.tensor("x", [1, h, w, cin], dtype, scale=s_in, zp=zx)
    wt = m.const("w", rng.integers(-127, 128, (cout, k, k, per_group)), "int8",
                 scale=[float(s) for s in rng.uniform(0.002, 0.02, cout)], zp=[0] * cout)
    b = m.const("b", rng.integers(-3000, 3000, cout), "int32" if dtype == "int8" else "int64", scale=1e-4, zp=0)
    oh, ow = ((h + stride - 1) // stride, (w + stride - 1) // stride) if padding == "SAME" else \
        ((h - k) // stride + 1, (w - k) // stride + 1)
    y = m.tensor("y", [1, oh, ow, cout], dtype, scale=s_out, zp=zy)
    m.op("CONV_2D", [x, wt, b], [y], "Conv2DOptions", version=3, Padding=padding, StrideH=stride, StrideW=stride,
         DilationHFactor=1, DilationWFactor=1, FusedActivationFunction=act)
    m.inputs, m.outputs = [x], [y]
    return m


@given(st.sampled_from(["int8", "int16"]), st.integers(3, 7), st.integers(3, 7), st.integers(2, 4),
       st.integers(1, 5), st.integers(1, 3), st.sampled_from([1, 3]), st.sampled_from([1, 2]),
       st.sampled_from(["SAME", "VALID"]), ACTS, st.data(), st.integers(0, 99))
def test_grouped_conv(tmp_path_factory, dtype, h, w, groups, per_group, cout_per_group, k, stride, padding, act,
                      data, seed):
    zx, zy = (data.draw(ZP), data.draw(ZP)) if dtype == "int8" else (0, 0)
    m = _grouped(np.random.default_rng(seed), dtype, h, w, groups, per_group, cout_per_group, k, stride, padding,
                 act, zx, zy)
    check(tmp_path_factory.mktemp("grouped"), m, seed, oracles=("tflm",))


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
def test_grouped_conv_on_the_emulated_cores(tmp_path, board):
    m = _grouped(np.random.default_rng(1), "int8", 6, 5, 3, 4, 2, 3, 1, "SAME", "RELU", zx=-3, zy=5)
    bit_exact_on_board(tmp_path, m, seed=2, board=board)


def test_a_group_count_tflm_reads_past_is_one_line(capsys, tmp_path):
    """9 input channels, filter depth 3 (3 groups), 5 output channels: TFLM's group of channel 4 is 2.5."""
    rng = np.random.default_rng(1)
    m = ModelSpec()
    x = m.tensor("x", [1, 5, 5, 9], "int8", scale=0.02, zp=0)
    wt = m.const("w", rng.integers(-127, 128, (5, 3, 3, 3)), "int8", scale=[0.01] * 5, zp=[0] * 5)
    y = m.tensor("y", [1, 5, 5, 5], "int8", scale=0.05, zp=0)
    m.op("CONV_2D", [x, wt, -1], [y], "Conv2DOptions", version=3, Padding="SAME", StrideH=1, StrideW=1,
         DilationHFactor=1, DilationWFactor=1)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
    assert_one_error_line(code, err, "grouped convolution (9 input channels, filter depth 3, 5 output channels)")


def test_a_time_axis_left_open_in_shape_signature_runs(tmp_path_factory):
    """shape_signature [-1, -1, 8] with shape [1, 3, 8] (GRU/LSTM audio models): TFLM allocates the shape."""
    m = ModelSpec()
    x = m.tensor("x", [1, 3, 8], "int8", scale=0.05, zp=1, signature=[-1, -1, 8])
    y = m.tensor("y", [1, 3, 8], "int8", scale=0.05, zp=1, signature=[-1, -1, 8])
    m.op("RELU", [x], [y])
    m.inputs, m.outputs = [x], [y]
    check(tmp_path_factory.mktemp("signature"), m, 0, oracles=("tflm",))
