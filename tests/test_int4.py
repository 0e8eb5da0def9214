"""INT4 filters: read as TFLM unpacks them, bit-exact with TFLM on the host and on the emulated cores'
reference, DSP and Helium kernels, kept two to a byte in flash (passes/pack_int4.py), and refused
with one line where TFLM refuses them."""
from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import bit_exact_on_board
from single_op import check
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec


def int4_model(weights: str = "int4", fc_per_channel: bool = False) -> ModelSpec:
    """A conv, a depthwise conv and a fully-connected layer whose filters are `weights` (int4, or int8
    holding the same values), odd counts included (a half-used last byte)."""
    rng = np.random.default_rng(0)
    m = ModelSpec()
    x = m.tensor("x", [1, 9, 9, 3], "int8", scale=0.05, zp=-2)
    w = m.const("w", rng.integers(-8, 8, (7, 3, 3, 3)), weights, scale=list(rng.uniform(0.02, 0.08, 7)), zp=[0] * 7)
    b = m.const("b", rng.integers(-200, 200, 7), "int32", scale=[0.0025] * 7, zp=[0] * 7)
    c = m.tensor("c", [1, 9, 9, 7], "int8", scale=0.1, zp=1)
    m.op("CONV_2D", [x, w, b], [c], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1, FusedActivationFunction="RELU")
    dw = m.const("dw", rng.integers(-8, 8, (1, 3, 3, 7)), weights, scale=[0.07] * 7, zp=[0] * 7, axis=3)
    d = m.tensor("d", [1, 5, 5, 7], "int8", scale=0.1, zp=0)
    m.op("DEPTHWISE_CONV_2D", [c, dw], [d], "DepthwiseConv2DOptions", Padding=0, StrideW=2, StrideH=2,
         DepthMultiplier=1)
    r = m.tensor("r", [1, 175], "int8", scale=0.1, zp=0)
    m.op("RESHAPE", [d, m.const("shape", np.array([1, 175], np.int32), "int32")], [r], "ReshapeOptions",
         NewShape=[1, 175])
    units = 5
    fc_scale = dict(scale=[0.03] * units, zp=[0] * units) if fc_per_channel else dict(scale=[0.03], zp=[0])
    fw = m.const("fw", rng.integers(-8, 8, (units, 175)), weights, **fc_scale)
    f = m.tensor("f", [1, units], "int8", scale=0.2, zp=3)
    m.op("FULLY_CONNECTED", [r, fw], [f], "FullyConnectedOptions")
    m.inputs, m.outputs = [x], [f]
    return m


def test_int4_filters_equal_tflm_on_the_host(tmp_path):
    check(tmp_path, int4_model(), 0, oracles=("tflm",))


# the Cortex-M4's DSP kernels (their int16 layouts unpacked too), the M55's Helium ones, the M0's reference ones
@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547", "microbit"])
def test_int4_filters_on_the_emulated_cores(tmp_path, board):
    bit_exact_on_board(tmp_path, int4_model(), 1, samples=3, board=board)


def test_int4_filters_take_half_the_flash_of_int8_ones(tmp_path, capsys):
    sizes = {}
    for weights in ("int8", "int4"):
        path = tmp_path / f"{weights}.tflite"
        path.write_bytes(int4_model(weights).build())
        code, _, _ = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / weights,
                             "--json", tmp_path / f"{weights}.json")
        assert code == 0
        report = json.loads((tmp_path / f"{weights}.json").read_text())
        sizes[weights] = report["constants_bytes"], report["weights_bytes"]
    (const8, weights8), (const4, weights4) = sizes["int8"], sizes["int4"]
    counts = (7 * 27, 63, 5 * 175)  # the three filters' values, each odd: a half-used last byte
    filters = sum(counts)
    assert weights8 - weights4 == filters - sum((n + 1) // 2 for n in counts)
    assert const8 - const4 >= 0.45 * filters, sizes  # in flash too, whatever layout the kernels read


@pytest.mark.parametrize("kind,phrases", [
    ("fc_per_channel", ["FULLY_CONNECTED", "INT4 filter quantized per channel", "per tensor only"]),
    ("int16", ["INT4 filter with int16 activations", "int8 activations only"]),
])
def test_int4_where_tflm_refuses_it_is_one_line(capsys, tmp_path, kind, phrases):
    if kind == "fc_per_channel":
        m = int4_model(fc_per_channel=True)
    else:
        m = ModelSpec()
        x = m.tensor("x", [1, 4, 4, 2], "int16", scale=0.01, zp=0)
        w = m.const("w", np.ones((3, 1, 1, 2)), "int4", scale=[0.1] * 3, zp=[0] * 3)
        y = m.tensor("y", [1, 4, 4, 3], "int16", scale=0.02, zp=0)
        m.op("CONV_2D", [x, w], [y], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1)
        m.inputs, m.outputs = [x], [y]
    path = tmp_path / "model.tflite"
    path.write_bytes(m.build())
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
    assert_one_error_line(code, err, *phrases)
    assert not (tmp_path / "out").exists()
