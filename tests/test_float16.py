"""float16 models (the converter's `supported_types=[tf.float16]`): weights stored as float16 behind
DEQUANTIZE ops, which TFLM refuses and LiteRT's reference kernels run, so LiteRT BUILTIN_REF is the
oracle. mcugen folds the DEQUANTIZE at build time and keeps the weights float16 in flash, widened into
the layer's scratch before its float32 kernel (mcu_unpack_f16: VCVTB on an FPU, bit arithmetic without):
bit-exact on the host, the M4F, the M55 and a core without an FPU."""
from __future__ import annotations

import json

import numpy as np
import pytest

from test_cli import checked_report, run_cli
from tflite_writer import ModelSpec

LITERT = "LiteRT BUILTIN_REF"


@pytest.fixture(scope="module")
def converted(tmp_path_factory) -> object:
    """A small Keras CNN through the converter's float16 option (conv, depthwise, pool, dense, softmax)."""
    tf = pytest.importorskip("tensorflow")
    tf.keras.utils.set_random_seed(7)
    model = tf.keras.Sequential([
        tf.keras.Input((10, 9, 3), batch_size=1),
        tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
        tf.keras.layers.DepthwiseConv2D(3, padding="same", activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(), tf.keras.layers.Dense(6), tf.keras.layers.Softmax()])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations, converter.target_spec.supported_types = [tf.lite.Optimize.DEFAULT], [tf.float16]
    path = tmp_path_factory.mktemp("f16") / "cnn_f16.tflite"
    path.write_bytes(converter.convert())
    return path


def test_the_converters_float16_model_equals_litert_ref_on_the_host(capsys, converted):
    code, out, err = run_cli(capsys, "compare", converted, "--samples", "3")
    assert code == 0 and f"all 6 layer outputs equal {LITERT}'s" in out, out
    assert f"oracle: {LITERT} (TFLM refuses this model" in err  # which oracle judged, and why


@pytest.mark.parametrize("board", ["host", "mps2-an386", "mps3-an547", "lm3s6965evb"])
def test_the_converters_float16_model_runs_bit_exact(capsys, tmp_path, converted, board):
    report = tmp_path / "r.json"
    code, out, err = run_cli(capsys, "test", converted, "--board", board, "--samples", "2", "--out", tmp_path / "fw",
                             "--json", report)
    assert code == 0 and f"bit-exact on 2 sample(s) on {board}" in out, err
    assert checked_report(report, "test")["oracle"].startswith(f"{LITERT} (TFLM refuses")


def test_its_weights_stay_float16_in_flash_but_with_optimize_speed(capsys, tmp_path, converted):
    """By default each weight array is in flash at the file's float16 size, widened into the layer's
    scratch (the RAM it costs: at most the largest layer's float32 weights); speed keeps them float32."""
    built = {}
    for optimize in ("speed", "balanced"):
        report = tmp_path / f"{optimize}.json"
        code, _, err = run_cli(capsys, "build", converted, "--board", "mps2-an386", "--optimize", optimize,
                               "--out", tmp_path / optimize, "--json", report)
        assert code == 0, err
        r = checked_report(report, "build")
        assert r["weights_bytes"] == 2 * (216 + 72 + 960 + 8) + 8  # as the file holds them (one bias shared)
        built[optimize] = r
    filters = [(a["name"], a["bytes"]) for layer in built["balanced"]["layers"] for a in layer["arrays"]
               if "filter" in a["name"]]
    # conv 3x3x3 -> 8, depthwise 3x3 x 8, dense 160 -> 6: two bytes a weight
    assert filters == [("filter_f16", 2 * 216), ("filter_f16", 2 * 72), ("filter_f16", 2 * 960)]
    constants = {k: sum(a["bytes"] for layer in r["layers"] for a in layer["arrays"]) for k, r in built.items()}
    assert constants["speed"] - constants["balanced"] == 2 * (72 + 216 + 960)
    assert 0 < built["balanced"]["arena_bytes"] - built["speed"]["arena_bytes"] <= 4 * 960


def _every_class_of_half() -> np.ndarray:
    """Subnormals, zeros, infinities and NaNs whole (both signs), and every 16th other value."""
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    exponent = (bits >> 10) & 0x1F
    return bits[(exponent == 0) | (exponent == 0x1F) | (bits % 16 == 3)].view(np.float16)


@pytest.mark.parametrize("board", ["host", "mps2-an386", "mps3-an547", "lm3s6965evb"])
def test_every_kind_of_float16_value_widens_exactly(capsys, tmp_path, board):
    """A DEQUANTIZE whose float16 constant is a graph output stays a call (mcu_unpack_f16): its float32
    values equal LiteRT's, bit for bit, with the FPU's VCVTT and VCVTB (M4F, M55: four a pass, the one value
    an odd count leaves after them alone) and without an FPU (M3, the host)."""
    halves = np.concatenate([_every_class_of_half(), np.float16([-0.0])])
    m = ModelSpec()
    y = m.tensor("y", [halves.size], "float32")
    m.op("DEQUANTIZE", [m.const("h", halves, "float16")], [y])
    x, z = m.tensor("x", [4], "float32"), m.tensor("z", [4], "float32")
    m.op("RELU", [x], [z])
    m.inputs, m.outputs = [x], [y, z]
    path = tmp_path / "halves.tflite"
    path.write_bytes(m.build())
    code, out, err = run_cli(capsys, "test", path, "--board", board, "--samples", "1", "--out", tmp_path / "fw")
    assert code == 0 and f"bit-exact on 1 sample(s) on {board}" in out, err
    assert "mcu_unpack_f16(" in (tmp_path / "fw" / "src" / "model.c").read_text()


def test_a_float16_activation_is_one_line(capsys, tmp_path):
    m = ModelSpec()
    x, y = m.tensor("x", [1, 4], "float16"), m.tensor("y", [1, 4], "float32")
    m.op("DEQUANTIZE", [x], [y])
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "act.tflite"
    path.write_bytes(m.build())
    code, _, err = run_cli(capsys, "build", path, "--board", "mps2-an386", "--out", tmp_path / "fw")
    assert code != 0 and "float16 activation" in err and "Traceback" not in err, err
