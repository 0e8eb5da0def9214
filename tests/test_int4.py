"""INT4 filters: read as TFLM unpacks them, bit-exact with TFLM on the host and on the emulated cores'
reference, DSP and Helium kernels, kept two to a byte in flash and read there by the _s4 kernels (or,
on --tune's other candidates, unpacked into scratch by passes/pack_int4.py), and refused with one line
where TFLM refuses them."""
from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import bit_exact_on_board
from single_op import check
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec


def int4_model(weights: str = "int4", fc_per_channel: bool = False, pruned: bool = False) -> ModelSpec:
    """A conv, a depthwise conv and a fully-connected layer whose filters are `weights` (int4, or int8
    holding the same values), odd counts included (a half-used last byte); `pruned`: the conv alone, two
    of its channels all zero (the DSP kernels compute only the others)."""
    rng = np.random.default_rng(0)
    m = ModelSpec()
    x = m.tensor("x", [1, 9, 9, 3], "int8", scale=0.05, zp=-2)
    conv_w = rng.integers(-8, 8, (7, 3, 3, 3))
    if pruned:
        conv_w[[1, 4]] = 0
    w = m.const("w", conv_w, weights, scale=list(rng.uniform(0.02, 0.08, 7)), zp=[0] * 7)
    b = m.const("b", rng.integers(-200, 200, 7), "int32", scale=[0.0025] * 7, zp=[0] * 7)
    c = m.tensor("c", [1, 9, 9, 7], "int8", scale=0.1, zp=1)
    m.op("CONV_2D", [x, w, b], [c], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1, FusedActivationFunction="RELU")
    if pruned:
        m.inputs, m.outputs = [x], [c]
        return m
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


# the kernels that read INT4 weights packed, per core; the depthwise layer with more than one channel
# unpacks into scratch on the DSP and Helium cores (no packed variant there yet)
PACKED = {"microbit": ("mcu_conv2d_s4", "mcu_depthwise_conv2d_s4", "mcu_fully_connected_s4"),
          "mps2-an386": ("mcu_conv2d_s4_x6", "mcu_depthwise_conv2d_s4_x4", "mcu_fully_connected_s4_x4"),
          "mps3-an547": ("mcu_conv2d_s4_mve", "mcu_depthwise_conv2d_s4_mve", "mcu_fully_connected_s4_mve")}


@pytest.mark.parametrize("board", sorted(PACKED))
def test_int4_kernels_read_the_filter_packed_in_no_more_arena_than_int8(tmp_path, board):
    """Conv and fully-connected layers (and every layer of the reference core) run on the packed weights: no
    unpacking before the call, and the arena of the same model with int8 filters."""
    from mcugen.targets.boards import load_board
    from mcugen.ir.lowering import Packed
    from mcugen.codegen.pipeline import compile_model
    features = load_board(board).features
    compiled = {}
    for weights in ("int8", "int4"):
        path = tmp_path / f"{weights}.tflite"
        path.write_bytes(int4_model(weights).build())
        compiled[weights] = compile_model(path, features=features)
    g = compiled["int4"]
    calls = [op.call for op in g.ops if op.call is not None]
    # the M4 runs the conv in strips inside the depthwise layer's call: a kernel that call makes
    assert all(any(k in (c.kernel, *c.extra_kernels) for c in calls) for k in PACKED[board]), calls
    for c in calls:
        if c.kernel in PACKED[board]:
            assert not any(isinstance(a, Packed) for a in c.args), c
            assert "packed_filter" in [getattr(a, "name", "") for a in c.args], c
    if board == "microbit":
        assert g.arena.plan.size == compiled["int8"].arena.plan.size


@pytest.mark.parametrize("board,kernel", [("mps2-an386", "mcu_conv2d_s8_w16"), ("mps3-an547", "mcu_conv2d_s8_mve")])
def test_int4_tune_sees_the_unpacking_variants_too(tmp_path, board, kernel):
    """--tune's candidates for an INT4 conv: the packed kernel first, then the int8 ones on weights unpacked
    into scratch, each bit-exact on the emulated core."""
    from mcugen.targets.boards import load_board
    from mcugen.codegen.pipeline import compile_model
    from mcugen.kernels import candidates
    m = int4_model()
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    features = load_board(board).features
    g = compile_model(path, features=features)
    calls = [c.kernel for c in candidates(g, g.ops[0], features) if c is not None]
    assert calls[0] == PACKED[board][0] and kernel in calls, calls
    bit_exact_on_board(tmp_path / "forced", int4_model(), 2, samples=2, kernel=kernel, force=True, board=board)


def pointwise_model() -> ModelSpec:
    """A 1x1 conv with an INT4 filter (Helium runs it as a FULLY_CONNECTED over the positions)."""
    rng = np.random.default_rng(1)
    m = ModelSpec()
    x = m.tensor("x", [1, 5, 5, 20], "int8", scale=0.05, zp=3)
    w = m.const("w", rng.integers(-8, 8, (9, 1, 1, 20)), "int4", scale=list(rng.uniform(0.02, 0.08, 9)), zp=[0] * 9)
    y = m.tensor("y", [1, 5, 5, 9], "int8", scale=0.1, zp=-1)
    m.op("CONV_2D", [x, w], [y], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1)
    m.inputs, m.outputs = [x], [y]
    return m


@pytest.mark.parametrize("board,kernel", [("mps3-an547", "mcu_fully_connected_s4_mve"),
                                          ("mps2-an386", "mcu_conv2d_s4_x6")])
def test_int4_pointwise_conv(tmp_path, board, kernel):
    bit_exact_on_board(tmp_path, pointwise_model(), 4, samples=2, kernel=kernel, board=board)


def pointwise_depthwise_model() -> ModelSpec:
    """A 1x1 conv whose large output only a depthwise layer reads (MobileNet's blocks), both INT4: the M4 runs
    the conv in strips into the depthwise layer (mcu_conv2d_depthwise_s4_x4)."""
    rng = np.random.default_rng(2)
    m = ModelSpec()
    x = m.tensor("x", [1, 16, 16, 8], "int8", scale=0.05, zp=-5)
    w = m.const("w", rng.integers(-8, 8, (30, 1, 1, 8)), "int4", scale=list(rng.uniform(0.02, 0.08, 30)), zp=[0] * 30)
    c = m.tensor("c", [1, 16, 16, 30], "int8", scale=0.1, zp=2)
    m.op("CONV_2D", [x, w], [c], "Conv2DOptions", Padding=1, StrideW=1, StrideH=1, FusedActivationFunction="RELU6")
    dw = m.const("dw", rng.integers(-8, 8, (1, 3, 3, 30)), "int4", scale=[0.06] * 30, zp=[0] * 30, axis=3)
    d = m.tensor("d", [1, 8, 8, 30], "int8", scale=0.1, zp=-3)
    m.op("DEPTHWISE_CONV_2D", [c, dw], [d], "DepthwiseConv2DOptions", Padding=0, StrideW=2, StrideH=2,
         DepthMultiplier=1)
    m.inputs, m.outputs = [x], [d]
    return m


def test_int4_conv_in_strips_into_a_depthwise_layer(tmp_path):
    from mcugen.targets.boards import load_board
    from mcugen.codegen.pipeline import compile_model
    path = tmp_path / "m.tflite"
    path.write_bytes(pointwise_depthwise_model().build())
    g = compile_model(path, features=load_board("mps2-an386").features)
    assert [op.call.kernel for op in g.ops if op.call is not None] == ["mcu_conv2d_depthwise_s4_x4"]
    bit_exact_on_board(tmp_path / "board", pointwise_depthwise_model(), 5, samples=2)


def random_int4_model(seed: int) -> ModelSpec:
    """A conv, a depthwise conv and a fully-connected layer with INT4 filters of random geometry: kernel
    sizes, strides, dilations, SAME or VALID padding, channel counts and depths that are no multiples of
    the kernels' blocks (4, 8, 32), input zero points across the range."""
    rng = np.random.default_rng(seed)

    def out_size(size: int, k: int, stride: int, dilation: int, same: bool) -> int:
        return -(-size // stride) if same else -(-(size - (k - 1) * dilation) // stride)

    m = ModelSpec()
    h, w, cin = int(rng.integers(6, 12)), int(rng.integers(6, 12)), int(rng.integers(1, 20))
    x = m.tensor("x", [1, h, w, cin], "int8", scale=0.05, zp=int(rng.integers(-128, 128)))
    cout, k, stride, dil, same = (int(rng.integers(1, 14)), int(rng.integers(1, 4)), int(rng.integers(1, 3)),
                                  int(rng.integers(1, 3)), bool(rng.integers(2)))
    h, w = out_size(h, k, stride, dil, same), out_size(w, k, stride, dil, same)
    cw = m.const("cw", rng.integers(-8, 8, (cout, k, k, cin)), "int4", scale=list(rng.uniform(0.01, 0.05, cout)),
                 zp=[0] * cout)
    cb = m.const("cb", rng.integers(-500, 500, cout), "int32", scale=[0.001] * cout, zp=[0] * cout)
    c = m.tensor("c", [1, h, w, cout], "int8", scale=0.08, zp=int(rng.integers(-20, 20)))
    m.op("CONV_2D", [x, cw, cb], [c], "Conv2DOptions", Padding=0 if same else 1, StrideW=stride, StrideH=stride,
         DilationWFactor=dil, DilationHFactor=dil, FusedActivationFunction="RELU")
    k, stride, same = int(rng.integers(2, 4)), int(rng.integers(1, 3)), bool(rng.integers(2))
    h, w = out_size(h, k, stride, 1, same), out_size(w, k, stride, 1, same)
    dw = m.const("dw", rng.integers(-8, 8, (1, k, k, cout)), "int4", scale=list(rng.uniform(0.02, 0.08, cout)),
                 zp=[0] * cout, axis=3)
    d = m.tensor("d", [1, h, w, cout], "int8", scale=0.1, zp=int(rng.integers(-20, 20)))
    m.op("DEPTHWISE_CONV_2D", [c, dw], [d], "DepthwiseConv2DOptions", Padding=0 if same else 1, StrideW=stride,
         StrideH=stride, DepthMultiplier=1)
    depth, units = h * w * cout, int(rng.integers(1, 10))
    r = m.tensor("r", [1, depth], "int8", scale=0.1, zp=int(rng.integers(-20, 20)))
    m.op("RESHAPE", [d, m.const("shape", np.array([1, depth], np.int32), "int32")], [r], "ReshapeOptions",
         NewShape=[1, depth])
    fw = m.const("fw", rng.integers(-8, 8, (units, depth)), "int4", scale=[0.02], zp=[0])
    f = m.tensor("f", [1, units], "int8", scale=0.3, zp=int(rng.integers(-20, 20)))
    m.op("FULLY_CONNECTED", [r, fw], [f], "FullyConnectedOptions")
    m.inputs, m.outputs = [x], [f]
    return m


@pytest.mark.parametrize("seed", range(3))
def test_random_int4_geometries_equal_tflm_on_the_host(tmp_path, seed):
    check(tmp_path, random_int4_model(seed), seed, oracles=("tflm",))


@pytest.mark.parametrize("board", sorted(PACKED))
def test_random_int4_geometries_on_the_emulated_cores(tmp_path, board):
    for seed in range(3):
        bit_exact_on_board(tmp_path / str(seed), random_int4_model(seed), seed, samples=2, board=board)


def test_int4_pruned_channels_on_the_m4(tmp_path):
    """A conv with all-zero channels: the DSP kernel computes the live ones from packed weights."""
    bit_exact_on_board(tmp_path, int4_model(pruned=True), 3, samples=2, kernel="mcu_conv2d_live_s4_x6", force=True)


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


def conv_int4_model(k: int, stride: int, cin: int, cout: int, batch: int, size: int, seed: int,
                    act: str | None = None) -> ModelSpec:
    """An INT4 conv, weights drawn over all of [-8, 7], SAME padding. Without `act`, no fused activation and the
    output zero point -128: it clamps nothing SSAT does not (the pairs run in their assembly loop,
    mcu_conv_pairs_s4); with it, that activation and a drawn output zero point (RELU6 clamps inside int8)."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [batch, size, size, cin], "int8", scale=0.05, zp=int(rng.integers(-20, 20)))
    w = m.const("w", rng.integers(-8, 8, (cout, k, k, cin)), "int4", scale=list(rng.uniform(0.01, 0.05, cout)),
                zp=[0] * cout)
    b = m.const("b", rng.integers(-3000, 3000, cout), "int32", scale=[0.001] * cout, zp=[0] * cout)
    y = m.tensor("y", [batch, -(-size // stride), -(-size // stride), cout], "int8",
                 scale=0.15 if act is None else 0.05, zp=-128 if act is None else int(rng.integers(-100, 0)))
    m.op("CONV_2D", [x, w, b], [y], "Conv2DOptions", Padding=0, StrideW=stride, StrideH=stride,
         FusedActivationFunction=act or "NONE")
    m.inputs, m.outputs = [x], [y]
    return m


@pytest.mark.parametrize("board", ["mps2-an386", "mps2-an505"])  # the M4's and the M33's blocks
@pytest.mark.parametrize("k, stride, cin, cout, batch, size", [
    (3, 1, 16, 6, 1, 7),  # 3x3 windows, three channel pairs
    (1, 1, 16, 7, 2, 6),  # pointwise, its pixels widened in the loop; an odd last channel; two images
    (3, 1, 3, 10, 1, 10),  # a first layer's 3x3 windows over 3 channels, widened in the loop
    (3, 2, 8, 5, 1, 9),  # stride 2, a pair and an odd one
])
def test_int4_channel_pairs_in_the_assembly_loop(tmp_path, board, k, stride, cin, cout, batch, size):
    bit_exact_on_board(tmp_path, conv_int4_model(k, stride, cin, cout, batch, size, cout), cout, samples=2,
                       kernel="mcu_conv2d_s4_x6", board=board)


@pytest.mark.parametrize("board", ["mps2-an386", "mps2-an505", "mps2-an500"])  # the M4, the M33, the M7
@pytest.mark.parametrize("k, stride, cin, cout, batch, size, act", [
    (3, 1, 16, 8, 1, 7, "NONE"),  # 3x3 windows, two quads, 49 positions: a block of one, paired with itself
    (1, 1, 32, 12, 2, 5, "RELU6"),  # pointwise over two images, three quads, an activation that clamps
    (3, 1, 3, 16, 1, 10, "RELU"),  # a first layer's 3x3 windows over 3 channels (K = 27)
    (3, 2, 40, 4, 1, 9, "NONE"),  # stride 2, one quad, K8 = 360: the loop entered part-way
])
def test_int4_channel_quads(tmp_path, board, k, stride, cin, cout, batch, size, act):
    bit_exact_on_board(tmp_path, conv_int4_model(k, stride, cin, cout, batch, size, cout, act), cout, samples=2,
                       kernel="mcu_conv2d_s4_quads", board=board)


def test_int4_quads_only_where_their_sums_stay_apart(tmp_path):
    """A quad whose fourth channel's weights are all -8 over K8 = 1152 (4096 * its sum of products may pass
    int32) takes the channel pairs' kernel, and stays bit-exact on the M4."""
    m = conv_int4_model(3, 1, 128, 4, 1, 4, 1, "NONE")
    next(t for t in m.tensors if t["name"] == "w")["data"][3] = -8
    bit_exact_on_board(tmp_path, m, 1, samples=2, kernel="mcu_conv2d_s4_x6")


def test_int4_resnet8_in_quads_on_the_m4(tmp_path, models, capsys):
    """ResNet-8 with every filter INT4: its blocks' chained convs, the projection shortcut and the 64-channel
    layers on the quads, bit-exact on the emulated M4 (the golden model checked against TFLM on the first
    sample)."""
    from mcugen.codegen.pipeline import compile_model
    from mcugen.targets.boards import load_board
    from model_edit import with_int4_filters
    path = with_int4_filters(models / "mlperf_ic_resnet8.tflite", tmp_path / "resnet8_int4.tflite")
    g = compile_model(path, features=load_board("mps2-an386").features)
    kernels = [k for op in g.ops if op.call for k in (op.call.kernel, *op.call.extra_kernels)]
    assert "mcu_conv2d_s4_quads" in kernels and "mcu_conv2d_s4_x6" not in kernels, kernels
    code, out, _ = run_cli(capsys, "test", path, "--board", "mps2-an386", "--samples", 2, "--out", tmp_path / "fw")
    assert code == 0 and "bit-exact on 2 sample(s)" in out, out


def test_int4_quads_in_place(tmp_path):
    """A pointwise INT4 conv of 32 -> 28 channels whose input dies at it (a QUANTIZE wrote it) writes its output over
    its input on the quads, bit-exact on the M4: a block's patches are widened before its outputs are stored."""
    from mcugen.codegen.pipeline import compile_model
    from mcugen.targets.boards import load_board
    rng = np.random.default_rng(3)
    m = ModelSpec()
    x = m.tensor("x", [2, 5, 7, 32], "int8", scale=0.05, zp=-3)
    mid = m.tensor("mid", [2, 5, 7, 32], "int8", scale=0.06, zp=4)
    m.op("QUANTIZE", [x], [mid])
    w = m.const("w", rng.integers(-8, 8, (28, 1, 1, 32)), "int4", scale=list(rng.uniform(0.01, 0.05, 28)),
                zp=[0] * 28)
    b = m.const("b", rng.integers(-3000, 3000, 28), "int32", scale=[0.001] * 28, zp=[0] * 28)
    y = m.tensor("y", [2, 5, 7, 28], "int8", scale=0.1, zp=-20)
    m.op("CONV_2D", [mid, w, b], [y], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1, FusedActivationFunction="RELU")
    m.inputs, m.outputs = [x], [y]
    bit_exact_on_board(tmp_path / "m4", m, 3, samples=2)
    path = tmp_path / "m4" / "op.tflite"
    g = compile_model(path, features=load_board("mps2-an386").features)
    conv = g.ops[1]
    assert conv.call.kernel == "mcu_conv2d_s4_quads"
    assert g.arena.buffer_of[conv.inputs[0]] == g.arena.buffer_of[conv.outputs[0]]
