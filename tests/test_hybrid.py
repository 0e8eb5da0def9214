"""Dynamic-range ("hybrid") FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D, BATCH_MATMUL, SVDF and LSTM: int8
weights, float32 activations, each input row (FC, BATCH_MATMUL, SVDF) or image (conv, depthwise) quantized on
the fly, as LiteRT's reference kernels compute it (TFLM refuses such
models; LiteRT BUILTIN_REF is the oracle): drawn geometries bit-exact with it in the golden model and the
host C, then on the M4F, the M55 and a core without an FPU (soft float, the asymmetric zero point in soft
double); a converter-made dynamic-range CNN end to end."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import bit_exact_on_board
from mcugen.ops._window import out_size
from single_op import check, check_steps
from test_cli import assert_one_error_line, run_cli
from test_float import float_lstm
from tflite_writer import ModelSpec

ACTIVATIONS = ["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]


def hybrid_fc(batch: int, depth: int, units: int, per_channel: bool, asymmetric: bool, act: str, bias: bool,
              seed: int) -> ModelSpec:
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [batch, depth], "float32")
    scales = list(rng.uniform(0.001, 0.05, units)) if per_channel else [0.02]
    w = m.const("w", rng.integers(-127, 128, (units, depth)), "int8", scale=scales, zp=[0] * len(scales), axis=0)
    b = m.const("b", rng.standard_normal(units).astype(np.float32), "float32") if bias else -1
    y = m.tensor("y", [batch, units], "float32")
    m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", FusedActivationFunction=act,
         AsymmetricQuantizeInputs=asymmetric)
    m.inputs, m.outputs = [x], [y]
    return m


def hybrid_conv(n: int, h: int, w: int, cin: int, cout: int, k: int, stride: int, padding: str, per_channel: bool,
                act: str, seed: int) -> ModelSpec:
    """LiteRT's hybrid conv requires the bias; per-channel weights make it quantize asymmetrically."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [n, h, w, cin], "float32")
    scales = list(rng.uniform(0.001, 0.05, cout)) if per_channel else [0.02]
    f = m.const("w", rng.integers(-127, 128, (cout, k, k, cin)), "int8", scale=scales, zp=[0] * len(scales), axis=0)
    b = m.const("b", rng.standard_normal(cout).astype(np.float32), "float32")
    y = m.tensor("y", [n, out_size(padding, h, k, stride), out_size(padding, w, k, stride), cout], "float32")
    m.op("CONV_2D", [x, f, b], [y], "Conv2DOptions", Padding=padding, StrideW=stride, StrideH=stride,
         FusedActivationFunction=act)
    m.inputs, m.outputs = [x], [y]
    return m


def hybrid_depthwise(n: int, h: int, w: int, cin: int, multiplier: int, k: int, stride: int, dilation: int,
                     padding: str, act: str, seed: int) -> ModelSpec:
    """Per-channel weights (LiteRT refuses one scale), dilation as the op says."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    cout = cin * multiplier
    x = m.tensor("x", [n, h, w, cin], "float32")
    f = m.const("w", rng.integers(-127, 128, (1, k, k, cout)), "int8", scale=list(rng.uniform(0.001, 0.05, cout)),
                zp=[0] * cout, axis=3)
    b = m.const("b", rng.standard_normal(cout).astype(np.float32), "float32")
    y = m.tensor("y", [n, out_size(padding, h, k, stride, dilation), out_size(padding, w, k, stride, dilation), cout],
                 "float32")
    m.op("DEPTHWISE_CONV_2D", [x, f, b], [y], "DepthwiseConv2DOptions", Padding=padding, StrideW=stride,
         StrideH=stride, DepthMultiplier=multiplier, DilationWFactor=dilation, DilationHFactor=dilation,
         FusedActivationFunction=act)
    m.inputs, m.outputs = [x], [y]
    return m


def hybrid_matmul(lhs: list[int], rhs: list[int], adj_x: bool, adj_y: bool, per_channel: bool, asymmetric: bool,
                  seed: int, peak: bool = False) -> ModelSpec:
    """A float L by a constant int8 R (scales along R's output columns where per channel); `peak`: every
    weight 127, so that the int32 dot products pass 2^24 and LiteRT's trip through float32 rounds them."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    cols = rhs[-2] if adj_y else rhs[-1]
    x = m.tensor("x", lhs, "float32")
    values = np.full(rhs, 127) if peak else rng.integers(-127, 128, rhs)
    scales = list(rng.uniform(0.001, 0.05, cols)) if per_channel else [0.02]
    w = m.const("w", values, "int8", scale=scales, zp=[0] * len(scales), axis=len(rhs) - (2 if adj_y else 1))
    rows = lhs[-1] if adj_x else lhs[-2]
    batches = np.broadcast_shapes(tuple(lhs[:-2]), tuple(rhs[:-2]))
    y = m.tensor("y", [*batches, rows, cols], "float32")
    m.op("BATCH_MATMUL", [x, w], [y], "BatchMatMulOptions", AdjX=adj_x, AdjY=adj_y,
         AsymmetricQuantizeInputs=asymmetric)
    m.inputs, m.outputs = [x], [y]
    return m


def _drawn_matmul(seed: int) -> dict:
    rng = np.random.default_rng(300 + seed)
    rows, depth, cols = (int(v) for v in rng.integers(1, 12, 3))
    adj_x, adj_y = bool(seed % 2), bool(seed // 2 % 2)
    lead = [[], [2], [1, 3], [2, 3]][seed % 4]
    rhs_lead = [[], [1], [3], [2, 1]][seed // 4 % 4][:len(lead)] if lead else []
    lhs = [*lead, *((depth, rows) if adj_x else (rows, depth))]
    rhs = [*rhs_lead, *((cols, depth) if adj_y else (depth, cols))]
    if rhs_lead and any(a != b and 1 not in (a, b) for a, b in zip(lead[-len(rhs_lead):], rhs_lead)):
        rhs = rhs[len(rhs_lead):]
    return dict(lhs=lhs, rhs=rhs, adj_x=adj_x, adj_y=adj_y, per_channel=bool(seed // 3 % 2),
                asymmetric=bool(seed // 5 % 2), seed=seed)


def hybrid_svdf(batch: int, size: int, units: int, rank: int, memory: int, asymmetric: bool, act: str,
                seed: int) -> ModelSpec:
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x, y = m.tensor("x", [batch, size], "float32"), m.tensor("y", [batch, units], "float32")
    wf = m.const("wf", rng.integers(-127, 128, (units * rank, size)), "int8", scale=[0.02], zp=[0])
    wt = m.const("wt", rng.integers(-127, 128, (units * rank, memory)), "int8", scale=[0.03], zp=[0])
    b = m.const("b", rng.standard_normal(units).astype(np.float32), "float32")
    state = m.tensor("state", [batch, units * rank * memory], "float32", variable=True)
    m.op("SVDF", [x, wf, wt, b, state], [y], "SVDFOptions", Rank=rank, FusedActivationFunction=act,
         AsymmetricQuantizeInputs=asymmetric)
    m.inputs, m.outputs = [x], [y]
    return m


def _drawn_lstm(seed: int) -> dict:
    rng = np.random.default_rng(500 + seed)
    return dict(batch=int(rng.integers(1, 4)), steps=int(rng.integers(1, 4)), size=int(rng.integers(1, 12)),
                units=8 * int(rng.integers(1, 4)), time_major=bool(seed % 2), clip=[0.0, 2.5][seed // 2 % 2],
                asymmetric=bool(seed // 4 % 2), seed=seed)


def _drawn_svdf(seed: int) -> dict:
    rng = np.random.default_rng(400 + seed)
    return dict(batch=int(rng.integers(1, 3)), size=int(rng.integers(1, 20)), units=int(rng.integers(1, 5)),
                rank=1 + seed % 6, memory=int(rng.integers(1, 11)), asymmetric=bool(seed % 2),
                act=ACTIVATIONS[seed // 2 % 4], seed=seed)


def _drawn_depthwise(seed: int) -> dict:
    rng = np.random.default_rng(200 + seed)
    return dict(n=int(rng.integers(1, 3)), h=int(rng.integers(4, 9)), w=int(rng.integers(4, 9)),
                cin=int(rng.integers(1, 6)), multiplier=int(rng.integers(1, 3)), k=int(rng.integers(1, 4)),
                stride=int(rng.integers(1, 3)), dilation=int(rng.integers(1, 3)), padding=["SAME", "VALID"][seed % 2],
                act=["NONE", "RELU", "RELU6"][seed % 3], seed=seed)


def _drawn_conv(seed: int) -> dict:
    rng = np.random.default_rng(100 + seed)
    return dict(n=int(rng.integers(1, 3)), h=int(rng.integers(3, 9)), w=int(rng.integers(3, 9)),
                cin=int(rng.integers(1, 6)), cout=int(rng.integers(1, 7)), k=int(rng.integers(1, 4)),
                stride=int(rng.integers(1, 3)), padding=["SAME", "VALID"][seed % 2], per_channel=bool(seed // 2 % 2),
                act=["NONE", "RELU", "RELU6"][seed % 3], seed=seed)


def _drawn(seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return dict(batch=int(rng.integers(1, 4)), depth=int(rng.integers(1, 48)), units=int(rng.integers(1, 21)),
                per_channel=bool(seed % 2), asymmetric=bool(seed // 2 % 2), act=ACTIVATIONS[seed % 4],
                bias=bool(seed % 3), seed=seed)


@pytest.mark.parametrize("seed", range(16))
def test_drawn_hybrid_fully_connected_equals_litert_on_the_host(tmp_path, seed):
    """Each of symmetric/asymmetric x per-tensor/per-channel x the four activations, with and without a
    bias; a sample whose first row is all zeros (a zero range) and one all zeros (LiteRT skips the products)."""
    geometry = _drawn(seed)
    m = hybrid_fc(**geometry)
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((geometry["batch"], geometry["depth"])) * 3).astype(np.float32)
    x[0] = 0
    check(tmp_path / "rows", m, seed, oracles=("litert",), xs=[x])
    check(tmp_path / "zeros", m, seed, oracles=("litert",), xs=[np.zeros_like(x)])


def test_asymmetric_inputs_are_rounded_before_the_zero_point_is_added(tmp_path):
    """Halves either side of zero, as ReLU outputs in steps of 0.5 make them (found on MLPerf's ResNet-8
    quantized to dynamic range): with the row's ends -127.5 and 127.5 the factor is 1 and the zero point -1,
    and LiteRT computes round(x) - 1, not round(x - 1)."""
    x = (np.arange(-8, 8, dtype=np.float32) + np.float32(0.5))[None]
    x[0, 0], x[0, 1] = -127.5, 127.5
    check(tmp_path, hybrid_fc(1, 16, 5, False, True, "NONE", True, 3), 3, oracles=("litert",), xs=[x])


@pytest.mark.parametrize("asymmetric", [False, True])
def test_values_just_under_a_half_round_as_litert_x86_build_does(tmp_path, asymmetric):
    """The oracle's x86 build rounds a row's blocks of 8 with AVX2 (|p| + 0.5 in float32: 0.49999997
    gives 1) and the rest with std::round (0.49999997 gives 0): both, in the blocks and in the tail."""
    x = np.float32([[127.0, 0.49999997, -0.49999997, 2.5, -2.5, 126.5, -126.49999, 0.0,
                     0.49999997, -0.49999997, 2.5]])
    if asymmetric:  # the row's ends -127.5 and 127.5: factor 1, zero point -1
        x[0, 0], x[0, 5] = -127.5, 127.5
    check(tmp_path, hybrid_fc(1, 11, 3, False, asymmetric, "NONE", True, 5), 5, oracles=("litert",), xs=[x])


@pytest.mark.parametrize("seed", range(8))
def test_drawn_hybrid_conv_equals_litert_on_the_host(tmp_path, seed):
    """Per-tensor (symmetric) and per-channel (asymmetric) weights, SAME and VALID, strides, batches."""
    check(tmp_path, hybrid_conv(**_drawn_conv(seed)), seed, oracles=("litert",))


@pytest.mark.parametrize("seed", range(8))
def test_drawn_hybrid_depthwise_equals_litert_on_the_host(tmp_path, seed):
    """Depth multipliers 1-2, dilations 1-2, SAME and VALID, strides, batches."""
    check(tmp_path, hybrid_depthwise(**_drawn_depthwise(seed)), seed, oracles=("litert",))


@pytest.mark.parametrize("seed", range(16))
def test_drawn_hybrid_batch_matmul_equals_litert_on_the_host(tmp_path, seed):
    """adj_x and adj_y, batches broadcast either way (R of rank 2 against L of rank 3 and 4), per-tensor and
    per-column scales, symmetric and asymmetric rows."""
    check(tmp_path, hybrid_matmul(**_drawn_matmul(seed)), seed, oracles=("litert",))


@pytest.mark.parametrize("asymmetric", [False, True])
def test_hybrid_batch_matmul_takes_its_dot_products_through_float32(tmp_path, asymmetric):
    """1,100 values of 127 against rows whose largest is 127 once quantized: dot products past 2^24, which
    LiteRT's kernel rounds to float32 and truncates back before scaling."""
    x = np.linspace(0.5, 1.0, 2 * 1100, dtype=np.float32).reshape(2, 1100)
    check(tmp_path, hybrid_matmul([2, 1100], [1100, 3], False, False, False, asymmetric, 4, peak=True), 4,
          oracles=("litert",), xs=[x])


@pytest.mark.parametrize("seed", range(8))
def test_drawn_hybrid_svdf_equals_litert_over_several_steps(tmp_path, seed):
    """Ranks 1 to 6 and memories 1 to 10 (LiteRT sums a unit's filters and a filter's memory in four lanes
    first), symmetric and asymmetric rows, the four activations; the third step's input all zeros (LiteRT
    skips its products and the newest slots stay 0.0f)."""
    geometry = _drawn_svdf(seed)
    rng = np.random.default_rng(seed)
    steps = [[(rng.standard_normal((geometry["batch"], geometry["size"])) * 2).astype(np.float32)] for _ in range(5)]
    steps[2][0][:] = 0.0
    check_steps(tmp_path, hybrid_svdf(**geometry), seed, oracle="litert", samples=steps)


@pytest.mark.parametrize("seed", range(8))
def test_drawn_hybrid_lstm_equals_litert_over_several_steps(tmp_path, seed):
    """8 to 24 units, batch and time major, a cell clip or none, symmetric and asymmetric rows, the state carried
    over four invocations, the third's input all zeros (LiteRT skips its products); the gates' logistic and
    tanh Eigen's (ops/_eigen.py)."""
    geometry = _drawn_lstm(seed)
    rng = np.random.default_rng(seed)
    major = [geometry["steps"], geometry["batch"]] if geometry["time_major"] else [geometry["batch"], geometry["steps"]]
    steps = [[(rng.standard_normal((*major, geometry["size"])) * 2).astype(np.float32)] for _ in range(4)]
    steps[2][0][:] = 0.0
    check_steps(tmp_path, float_lstm(**geometry), seed, oracle="litert", samples=steps)


def test_a_hybrid_lstms_gates_take_nan_and_infinities_as_litert_does(tmp_path):
    """Biases of NaN, infinities, huge and far negative values (the logistic's 0 below -104): the gates' logistic
    and tanh pass a NaN on and saturate the rest as LiteRT's, in the golden model and the host C; and on the M4."""
    m = float_lstm(2, 2, 3, 8, False, 0.0, 7, asymmetric=False)
    special = np.float32([np.nan, np.inf, -np.inf, 1e30, -1e30, -200.0, 16.7, -0.0])
    for name, values in (("b2", special), ("b3", special[::-1].copy())):
        next(t for t in m.tensors if t["name"] == name).update(data=values)
    check_steps(tmp_path, m, 7, steps=3, oracle="litert")
    bit_exact_on_board(tmp_path / "m4", m, 7, samples=2)


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547", "lm3s6965evb"])
@pytest.mark.parametrize("seed", [3, 6, 13])
def test_hybrid_layers_on_the_emulated_cores(tmp_path, board, seed):
    bit_exact_on_board(tmp_path / "fc", hybrid_fc(**_drawn(seed)), seed, samples=2, board=board)
    bit_exact_on_board(tmp_path / "conv", hybrid_conv(**_drawn_conv(seed)), seed, samples=2, board=board)
    bit_exact_on_board(tmp_path / "dw", hybrid_depthwise(**_drawn_depthwise(seed)), seed, samples=2, board=board)
    bit_exact_on_board(tmp_path / "mm", hybrid_matmul(**_drawn_matmul(seed)), seed, samples=2, board=board)
    bit_exact_on_board(tmp_path / "svdf", hybrid_svdf(**_drawn_svdf(seed)), seed, samples=3, board=board)
    bit_exact_on_board(tmp_path / "lstm", float_lstm(**_drawn_lstm(seed)), seed, samples=3, board=board)


def test_a_converter_made_dynamic_range_model_runs_bit_exact(capsys, tmp_path):
    """The converter's default optimization on a float Keras model: its larger dense layers get int8
    weights (dynamic range), the rest stay float; `mcugen test` on the M4 checks it against LiteRT."""
    tf = pytest.importorskip("tensorflow")
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.Input((9, 8, 16), batch_size=1),
                                 tf.keras.layers.Conv2D(64, 3, padding="same", activation="relu"),
                                 tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2, padding="same"),
                                 tf.keras.layers.MaxPooling2D(), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(64, activation="relu"),
                                 tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(4)])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    path = tmp_path / "dynamic.tflite"
    path.write_bytes(converter.convert())
    code, out, err = run_cli(capsys, "test", path, "--board", "mps2-an386", "--samples", "3", "--out", tmp_path / "fw")
    assert code == 0 and "bit-exact on 3 sample(s) on mps2-an386" in out, err
    assert "golden model checked against LiteRT BUILTIN_REF" in out
    source = (tmp_path / "fw" / "src" / "model.c").read_text()
    # the layers of at least 1024 weights: the conv (3x3x16x64), the depthwise (3x3x128) and two dense ones
    assert source.count("mcu_conv2d_hybrid_s8(") == 1 and source.count("mcu_fully_connected_hybrid_s8(") == 2
    assert source.count("mcu_depthwise_conv2d_hybrid_s8(") == 1


def test_a_converter_made_dynamic_range_batch_matmul_runs_bit_exact(capsys, tmp_path):
    """tf.matmul by a batched constant, converted with the default optimization: a BATCH_MATMUL with int8
    weights and asymmetric rows (TFLM refuses it), bit-exact with LiteRT on the M4 and the M55."""
    tf = pytest.importorskip("tensorflow")
    weights = np.random.default_rng(5).standard_normal((3, 32, 24)).astype(np.float32)

    @tf.function(input_signature=[tf.TensorSpec([1, 3, 5, 32], tf.float32)])
    def attend(x):
        return tf.nn.relu(tf.matmul(x, weights))

    converter = tf.lite.TFLiteConverter.from_concrete_functions([attend.get_concrete_function()], attend)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    path = tmp_path / "matmul.tflite"
    path.write_bytes(converter.convert())
    for board in ("mps2-an386", "mps3-an547"):
        code, out, err = run_cli(capsys, "test", path, "--board", board, "--samples", "2", "--out", tmp_path / board)
        assert code == 0 and f"bit-exact on 2 sample(s) on {board}" in out, err
        assert "golden model checked against LiteRT BUILTIN_REF" in out
        assert "mcu_batch_matmul_hybrid_s8(" in (tmp_path / board / "src" / "model.c").read_text()


def test_hybrid_layers_mcugen_does_not_compute_are_one_line(capsys, tmp_path):
    dilated = hybrid_conv(1, 8, 8, 3, 4, 3, 1, "SAME", True, "NONE", 2)  # SAME: the same output shape dilated
    dilated.ops[-1]["fields"].update(DilationHFactor=2, DilationWFactor=2)
    along_depth = hybrid_matmul([2, 6], [6, 4], False, False, True, False, 1)
    along_depth.tensors[1].update(scale=[0.01] * 6, zp=[0] * 6, axis=0)
    computed = hybrid_matmul([2, 6], [6, 4], False, False, False, False, 1)
    computed.tensors[1].update(data=None)
    computed.inputs = [0, 1]
    float_time = hybrid_svdf(1, 4, 2, 1, 3, False, "NONE", 1)
    float_time.tensors[3].update(dtype="float32", data=np.ones((2, 3), np.float32), scale=None, zp=None)
    cases = [(hybrid_fc(1, 8, 4, False, False, "TANH", True, 1), "dynamic-range layer with fused activation TANH"),
             (dilated, "a dilated dynamic-range CONV_2D"),
             (along_depth, "a dynamic-range BATCH_MATMUL whose scales run along dimension 0"),
             (float_time, "feature weights int8 and time weights float32"),
             (computed, "of a dynamic-range BATCH_MATMUL is not a constant"),
             (float_lstm(2, 2, 5, 13, False, 0.0, 1, asymmetric=False), "a dynamic-range LSTM of 13 units")]
    for k, (m, phrase) in enumerate(cases):
        path = tmp_path / f"{k}.tflite"
        path.write_bytes(m.build())
        code, _, err = run_cli(capsys, "build", path, "--board", "mps2-an386", "--out", tmp_path / f"fw{k}")
        assert_one_error_line(code, err, phrase)
