"""float32 layers (ops/float_*.py, runtime_c mcu_*_f32.c): bit-exact with TFLM's float reference
kernels on the host, every layer of a real float model, and on the emulated cores with and without an
FPU; float islands inside integer models; e^x as glibc's expf computes it."""
from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pytest

from conftest import MODELS, bit_exact_on_board
from mcugen.validation.compare import compare_with_tflm, random_inputs
from mcugen.ops._float import expf, expm1f, logf, tanhf
from mcugen.codegen.pipeline import compile_model
from single_op import check, check_steps
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec

ACTIVATIONS = ["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]
# what a float layer must get right besides ordinary values (IEEE's specials, and where TFLM's
# comparisons send them)
SPECIAL = np.float32([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -1e-40, 3.4e38, -3.4e38, 88.8, -104.0, 16.7, -9.5,
                      -3.0, 6.0])


def _const(m: ModelSpec, name: str, rng: np.random.Generator, shape) -> int:
    return m.const(name, rng.standard_normal(shape).astype(np.float32), "float32")


def _with_specials(xs, rng):
    """xs with a few of SPECIAL scattered into the first input."""
    x = xs[0].copy().reshape(-1)
    x[rng.choice(x.size, min(x.size, len(SPECIAL)), replace=False)] = SPECIAL[:min(x.size, len(SPECIAL))]
    return [x.reshape(xs[0].shape), *xs[1:]]


@pytest.mark.parametrize("seed", range(8))
def test_conv2d_and_depthwise_random_geometry(tmp_path, seed):
    rng = np.random.default_rng(seed)
    h, w, groups = int(rng.integers(3, 9)), int(rng.integers(3, 9)), int(rng.choice([1, 1, 2]))
    depth = int(rng.integers(1, 4))
    cin, cout = depth * groups, groups * int(rng.integers(1, 4))
    kh, kw, s, d = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 3)), int(rng.integers(1, 3))
    pad = int(rng.integers(0, 2))  # SAME, VALID
    act = ACTIVATIONS[seed % 4]

    if pad == 1 and (h - (kh - 1) * d < 1 or w - (kw - 1) * d < 1):
        pad = 0  # VALID leaves no output
    oh = (h + s - 1) // s if pad == 0 else (h - (kh - 1) * d - 1) // s + 1
    ow = (w + s - 1) // s if pad == 0 else (w - (kw - 1) * d - 1) // s + 1
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, cin], "float32")
    c = m.tensor("c", [1, oh, ow, cout], "float32")
    m.op("CONV_2D", [x, _const(m, "w", rng, (cout, kh, kw, depth)), _const(m, "b", rng, (cout,))], [c], "Conv2DOptions",
         Padding=pad, StrideW=s, StrideH=s, DilationWFactor=d, DilationHFactor=d, FusedActivationFunction=act)
    mult = int(rng.integers(1, 3))
    y = m.tensor("y", [1, oh, ow, cout * mult], "float32")
    m.op("DEPTHWISE_CONV_2D", [c, _const(m, "dw", rng, (1, 3, 3, cout * mult)), _const(m, "db", rng, (cout * mult,))],
         [y], "DepthwiseConv2DOptions", Padding=0, StrideW=1, StrideH=1, DepthMultiplier=mult,
         FusedActivationFunction=ACTIVATIONS[(seed + 1) % 4])
    m.inputs, m.outputs = [x], [y]
    check(tmp_path, m, seed, oracles=("tflm",))


@pytest.mark.parametrize("seed", range(4))
def test_fully_connected_pools_softmax(tmp_path, seed):
    rng = np.random.default_rng(100 + seed)
    h, w, c = int(rng.integers(2, 9)), int(rng.integers(2, 9)), int(rng.integers(1, 6))
    k, s = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, c], "float32")
    oh, ow = (h + s - 1) // s, (w + s - 1) // s
    mx = m.tensor("mx", [1, oh, ow, c], "float32")
    m.op("MAX_POOL_2D", [x], [mx], "Pool2DOptions", Padding=0, StrideW=s, StrideH=s, FilterWidth=k, FilterHeight=k,
         FusedActivationFunction=ACTIVATIONS[seed])
    av = m.tensor("av", [1, (oh + s - 1) // s, (ow + s - 1) // s, c], "float32")
    m.op("AVERAGE_POOL_2D", [mx], [av], "Pool2DOptions", Padding=0, StrideW=s, StrideH=s, FilterWidth=k,
         FilterHeight=k)
    units = int(rng.integers(1, 12))
    fc = m.tensor("fc", [1, units], "float32")
    depth = (oh + s - 1) // s * ((ow + s - 1) // s) * c
    m.op("FULLY_CONNECTED", [av, _const(m, "fw", rng, (units, depth)), _const(m, "fb", rng, (units,))], [fc],
         "FullyConnectedOptions", FusedActivationFunction=ACTIVATIONS[(seed + 2) % 4])
    y = m.tensor("y", [1, units], "float32")
    m.op("SOFTMAX", [fc], [y], "SoftmaxOptions", Beta=float(rng.uniform(0.1, 3)))
    m.inputs, m.outputs = [x], [y]
    check(tmp_path, m, seed, oracles=("tflm", "litert"))


BINARY = ["ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE", "PRELU"]
OPTIONS = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions", "DIV": "DivOptions"}


@pytest.mark.parametrize("opcode", BINARY)
def test_binary_ops_broadcast_and_ieee_specials(tmp_path, opcode):
    rng = np.random.default_rng(BINARY.index(opcode))
    m = ModelSpec()
    a = m.tensor("a", [2, 3, 4], "float32")
    b = m.tensor("b", [3, 1], "float32")
    y = m.tensor("y", [2, 3, 4], "float32")
    fields = dict(FusedActivationFunction="RELU6") if opcode in OPTIONS else {}
    m.op(opcode, [a, b], [y], OPTIONS.get(opcode), **fields)
    m.inputs, m.outputs = [a, b], [y]
    xs = [rng.standard_normal((2, 3, 4)).astype(np.float32), rng.standard_normal((3, 1)).astype(np.float32)]
    check(tmp_path / "plain", m, 0, oracles=("tflm",), xs=_with_specials(xs, rng))
    xs[1] = np.float32([[0.0], [np.nan], [-np.inf]])  # division by zero, NaN second: where TFLM's ternaries send it
    check(tmp_path / "special", m, 0, oracles=("tflm",), xs=xs)


UNARY = ["RELU", "RELU6", "ABS", "NEG", "SQUARE", "SQRT", "RSQRT", "EXP", "LOG", "LOGISTIC", "ELU", "TANH",
         "HARD_SWISH", "LEAKY_RELU"]


@pytest.mark.parametrize("opcode", UNARY)
def test_unary_ops_ieee_specials(tmp_path, opcode):
    rng = np.random.default_rng(UNARY.index(opcode))
    m = ModelSpec()
    x = m.tensor("x", [4, 64], "float32")
    y = m.tensor("y", [4, 64], "float32")
    options = dict(options="LeakyReluOptions", Alpha=-0.3) if opcode == "LEAKY_RELU" else {}
    m.op(opcode, [x], [y], **options)
    m.inputs, m.outputs = [x], [y]
    xs = [(rng.standard_normal((4, 64)) * 10 ** rng.uniform(-2, 2, (4, 64))).astype(np.float32)]
    for name, values in (("wide", xs), ("special", _with_specials(xs, rng))):
        check(tmp_path / name, m, 0, oracles=("tflm",), xs=values)


@pytest.mark.parametrize("name,ours,span", [("expf", expf, 105), ("expm1f", expm1f, 90), ("tanhf", tanhf, 12),
                                            ("logf", logf, 1e4)])
def test_transcendentals_equal_the_hosts_glibc_on_half_a_million_floats(name, ours, span):
    """The golden model's (and mcu_expf's, mcu_expm1f's, mcu_tanhf's) functions are the oracle's:
    glibc's, bit for bit (TFLM's float SOFTMAX, LOGISTIC and EXP call expf, ELU expm1f, TANH tanhf, LOG logf).
    Every 7th float of all 2^32 was measured equal once, with the C functions."""
    function = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name)
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.integers(0, 2 ** 32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32),
                        rng.uniform(-span, span, 300_000).astype(np.float32), SPECIAL])
    theirs = np.array([function(float(v)) for v in x], np.float32)
    got = ours(x)
    same = (got.view(np.uint32) == theirs.view(np.uint32)) | (np.isnan(got) & np.isnan(theirs))
    assert same.all(), x[~same][:5]


def float_cnn() -> ModelSpec:
    """Every float kernel once: a conv, a depthwise conv, both pools, binary and unary ops, a
    fully-connected layer and softmax."""
    rng = np.random.default_rng(42)
    m = ModelSpec()
    x = m.tensor("x", [1, 10, 10, 3], "float32")
    c = m.tensor("c", [1, 10, 10, 8], "float32")
    m.op("CONV_2D", [x, _const(m, "w", rng, (8, 3, 3, 3)), _const(m, "b", rng, (8,))], [c], "Conv2DOptions",
         Padding=0, StrideW=1, StrideH=1, FusedActivationFunction="RELU")
    d = m.tensor("d", [1, 5, 5, 8], "float32")
    m.op("DEPTHWISE_CONV_2D", [c, _const(m, "dw", rng, (1, 3, 3, 8)), _const(m, "db", rng, (8,))], [d],
         "DepthwiseConv2DOptions", Padding=0, StrideW=2, StrideH=2, DepthMultiplier=1)
    e = m.tensor("e", [1, 5, 5, 8], "float32")
    m.op("HARD_SWISH", [d], [e])
    s = m.tensor("s", [1, 5, 5, 8], "float32")
    m.op("MUL", [e, _const(m, "scale", rng, (8,))], [s], "MulOptions")
    r = m.tensor("r", [1, 5, 5, 8], "float32")
    m.op("ADD", [s, d], [r], "AddOptions", FusedActivationFunction="RELU6")
    p = m.tensor("p", [1, 3, 3, 8], "float32")
    m.op("MAX_POOL_2D", [r], [p], "Pool2DOptions", Padding=0, StrideW=2, StrideH=2, FilterWidth=2, FilterHeight=2)
    a = m.tensor("a", [1, 1, 1, 8], "float32")
    m.op("AVERAGE_POOL_2D", [p], [a], "Pool2DOptions", Padding=1, StrideW=3, StrideH=3, FilterWidth=3,
         FilterHeight=3)
    f = m.tensor("f", [1, 6], "float32")
    m.op("FULLY_CONNECTED", [a, _const(m, "fw", rng, (6, 8)), _const(m, "fb", rng, (6,))], [f],
         "FullyConnectedOptions")
    l = m.tensor("l", [1, 6], "float32")
    m.op("LOGISTIC", [f], [l])
    y = m.tensor("y", [1, 6], "float32")
    m.op("SOFTMAX", [l], [y], "SoftmaxOptions", Beta=2.0)
    m.inputs, m.outputs = [x], [y]
    return m


def test_a_float_cnn_on_the_host(tmp_path):
    check(tmp_path, float_cnn(), 3, oracles=("tflm",))


# hard float on every core with an FPU (M4F, M7, M33, M55), soft float without (M0, M3)
@pytest.mark.parametrize("board", ["mps2-an386", "mps2-an500", "mps2-an505", "mps3-an547", "microbit", "lm3s6965evb"])
def test_a_float_cnn_on_every_emulated_core(tmp_path, board):
    bit_exact_on_board(tmp_path, float_cnn(), 11, samples=2, board=board)


def test_the_float_mlperf_resnet8_every_layer_equals_tflm_and_runs_on_the_m4f(tmp_path, capsys):
    path = MODELS / "mlperf_ic_resnet8_float.tflite"
    g = compile_model(path)
    assert {g.tensors[t].dtype for op in g.ops for t in op.outputs} == {"float32"}
    assert compare_with_tflm(g, path, random_inputs(g, 2, seed=1)) is None
    code, out, _ = run_cli(capsys, "test", path, "--board", "mps2-an386", "--samples", "2", "--out", tmp_path / "fw")
    assert code == 0 and "bit-exact on 2 sample(s) on mps2-an386" in out


def island_model() -> ModelSpec:
    """An int8 model with a float island, as converters leave an op without an integer kernel:
    DEQUANTIZE -> ELU -> QUANTIZE, then an int8 FULLY_CONNECTED."""
    rng = np.random.default_rng(5)
    m = ModelSpec()
    x = m.tensor("x", [1, 16], "int8", scale=0.05, zp=3)
    f = m.tensor("f", [1, 16], "float32")
    m.op("DEQUANTIZE", [x], [f])
    e = m.tensor("e", [1, 16], "float32")
    m.op("ELU", [f], [e])
    q = m.tensor("q", [1, 16], "int8", scale=0.03, zp=-20)
    m.op("QUANTIZE", [e], [q])
    w = m.const("w", rng.integers(-127, 128, (4, 16)), "int8", scale=[0.02], zp=[0])
    b = m.const("b", rng.integers(-500, 500, 4), "int32", scale=[0.03 * 0.02], zp=[0])
    y = m.tensor("y", [1, 4], "int8", scale=0.1, zp=0)
    m.op("FULLY_CONNECTED", [q, w, b], [y], "FullyConnectedOptions")
    m.inputs, m.outputs = [x], [y]
    return m


def test_a_float_island_in_an_int8_model(tmp_path, capsys):
    check(tmp_path, island_model(), 2, oracles=("tflm",))
    bit_exact_on_board(tmp_path / "m4", island_model(), 4, samples=3)
    (tmp_path / "island.tflite").write_bytes(island_model().build())
    code, out, _ = run_cli(capsys, "inspect", tmp_path / "island.tflite")
    assert code == 0 and "ELU" in out and "float32" in out


def test_space_depth_and_resize_in_float(tmp_path):
    m = ModelSpec()
    x, s = m.tensor("x", [1, 4, 6, 2], "float32"), m.tensor("s", [1, 2, 3, 8], "float32")
    m.op("SPACE_TO_DEPTH", [x], [s], "SpaceToDepthOptions", BlockSize=2)
    d = m.tensor("d", [1, 4, 6, 2], "float32")
    m.op("DEPTH_TO_SPACE", [s], [d], "DepthToSpaceOptions", BlockSize=2)
    y = m.tensor("y", [1, 7, 9, 2], "float32")
    m.op("RESIZE_NEAREST_NEIGHBOR", [d, m.const("size", [7, 9], "int32")], [y], "ResizeNearestNeighborOptions")
    m.inputs, m.outputs = [x], [y]
    check(tmp_path, m, 4, oracles=("tflm",))


def test_a_float_layer_without_a_float_kernel_is_one_line(capsys, tmp_path):
    """Every op mcugen runs in integers has its float kernel; a float -> float QUANTIZE is none (TFLM
    refuses it too)."""
    m = ModelSpec()
    x, y = m.tensor("x", [1, 4], "float32"), m.tensor("y", [1, 4], "float32")
    m.op("QUANTIZE", [x], [y])
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "quantize.tflite"
    path.write_bytes(m.build())
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
    assert_one_error_line(code, err, "no float32 QUANTIZE kernel", "float32 kernels: ABS, ADD")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("act", ["NONE", "RELU", "RELU6", "TANH", "RELU_N1_TO_1"])
def test_svdf_over_several_invocations(tmp_path, act):
    rng = np.random.default_rng(len(act))
    m = ModelSpec()
    batch, size, rank, units, memory = 2, 5, 2, 3, 4
    x, y = m.tensor("x", [batch, size], "float32"), m.tensor("y", [batch, units], "float32")
    m.op("SVDF", [x, _const(m, "wf", rng, (units * rank, size)), _const(m, "wt", rng, (units * rank, memory)),
                  _const(m, "b", rng, (units,)),
                  m.tensor("state", [batch, units * rank * memory], "float32", variable=True)], [y], "SVDFOptions",
         Rank=rank, FusedActivationFunction=act)
    m.inputs, m.outputs = [x], [y]
    check_steps(tmp_path, m, 3, steps=5)
    if act == "TANH":
        bit_exact_on_board(tmp_path / "m0", m, 1, samples=3, board="microbit")


@pytest.mark.parametrize("adj_x, adj_y", [(False, False), (True, False), (False, True), (True, True)])
def test_batch_matmul_arg_max_and_variables(tmp_path, adj_x, adj_y):
    """A float BATCH_MATMUL (broadcast batches, either operand computed or constant, read transposed),
    ARG_MAX and ARG_MIN over float values with NaNs, and a float resource variable read and written."""
    rng = np.random.default_rng(int(adj_x) * 2 + int(adj_y))
    m = ModelSpec()
    lhs_shape = [2, 1, 5, 3] if adj_x else [2, 1, 3, 5]
    x = m.tensor("x", lhs_shape, "float32")
    k = _const(m, "k", rng, [4, 6, 5] if adj_y else [4, 5, 6])
    y = m.tensor("y", [2, 4, 3, 6], "float32")
    m.op("BATCH_MATMUL", [x, k], [y], "BatchMatMulOptions", AdjX=adj_x, AdjY=adj_y)
    yy = m.tensor("yy", [2, 4, 3, 3], "float32")
    m.op("BATCH_MATMUL", [y, y], [yy], "BatchMatMulOptions", AdjY=True)
    best, worst = m.tensor("best", [2, 4, 3], "int32"), m.tensor("worst", [2, 4, 3], "int32")
    m.op("ARG_MAX", [yy, m.const("axis", [3], "int32")], [best], "ArgMaxOptions")
    m.op("ARG_MIN", [yy, m.const("axis2", [3], "int32")], [worst], "ArgMinOptions")
    m.inputs, m.outputs = [x], [yy, best, worst]
    xs = [rng.standard_normal(lhs_shape).astype(np.float32)]
    xs[0].reshape(-1)[[1, 7, 20]] = np.nan
    check(tmp_path, m, 0, oracles=("tflm",), xs=xs)
    bit_exact_on_board(tmp_path / "m0", m, 1, board="microbit")


def transpose_conv(m: ModelSpec, rng, x: int, shape, cout: int, k: int, stride: int, padding: str, bias: bool,
                   act: str) -> int:
    """A float TRANSPOSE_CONV from x ([N, H, W, C]) on `m`, its output tensor."""
    n, h, w, cin = shape
    if padding == "SAME":
        oh, ow = h * stride, w * stride
    else:
        oh, ow = (h - 1) * stride + k, (w - 1) * stride + k
    y = m.tensor(f"t{x}", [n, oh, ow, cout], "float32")
    inputs = [m.const(f"shape{x}", [n, oh, ow, cout], "int32"), _const(m, f"w{x}", rng, (cout, k, k, cin)), x]
    m.op("TRANSPOSE_CONV", inputs + ([_const(m, f"b{x}", rng, (cout,))] if bias else []), [y],
         "TransposeConvOptions", version=3, Padding=padding, StrideH=stride, StrideW=stride,
         FusedActivationFunction=act)
    return y


@pytest.mark.parametrize("seed", range(6))
def test_transpose_conv_random_geometry(tmp_path, seed):
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 3)), int(rng.integers(1, 6)), int(rng.integers(1, 6)), int(rng.integers(1, 5)))
    m = ModelSpec()
    x = m.tensor("x", list(shape), "float32")
    y = transpose_conv(m, rng, x, shape, int(rng.integers(1, 5)), int(rng.integers(1, 4)), int(rng.integers(1, 4)),
                       ["SAME", "VALID"][seed % 2], seed % 3 != 0, ACTIVATIONS[seed % 4])
    m.inputs, m.outputs = [x], [y]
    xs = [rng.standard_normal(shape).astype(np.float32)]
    check(tmp_path, m, seed, oracles=("tflm",), xs=_with_specials(xs, rng) if seed == 5 else xs)


@pytest.mark.parametrize("flags", [{}, {"AlignCorners": True}, {"HalfPixelCenters": True}])
def test_resize_bilinear(tmp_path, flags):
    m = ModelSpec()
    x = m.tensor("x", [2, 3, 5, 2], "float32")
    up, down = m.tensor("up", [2, 7, 11, 2], "float32"), m.tensor("down", [2, 2, 3, 2], "float32")
    m.op("RESIZE_BILINEAR", [x, m.const("size", [7, 11], "int32")], [up], "ResizeBilinearOptions", **flags)
    m.op("RESIZE_BILINEAR", [up, m.const("size2", [2, 3], "int32")], [down], "ResizeBilinearOptions", **flags)
    m.inputs, m.outputs = [x], [up, down]
    rng = np.random.default_rng(len(flags))
    check(tmp_path, m, 0, oracles=("tflm",), xs=_with_specials([rng.standard_normal((2, 3, 5, 2)).astype(np.float32)],
                                                               rng))


def float_decoder() -> ModelSpec:
    """TRANSPOSE_CONV, RESIZE_BILINEAR and the pair around a dilated conv (their crops and no padding,
    where TFLM's fill is defined), in float."""
    rng = np.random.default_rng(7)
    m = ModelSpec()
    x = m.tensor("x", [1, 3, 3, 4], "float32")
    t = transpose_conv(m, rng, x, (1, 3, 3, 4), 3, 3, 2, "SAME", True, "RELU")
    r = m.tensor("r", [1, 8, 8, 3], "float32")
    m.op("RESIZE_BILINEAR", [t, m.const("size", [8, 8], "int32")], [r], "ResizeBilinearOptions",
         HalfPixelCenters=True)
    s = m.tensor("s", [4, 4, 4, 3], "float32")
    m.op("SPACE_TO_BATCH_ND", [r, m.const("block", [2, 2], "int32"), m.const("pads", [[0, 0], [0, 0]], "int32")],
         [s], "SpaceToBatchNDOptions")
    y = m.tensor("y", [1, 7, 6, 3], "float32")
    m.op("BATCH_TO_SPACE_ND", [s, m.const("block2", [2, 2], "int32"), m.const("crops", [[1, 0], [0, 2]], "int32")],
         [y], "BatchToSpaceNDOptions")
    m.inputs, m.outputs = [x], [y]
    return m


def test_a_float_decoder_on_the_host_and_on_cores_with_and_without_an_fpu(tmp_path):
    check(tmp_path, float_decoder(), 1, oracles=("tflm", "litert"))
    for board in ("mps2-an386", "microbit"):
        bit_exact_on_board(tmp_path / board, float_decoder(), 2, board=board)


def test_padding_space_to_batch_and_tile_in_float(tmp_path):
    """Where TFLM has no answer (its SPACE_TO_BATCH_ND pads with memory it never set; it has no TILE),
    LiteRT's reference kernels: padding with 0.0, np.tile."""
    m = ModelSpec()
    x = m.tensor("x", [1, 3, 5, 2], "float32")
    s = m.tensor("s", [6, 2, 2, 2], "float32")
    m.op("SPACE_TO_BATCH_ND", [x, m.const("block", [2, 3], "int32"), m.const("pads", [[1, 0], [0, 1]], "int32")],
         [s], "SpaceToBatchNDOptions")
    y = m.tensor("y", [12, 2, 6, 2], "float32")
    m.op("TILE", [s, m.const("multiples", [2, 1, 3, 1], "int32")], [y])
    m.inputs, m.outputs = [x], [y]
    check(tmp_path, m, 3, oracles=("litert",))


def test_pad_gather_reductions_and_movement_in_float(tmp_path):
    rng = np.random.default_rng(9)
    m = ModelSpec()
    x = m.tensor("x", [1, 4, 5, 3], "float32")
    p = m.tensor("p", [1, 6, 8, 3], "float32")
    m.op("PADV2", [x, m.const("paddings", [[0, 0], [1, 1], [2, 1], [0, 0]], "int32"),
                   m.const("value", [-2.5], "float32")], [p], "PadV2Options")
    t = m.tensor("t", [1, 8, 6, 3], "float32")
    m.op("TRANSPOSE", [p, m.const("perm", [0, 2, 1, 3], "int32")], [t])
    gth = m.tensor("gth", [1, 3, 6, 3], "float32")
    m.op("GATHER", [t, m.const("indices", [7, 0, 3], "int32")], [gth], "GatherOptions", Axis=1)
    mean = m.tensor("mean", [1, 1, 1, 3], "float32")
    m.op("MEAN", [gth, m.const("axes", [1, 2], "int32")], [mean], "ReducerOptions", KeepDims=True)
    s = m.tensor("s", [1, 3], "float32")
    m.op("SUM", [gth, m.const("axes2", [2, 1], "int32")], [s], "ReducerOptions", KeepDims=False)
    r = m.tensor("r", [1, 3], "float32")
    m.op("RESHAPE", [mean, m.const("shape", [1, 3], "int32")], [r], "ReshapeOptions", NewShape=[1, 3])
    y = m.tensor("y", [1, 3], "float32")
    m.op("ADD", [r, s], [y], "AddOptions")
    mx = m.tensor("mx", [1, 3], "float32")
    m.op("REDUCE_MAX", [gth, m.const("axes3", [1, 2], "int32")], [mx], "ReducerOptions", KeepDims=False)
    mn = m.tensor("mn", [3, 3], "float32")
    m.op("REDUCE_MIN", [gth, m.const("axes4", [0, 2], "int32")], [mn], "ReducerOptions", KeepDims=False)
    c = m.tensor("c", [1, 12, 8, 3], "float32")
    m.op("CONCATENATION", [p, p], [c], "ConcatenationOptions", Axis=1)
    m.inputs, m.outputs = [x], [y, c, mx, mn]
    xs = [(rng.standard_normal((1, 4, 5, 3)) * 100).astype(np.float32)]
    xs[0][0, 1, 2, 0] = np.nan  # max and min pass a NaN over
    check(tmp_path, m, 0, oracles=("tflm",), xs=xs)
    bit_exact_on_board(tmp_path / "m0", m, 2, samples=2, board="microbit")


def float_lstm(batch: int, steps: int, size: int, units: int, time_major: bool, clip: float, seed: int,
               asymmetric: bool | None = None) -> ModelSpec:
    """A float32 UNIDIRECTIONAL_SEQUENCE_LSTM; with `asymmetric` given, its weights int8 (one scale each: a
    dynamic-range LSTM, its rows quantized asymmetrically or not)."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    major = [steps, batch] if time_major else [batch, steps]
    x = m.tensor("x", [*major, size], "float32")

    def weight(k: int) -> int:
        shape = (units, size if k < 4 else units)
        if asymmetric is None:
            return _const(m, f"w{k}", rng, shape)
        return m.const(f"w{k}", rng.integers(-127, 128, shape), "int8", scale=float(rng.uniform(0.005, 0.03)), zp=0)
    weights = [weight(k) for k in range(8)]
    biases = [_const(m, f"b{k}", rng, (units,)) for k in range(4)]
    hidden = m.tensor("hidden", [batch, units], "float32", variable=True)
    state = m.tensor("cell", [batch, units], "float32", variable=True)
    y = m.tensor("y", [*major, units], "float32")
    m.inputs, m.outputs = [x], [y]
    m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", [x, *weights, -1, -1, -1, *biases, -1, -1, hidden, state, -1, -1, -1, -1],
         [y], "UnidirectionalSequenceLSTMOptions", FusedActivationFunction="TANH", CellClip=clip,
         TimeMajor=time_major, **({} if asymmetric is None else {"AsymmetricQuantizeInputs": asymmetric}))
    return m


@pytest.mark.parametrize("seed", range(6))
def test_lstm_over_several_invocations(tmp_path, seed):
    """Both states carried over four invocations: batch or time major, with and without a cell clip."""
    rng = np.random.default_rng(seed)
    m = float_lstm(int(rng.integers(1, 3)), int(rng.integers(1, 5)), int(rng.integers(1, 9)), int(rng.integers(1, 7)),
                   seed % 2 == 1, [0.0, 0.5, 3.0][seed % 3], seed)
    check_steps(tmp_path, m, seed, steps=4)


@pytest.mark.parametrize("board", ["mps2-an386", "microbit"])
def test_lstm_on_cores_with_and_without_an_fpu(tmp_path, board):
    bit_exact_on_board(tmp_path, float_lstm(2, 3, 5, 4, False, 1.5, 3), 4, samples=3, board=board)
