"""fp16 arithmetic (ops/half_layers.py, runtime_c/*/mcu_*_f16*.c): the layers a precision plan makes fp16, computed
in fp16 on a core with half-precision arithmetic. No TFLite oracle computes fp16: the golden model states the order
of operations, and every kernel follows it bit for bit, the reference kernels on the host and Helium's on the
Cortex-M55 (mps3-an547), over drawn geometries (odd channel counts, batches above 1, strides, dilations, SAME and
VALID, depth multipliers, every fused activation) with IEEE's specials, float16's subnormals and values past its
range in the input. On a core without it the same file is float16 weights computed in float32, bit-exact with
LiteRT (tests/test_plan.py)."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import OBJECT_CACHE
from mcugen.codegen.build import build_host
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.frontend.model_object import with_fp16_layers
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import build_board
from mcugen.targets.target import Target
from mcugen.validation.compare import random_inputs
from mcugen.validation.validate import run_on_target
from single_op import out_size
from tflite_writer import ModelSpec

ACTIVATIONS = ["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]
# past float16's range both ways, its subnormals, what rounds to its largest value and to infinity, IEEE's specials
SPECIAL = np.float32([np.nan, np.inf, -np.inf, 7e4, -7e4, 3e-6, -2e-7, 1e-9, -0.0, 65519.0, 65520.0, 6.1e-5])
M55 = "mps3-an547"


def _half(m: ModelSpec, name: str, rng, shape, scale: float = 0.5) -> int:
    """A float32 constant of float16 values: what a plan's fp16 layer holds once the file's DEQUANTIZE is folded."""
    return m.const(name, (scale * rng.standard_normal(shape)).astype(np.float16).astype(np.float32), "float32")


def _model(tmp_path, seed: int):
    """x -> CONV_2D -> DEPTHWISE_CONV_2D -> RESHAPE -> FULLY_CONNECTED, the three layers marked fp16; (path, depth
    multiplier)."""
    rng = np.random.default_rng(seed)
    batch, h, w = int(rng.integers(1, 4)), int(rng.integers(3, 8)), int(rng.integers(3, 8))
    cin, cout = int(rng.choice([1, 3, 8, 9, 17])), int(rng.choice([1, 5, 8, 11, 16]))
    kh, kw, stride, dilation = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 3)), \
        int(rng.integers(1, 3))
    pad = "SAME" if seed % 2 == 0 or (h - (kh - 1) * dilation < 1 or w - (kw - 1) * dilation < 1) else "VALID"
    oh, ow = out_size(pad, h, kh, stride, dilation), out_size(pad, w, kw, stride, dilation)
    multiplier = 1 + seed % 3 // 2
    units = int(rng.choice([1, 7, 10, 16]))
    m = ModelSpec()
    x = m.tensor("x", [batch, h, w, cin], "float32")
    c = m.tensor("c", [batch, oh, ow, cout], "float32")
    m.op("CONV_2D", [x, _half(m, "w", rng, (cout, kh, kw, cin)), _half(m, "b", rng, (cout,))], [c], "Conv2DOptions",
         Padding=0 if pad == "SAME" else 1, StrideW=stride, StrideH=stride, DilationWFactor=dilation,
         DilationHFactor=dilation, FusedActivationFunction=ACTIVATIONS[seed % 4])
    d = m.tensor("d", [batch, oh, ow, cout * multiplier], "float32")
    m.op("DEPTHWISE_CONV_2D", [c, _half(m, "dw", rng, (1, 3, 3, cout * multiplier)),
                               _half(m, "db", rng, (cout * multiplier,))], [d], "DepthwiseConv2DOptions",
         Padding=0, StrideW=1, StrideH=1, DepthMultiplier=multiplier, FusedActivationFunction=ACTIVATIONS[seed % 3])
    depth = oh * ow * cout * multiplier
    r = m.tensor("r", [batch, depth], "float32")
    m.op("RESHAPE", [d, m.const("shape", np.array([batch, depth]), "int32")], [r], "ReshapeOptions")
    y = m.tensor("y", [batch, units], "float32")
    m.op("FULLY_CONNECTED", [r, _half(m, "fw", rng, (units, depth), 1 / np.sqrt(depth)),
                             _half(m, "fb", rng, (units,))], [y], "FullyConnectedOptions",
         FusedActivationFunction=ACTIVATIONS[(seed + 1) % 4])
    m.inputs, m.outputs = [x], [y]
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "fp16.tflite"
    path.write_bytes(with_fp16_layers(m.build(), ["c", "d", "y"]))
    return path, multiplier


def _samples(g, seed: int) -> list:
    """Two inputs: one of ordinary values, one with SPECIAL scattered in."""
    plain, special = random_inputs(g, 2, seed)
    x = special[0].reshape(-1)
    x[np.random.default_rng(seed).choice(x.size, min(x.size, SPECIAL.size), replace=False)] = SPECIAL[:x.size]
    return [plain, [x.reshape(special[0].shape)]]


@pytest.mark.parametrize("seed", range(6))
def test_the_reference_kernels_follow_the_golden_models_order_on_the_host(tmp_path, seed):
    path, _ = _model(tmp_path, seed)
    g = compile_model(path, fp16=True)
    assert [op.call.kernel for op in g.ops if op.call is not None] == [
        "mcu_quantize_f16", "mcu_conv2d_f16", "mcu_depthwise_conv2d_f16", "mcu_fully_connected_f16",
        "mcu_dequantize_f16"]  # float16 from the input's conversion to the output's, through the RESHAPE
    program = build_host(g, tmp_path / "c", path.name, object_cache=OBJECT_CACHE).program
    _, results = run_on_target(Target.of("host"), program, g, _samples(g, seed))
    assert all(r.passed for r in results), [r.outputs for r in results]


@pytest.mark.parametrize("seed", range(3))
def test_heliums_fp16_kernels_follow_it_on_the_m55(tmp_path, seed):
    path, multiplier = _model(tmp_path, seed)
    board = load_board(M55)
    assert board.fp16_arithmetic
    g = compile_model(path, features=board.features, fp16=board.fp16_arithmetic)
    depthwise = "mcu_depthwise_conv2d_f16_mve" if multiplier == 1 else "mcu_depthwise_conv2d_f16"
    assert [op.call.kernel for op in g.ops if op.call is not None] == [
        "mcu_quantize_f16", "mcu_conv2d_f16_mve", depthwise, "mcu_fully_connected_f16_mve", "mcu_dequantize_f16"]
    program = build_board(g, board, OutDir(tmp_path / "fw"), path.name).program
    _, results = run_on_target(Target.of(M55), program, g, _samples(g, seed))
    assert all(r.passed for r in results), [r.outputs for r in results]


def test_a_core_without_half_precision_arithmetic_computes_the_file_in_float32(tmp_path):
    path, _ = _model(tmp_path, 0)
    board = load_board("mps2-an386")
    assert not board.fp16_arithmetic
    g = compile_model(path, features=board.features, fp16=board.fp16_arithmetic)
    assert all(t.dtype != "float16" or t.is_const for t in g.tensors)  # float16 weights at most, unpacked
    assert [op.opcode for op in g.ops] == ["CONV_2D", "DEPTHWISE_CONV_2D", "RESHAPE", "FULLY_CONNECTED"]
