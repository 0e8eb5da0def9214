"""The Helium (MVE) kernel variants on the emulated Cortex-M55 (QEMU mps3-an547), bit-exact with the golden
model (itself checked against TFLM in tests/test_ops_*.py) on shapes their vector loops cover unevenly:
depths and channel counts off the vector width (the predicated tail), fewer than four units, several rows,
padding, strides, dilations; and --tune among the variants."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import bit_exact_on_board, examples
from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from single_op import binary_model, pool_model
from test_dsp_fc import _fc_model
from test_dsp_kernels import _conv, _conv_into
from test_cli import checked_report, run_cli
from test_ops_conv import FC16_CASES, fc16_model
from tflite_writer import ModelSpec

M55 = load_board("mps3-an547")


def _on_the_m55(tmp_path, model, kernel):
    path = tmp_path / "op.tflite"
    path.write_bytes(model.build())
    g = compile_model(path, features=M55.features)
    assert [op.call.kernel for op in g.ops if op.call] == [kernel]
    result = build_board(g, M55, OutDir(tmp_path / "fw"), "op.tflite")
    _, results = run_on_target(Target(M55), result.program, g, random_inputs(g, 3, seed=5))
    assert all(r.passed for r in results), [r.outputs for r in results]


def _fc(depth, units, rows, out_scale, act, seed):
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [rows, depth], "int8", scale=0.05, zp=-3)
    y = m.tensor("y", [rows, units], "int8", scale=out_scale, zp=5)
    w_scales = [float(np.float32(v)) for v in rng.uniform(0.002, 0.02, units)]
    w = m.const("w", rng.integers(-127, 128, (units, depth)), "int8", scale=w_scales, zp=[0] * units)
    b = m.const("b", rng.integers(-3000, 3000, units), "int32", scale=[0.05 * s for s in w_scales], zp=[0] * units)
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", version=4, FusedActivationFunction=act)
    return m


@settings(max_examples=examples(8), deadline=None)
@given(st.integers(1, 70), st.integers(1, 11), st.integers(1, 40), st.sampled_from([0.2, 0.01, 0.0004]),
       st.sampled_from(["NONE", "RELU6"]), st.integers(0, 99))
def test_fully_connected_mve_for_drawn_shapes(tmp_path_factory, depth, units, rows, out_scale, act, seed):
    """Depths off the 16-byte vectors, units off the groups of four, per-channel multipliers below and
    above 1 (right and left shifts of the four-lane requantization), many rows of values."""
    _on_the_m55(tmp_path_factory.mktemp("fc_mve"), _fc(depth, units, rows, out_scale, act, seed),
                "mcu_fully_connected_s8_mve")


@settings(max_examples=examples(8), deadline=None)
@given(*FC16_CASES)
def test_16x8_fully_connected_mve_for_drawn_shapes(tmp_path_factory, batch, depth, units, bias, bias_type, s_in, s_w,
                                                   s_out, act, seed):
    """mcu_fully_connected_s16_mve: depths off the eights, units off the fours, with and without a bias,
    32- and 64-bit accumulators, bit-exact on the M55."""
    bit_exact_on_board(tmp_path_factory.mktemp("fc16_mve"), fc16_model(batch, depth, units, bias, bias_type, s_in,
                                                                       s_w, s_out, act, seed),
                       seed, kernel="mcu_fully_connected_s16_mve", board="mps3-an547")


@settings(max_examples=examples(8), deadline=None)
@given(st.integers(1, 3), st.integers(1, 70), st.sampled_from([1e-4, 0.02, 0.3]), st.integers(-20, 20),
       st.sampled_from(["int8", "int16"]), st.integers(0, 99))
@example(1, 600, 1e-4, 0, "int8", 1)  # every exponential near 1: the sum passes 2^28, no output bit survives the shift
def test_softmax_mve_for_drawn_shapes(tmp_path_factory, rows, depth, s, z, out_type, seed):
    """mcu_softmax_s8_mve: rows off the vectors' widths, int8 and int16 outputs, flat and peaked inputs."""
    m = ModelSpec()
    x = m.tensor("x", [rows, depth], "int8", scale=s, zp=z)
    y = m.tensor("y", [rows, depth], out_type, scale=1 / 256 if out_type == "int8" else 1 / 65536,
                 zp=-128 if out_type == "int8" else -32768)
    m.inputs, m.outputs = [x], [y]
    m.op("SOFTMAX", [x], [y], "SoftmaxOptions", version=2, Beta=1.0)
    bit_exact_on_board(tmp_path_factory.mktemp("softmax_mve"), m, seed, kernel="mcu_softmax_s8_mve", board="mps3-an547")


def test_a_filter_offset_keeps_the_fully_connected_on_another_kernel(tmp_path):
    _on_the_m55(tmp_path, _fc_model(13, 7, 3, 5), "mcu_fully_connected_s8_x4")


@settings(max_examples=examples(8), deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 4), st.integers(1, 4), st.integers(1, 2), st.integers(1, 2),
       st.sampled_from(["SAME", "VALID"]), st.integers(1, 20), st.integers(1, 9), st.integers(0, 99))
def test_conv_mve_for_drawn_shapes(tmp_path_factory, h, w, kh, kw, stride, dilation, pad, cin, cout, seed):
    """Patches off the 16-byte vectors (1 to 20 input channels), padding at every edge (filled with the
    input zero point, which the folded bias cancels), strides, dilations, output channels off the fours."""
    if pad == "VALID" and ((kh - 1) * dilation + 1 > h or (kw - 1) * dilation + 1 > w):
        return  # no output position
    pointwise = (kh, kw, stride) == (1, 1, 1)
    model = _conv(h, w, kh, kw, stride, dilation, pad, cin, cout, 1, False, seed)
    kernel = "mcu_fully_connected_s8_mve" if pointwise else "mcu_conv2d_s8_mve"
    _on_the_m55(tmp_path_factory.mktemp("conv_mve"), model, kernel)


@settings(max_examples=examples(8), deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 4), st.integers(1, 4), st.integers(1, 2), st.integers(1, 2),
       st.sampled_from(["SAME", "VALID"]), st.integers(2, 13), st.integers(1, 2), st.integers(0, 99))
def test_depthwise_mve_for_drawn_shapes(tmp_path_factory, h, w, kh, kw, stride, dilation, pad, channels, batch, seed):
    """Channel groups with a tail of one to three (predicated), padding at every edge (the window filled
    with the input zero point), strides, dilations, rows of outputs off the fours, two images."""
    if pad == "VALID" and ((kh - 1) * dilation + 1 > h or (kw - 1) * dilation + 1 > w):
        return  # no output position
    model = _conv(h, w, kh, kw, stride, dilation, pad, channels, channels, 1, True, seed, batch=batch)
    _on_the_m55(tmp_path_factory.mktemp("dw_mve"), model, "mcu_depthwise_conv2d_s8_mve")


@pytest.mark.parametrize("h, w, kh, kw, stride, dilation, channels, batch", [
    (21, 1, 21, 1, 1, 1, 8, 1),  # one output position: the group's taps down the column in one loop
    (21, 1, 21, 1, 1, 1, 10, 1),  # ... its last two channels' loads predicated
    (5, 3, 3, 2, 1, 2, 6, 1),  # one position of a dilated two-column window, a group of two channels
    (9, 6, 3, 2, 2, 2, 12, 2),  # many positions, strided and dilated, two images
    (5, 5, 3, 3, 1, 1, 4, 1),  # 3 wide, stride 1: the unrolled taps on the image's steps
])
def test_depthwise_mve_reads_an_unpadded_image_where_it_lies(tmp_path, h, w, kh, kw, stride, dilation, channels, batch):
    """VALID windows never leave the image: the Helium depthwise kernel reads the input itself rather than
    copying each group's window, unless a group has fewer than four channels (but for one output position,
    where the last group's loads are predicated)."""
    model = _conv(h, w, kh, kw, stride, dilation, "VALID", channels, channels, 1, True, 7, batch=batch)
    _on_the_m55(tmp_path, model, "mcu_depthwise_conv2d_s8_mve")


@pytest.mark.parametrize("h, w, kh, kw, stride, pad, outputs", [(49, 40, 10, 8, 2, "SAME", 8), (9, 7, 3, 3, 1, "VALID", 5)])
def test_one_channel_depthwise_runs_as_the_helium_conv(tmp_path, h, w, kh, kw, stride, pad, outputs):
    """A depthwise layer on one input channel (micro_speech's and person_detect's first) is a conv whose
    filter is the depthwise one transposed; on the M55 the Helium conv runs it."""
    model = _conv(h, w, kh, kw, stride, 1, pad, 1, outputs, outputs, True, 3)
    _on_the_m55(tmp_path, model, "mcu_conv2d_s8_mve")


@settings(max_examples=examples(8), deadline=None)
@given(st.sampled_from(["ADD", "SUB", "MUL"]), st.lists(st.integers(1, 7), min_size=1, max_size=4),
       st.floats(1e-3, 1.0), st.integers(-128, 127), st.floats(1e-3, 1.0), st.integers(-128, 127),
       st.floats(1e-3, 2.0), st.integers(-128, 127), st.sampled_from(["NONE", "RELU", "RELU6"]), st.integers(0, 99))
@example("MUL", [3, 5], 0.02, -3, 0.5, 100, 0.01, -128, "RELU", 1)
@example("SUB", [7], 0.9, 127, 0.001, -128, 0.002, 5, "NONE", 2)
def test_add_and_mul_mve_for_drawn_shapes(tmp_path_factory, opcode, shape, s1, z1, s2, z2, so, zo, act, seed):
    """Element counts off the fours (the predicated last vector), scales that shift left or right, zero
    points at the ends of int8, fused activations."""
    model = binary_model(opcode, (shape, shape), "int8", (s1, z1), (s2, z2), (so, zo), act)
    _on_the_m55(tmp_path_factory.mktemp("add_mve"), model, "mcu_mul_s8_mve" if opcode == "MUL" else "mcu_add_s8_mve")


@settings(max_examples=examples(8), deadline=None)
@given(st.sampled_from(["ADD", "SUB", "MUL"]), st.lists(st.integers(1, 7), min_size=1, max_size=4),
       st.floats(1e-5, 1e-2), st.floats(1e-5, 1e-2), st.floats(1e-5, 2e-2), st.sampled_from(["NONE", "RELU"]),
       st.integers(0, 99))
def test_int16_add_and_mul_mve_for_drawn_shapes(tmp_path_factory, opcode, shape, s1, s2, so, act, seed):
    """int16 (zero points 0, as TFLM takes them): the 15-bit left shift of ADD/SUB, products of two int16
    for MUL, counts off the fours, values at the ends of int16."""
    model = binary_model(opcode, (shape, shape), "int16", (s1, 0), (s2, 0), (so, 0), act)
    _on_the_m55(tmp_path_factory.mktemp("add16_mve"), model,
                "mcu_mul_s16_mve" if opcode == "MUL" else "mcu_add_s16_mve")


@pytest.mark.parametrize("h, w, channels", [(25, 5, 20), (17, 17, 12), (3, 2, 9)])
def test_global_average_pools_mve(tmp_path, h, w, channels):
    """A window of whole rows: the taps one run of pixels in 16-bit lanes (up to 256 taps: 125 here, KWS's),
    past 256 (289) the 32-bit lanes; channels off the eights (the last group's loads predicated)."""
    m = pool_model("AVERAGE_POOL_2D", h, w, h, w, 1, "VALID", channels, -7, "NONE")
    _on_the_m55(tmp_path, m, "mcu_avgpool_s8_mve")


@settings(max_examples=examples(8), deadline=None)
@given(st.sampled_from(["AVERAGE_POOL_2D", "MAX_POOL_2D"]), st.integers(1, 9), st.integers(1, 9), st.integers(1, 4),
       st.integers(1, 4), st.integers(1, 3), st.sampled_from(["SAME", "VALID"]), st.integers(1, 20),
       st.integers(-128, 127), st.sampled_from(["NONE", "RELU", "RELU6"]), st.integers(0, 99))
def test_pools_mve_for_drawn_shapes(tmp_path_factory, opcode, h, w, kh, kw, stride, pad, channels, zp, act, seed):
    """Channels off the fours (average) and sixteens (max), windows the padding clips (fewer taps to
    average), strides, fused activations."""
    m = pool_model(opcode, h, w, kh, kw, stride, pad, channels, zp, act)
    if m is None:
        return
    kernel = "mcu_avgpool_s8_mve" if opcode == "AVERAGE_POOL_2D" else "mcu_maxpool_s8_mve"
    _on_the_m55(tmp_path_factory.mktemp("pool_mve"), m, kernel)


def test_tune_measures_every_candidate_of_each_layer_on_the_m55(capsys, tmp_path):
    """On a core with Helium and the DSP extension a 1x1 conv has six candidates (Helium as a
    FULLY_CONNECTED, the Helium conv, the DSP conv on widened weights, on twin words and on int8 ones, the
    reference), a first layer on three channels eight (the DSP's split rows on all three weights' forms too):
    --tune runs every one, keeps the fastest of each layer, and the tuned build is bit-exact."""
    rng = np.random.default_rng(11)
    m = ModelSpec()
    x = m.tensor("x", [1, 10, 9, 3], "int8", scale=0.05, zp=7)
    t, shape = _conv_into(m, rng, x, (1, 10, 9, 3), 3, 2, 16)
    y, _ = _conv_into(m, rng, t, shape, 1, 1, 24)
    m.inputs, m.outputs = [x], [y]
    model = tmp_path / "two_convs.tflite"
    model.write_bytes(m.build())
    report = tmp_path / "r.json"
    code, _, err = run_cli(capsys, "test", model, "--board", "mps3-an547",
                           "--tune", "--samples", "1", "--out", tmp_path / "fw", "--json", report)
    assert code == 0 and "tuning 8/8" in err and "tuned on mps3-an547" in err, err
    r = checked_report(report, "test")
    assert r["passed"] == 1 and r["failed"] == 0
    tuned = {layer["name"]: layer for layer in r["layers"] if "tuned" in layer}
    assert len(tuned["conv_2d_1"]["tuned"]["time"]) == 6 and len(tuned["conv_2d_0"]["tuned"]["time"]) == 8
    for layer in tuned.values():
        times = layer["tuned"]["time"]
        assert layer["kernel"] == min(times, key=times.get)
