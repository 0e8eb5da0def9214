"""Dynamic-range ("hybrid") FULLY_CONNECTED: int8 weights, float32 activations, each input row quantized
on the fly, as LiteRT's reference kernels compute it (TFLM refuses such models; LiteRT BUILTIN_REF is the
oracle): drawn geometries bit-exact with it in the golden model and the host C, then on the M4F, the M55
and a core without an FPU (soft float, the asymmetric zero point in soft double); a converter-made
dynamic-range model end to end."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import bit_exact_on_board
from single_op import check
from test_cli import assert_one_error_line, run_cli
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


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547", "lm3s6965evb"])
@pytest.mark.parametrize("seed", [3, 6, 13])
def test_hybrid_fully_connected_on_the_emulated_cores(tmp_path, board, seed):
    bit_exact_on_board(tmp_path, hybrid_fc(**_drawn(seed)), seed, samples=2, board=board)


def test_a_converter_made_dynamic_range_model_runs_bit_exact(capsys, tmp_path):
    """The converter's default optimization on a float Keras model: its larger dense layers get int8
    weights (dynamic range), the rest stay float; `mcugen test` on the M4 checks it against LiteRT."""
    tf = pytest.importorskip("tensorflow")
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.Input((40,), batch_size=1), tf.keras.layers.Dense(64, activation="relu"),
                                 tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(4)])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    path = tmp_path / "dynamic.tflite"
    path.write_bytes(converter.convert())
    code, out, err = run_cli(capsys, "test", path, "--board", "mps2-an386", "--samples", "3", "--out", tmp_path / "fw")
    assert code == 0 and "bit-exact on 3 sample(s) on mps2-an386" in out, err
    assert "golden model checked against LiteRT BUILTIN_REF" in out
    source = (tmp_path / "fw" / "src" / "model.c").read_text()
    assert source.count("mcu_fully_connected_hybrid_s8(") == 2  # 40 x 64 and 64 x 32: the two big enough


def test_a_hybrid_layer_with_an_activation_mcugen_does_not_compute_is_one_line(capsys, tmp_path):
    path = tmp_path / "tanh.tflite"
    path.write_bytes(hybrid_fc(1, 8, 4, False, False, "TANH", True, 1).build())
    code, _, err = run_cli(capsys, "build", path, "--board", "mps2-an386", "--out", tmp_path / "fw")
    assert_one_error_line(code, err, "dynamic-range layer with fused activation TANH")
