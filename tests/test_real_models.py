"""Public models as users bring them (tests/models/real, provenance in its README): float32 and uint8
ends, MAXIMUM, shape arithmetic. Each is golden == TFLM layer by layer, host C == golden, and
bit-exact on the emulated Cortex-M4; the float-ended model also on the M7 and on the FPU-less M3
(soft float). The models mcugen still refuses get the verdict that names why, never "inconsistent"."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import OBJECT_CACHE, ROOT
from mcugen import golden
from mcugen.boards import load_board
from mcugen.build import build_host
from mcugen.compare import compare_with_tflm, random_inputs
from mcugen.firmware import build_board
from mcugen.oracle import Tflm
from mcugen.outdir import OutDir
from mcugen.passes.check_support import find_problems
from mcugen.pipeline import compile_model, lower, read
from mcugen.validate import run_on_target

REAL = ROOT / "tests" / "models" / "real"
RUNS = ["mlex_ds_cnn_m_quantized.tflite", "stm_miniresnet_1stacks_64x50_tl_int8.tflite",
        "efx_mediapipe_face_landmark.tflite", "tflm_custom_model_rf_keras.tflite"]


@pytest.mark.parametrize("name", RUNS)
def test_golden_equals_tflm_layer_by_layer(name):
    g = lower(REAL / name)
    assert compare_with_tflm(g, REAL / name, random_inputs(g, 3, seed=21)) is None


@pytest.mark.parametrize("name", RUNS)
def test_host_c_equals_golden(tmp_path, name):
    g = compile_model(REAL / name)
    samples = random_inputs(g, 2, seed=5)
    result = build_host(g, tmp_path, name, object_cache=OBJECT_CACHE)
    _, results = run_on_target("host", result.program, g, samples)
    assert all(r.passed for r in results), [r.outputs for r in results]
    tflm = Tflm(REAL / name)  # and the golden outputs are TFLM's, float bit patterns included
    for xs in samples:
        for ours, theirs in zip(golden.run(g, xs), tflm.run(xs, len(g.outputs))):
            assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("name, board", [(name, "mps2-an386") for name in RUNS] + [
    ("mlex_ds_cnn_m_quantized.tflite", "mps2-an500"),
    ("mlex_ds_cnn_m_quantized.tflite", "lm3s6965evb"),  # Cortex-M3: soft float
])
def test_bit_exact_on_the_emulated_board(tmp_path, name, board):
    g = compile_model(REAL / name)
    result = build_board(g, load_board(board), OutDir(tmp_path / board), name)
    _, results = run_on_target(board, result.program, g, random_inputs(g, 1, seed=17))
    assert results[0].passed, results[0].outputs


def test_float_ends_use_the_fpu_only_where_the_core_has_one(tmp_path):
    g = compile_model(REAL / "mlex_ds_cnn_m_quantized.tflite")
    for board, hard in (("mps2-an386", True), ("lm3s6965evb", False)):
        build_board(g, load_board(board), OutDir(tmp_path / board), "m")
        flags = (tmp_path / board / "boards" / f"mcugen-{board}.json").read_text()
        assert ('"fpu": "fpv4-sp-d16"' in flags) == hard


@pytest.mark.parametrize("name, verdict", [
    ("coral_mobilenet_v1_0.25_128_quant.tflite", "legacy uint8-quantized model"),
    ("tflm_person_detect_vela.tflite", "unsupported op CUSTOM:ethos-u (custom op"),
    ("tflm_mnist_lstm_int8.tflite", "UNIDIRECTIONAL_SEQUENCE_LSTM at index 0: keeps state in variable tensor"),
    ("tflm_keyword_scrambled_8bit.tflite", "SVDF at index 1: keeps state in variable tensor"),
    ("mlzoo_ds_cnn_s_int16.tflite", "is int16 (16x8 activations are not supported yet)"),
    ("pypi_pmw_hey_jarvis.tflite", "model has 2 subgraphs"),
])
def test_refused_models_get_the_verdict_that_names_why(name, verdict):
    problems = find_problems(read(REAL / name))
    assert any(verdict in p for p in problems), problems
    assert not any("inconsistent" in p for p in problems)


def test_random_float_inputs_cover_the_quantize_range_and_beyond():
    g = lower(REAL / "mlex_ds_cnn_m_quantized.tflite")
    q = g.ops[0].output(g).quant
    x = np.concatenate([s[0].ravel() for s in random_inputs(g, 5, seed=1)])
    lo, hi = q.s * (-128 - q.zp), q.s * (127 - q.zp)
    assert x.dtype == np.float32 and x.min() < lo and x.max() > hi  # saturation is exercised
