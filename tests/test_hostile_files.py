"""Hostile input, round three: stateful files, quantization missing on an op's output, omitted inputs,
shapes and scales TFLM's Prepare refuses, and the files TFLM runs that mcugen once refused (op codes
as the LiteRT quantizer writes them, biases of any shape, int32 sums that pass 2^31).

Refusals: one error line naming the op and the field, exit 1, nothing written. Acceptances: bit-exact
with TFLM, the host C too (under ASan and UBSan where the sums wrap), and on the emulated cores."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import MODELS, OBJECT_CACHE
from mcugen.validation import golden
from mcugen.targets.boards import load_board
from mcugen.codegen.build import build_host
from mcugen.validation.compare import random_inputs
from mcugen.targets.firmware import build_board
from mcugen.validation.oracle import Tflm
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from model_edit import load, ops_of, pack
from test_cli import assert_one_error_line, run_cli
from test_fuzz import _add, _fc16
from tflite_writer import ModelSpec

JARVIS = MODELS / "real" / "pypi_pmw_hey_jarvis.tflite"  # streaming: resource variables, CALL_ONCE
LSTM = MODELS / "real" / "tflm_mnist_lstm_int8.tflite"


def _edited(tmp_path, source, edit):
    model = load(source)
    edit(model)
    path = tmp_path / "edited.tflite"
    path.write_bytes(pack(model))
    return path


def _handle_named(model, name: bytes):
    return next(op for op in ops_of(model, "VAR_HANDLE") if op.builtinOptions.sharedName == name)


def _drop_variable(model):
    """Every ASSIGN_VARIABLE of the first variable gone, in both subgraphs: its reads find no buffer."""
    name = ops_of(model, "VAR_HANDLE")[0].builtinOptions.sharedName
    for k, sub in enumerate(model.subgraphs):
        handles = {op.outputs[0] for op in ops_of(model, "VAR_HANDLE", k) if op.builtinOptions.sharedName == name}
        sub.operators = [op for op in sub.operators
                         if not (op in ops_of(model, "ASSIGN_VARIABLE", k) and op.inputs[0] in handles)]


def _halve_initial_value(model):
    """The init subgraph assigns half as many bytes as the variable has."""
    init = model.subgraphs[1]
    value = init.tensors[ops_of(model, "ASSIGN_VARIABLE", 1)[0].inputs[1]]
    value.shape[-1] //= 2
    buffer = model.buffers[value.buffer]
    buffer.data = buffer.data[:len(buffer.data) // 2]


def _tensor_of(model, op_name: str, which: str, k: int = 0):
    op = ops_of(model, op_name)[-1]
    return model.subgraphs[0].tensors[(op.outputs if which == "output" else op.inputs)[k]]


def _omit_input(op_name: str, k: int):
    def edit(model):
        ops_of(model, op_name)[0].inputs[k] = -1
    return edit


def _unquantized_output(op_name: str):
    def edit(model):
        _tensor_of(model, op_name, "output").quantization = None
    return edit


def _sparse_weights(compressed: bool):
    """The first FULLY_CONNECTED's weights marked sparse, their bytes as they were (TFLM ignores the sparsity
    and reads them dense) or `compressed` (half of them: what only a DENSIFY reads)."""
    def edit(model):
        from ai_edge_litert import schema_py_generated as schema
        sparsity = schema.SparsityParametersT()
        sparsity.traversalOrder, sparsity.blockMap = [0, 1], []
        weights = _tensor_of(model, "FULLY_CONNECTED", "input", 1)
        weights.sparsity = sparsity
        if compressed:
            model.buffers[weights.buffer].data = model.buffers[weights.buffer].data[::2]
    return edit


REFUSED = {
    "sparse weights": (JARVIS, _sparse_weights(True), ["is stored sparse (", "which only a DENSIFY op reads: TFLM "
                                                       "has no DENSIFY kernel", "without sparsity"]),
    "CALL_ONCE index -1": (JARVIS, lambda m: setattr(ops_of(m, "CALL_ONCE")[0].builtinOptions,
                                                     "initSubgraphIndex", -1),
                           ["CALL_ONCE at index 0: init_subgraph_index -1 names no other subgraph"]),
    "CALL_ONCE calling itself": (JARVIS, lambda m: setattr(ops_of(m, "CALL_ONCE")[0].builtinOptions,
                                                           "initSubgraphIndex", 0),
                                 ["init_subgraph_index 0 names no other subgraph"]),
    "init subgraph removed": (JARVIS, lambda m: m.subgraphs.pop(), ["init_subgraph_index 1 names no other subgraph "
                                                                    "(the file has 1)"]),
    "a variable in two containers": (JARVIS, lambda m: setattr(ops_of(m, "VAR_HANDLE")[0].builtinOptions,
                                                               "container", b"other"),
                                     ["names two variables in different containers"]),
    "a read of a variable nothing assigns": (JARVIS, _drop_variable,
                                             ["READ_VARIABLE at index", "no ASSIGN_VARIABLE gives a buffer"]),
    "an initial value of the wrong size": (JARVIS, _halve_initial_value,
                                           ["subgraph 1: ASSIGN_VARIABLE at index", "bytes, its resource variable"]),
    "FULLY_CONNECTED output unquantized": (JARVIS, _unquantized_output("FULLY_CONNECTED"),
                                           ["FULLY_CONNECTED at index 42", "has no quantization parameters"]),
    "DEPTHWISE_CONV_2D output unquantized": (JARVIS, _unquantized_output("DEPTHWISE_CONV_2D"),
                                             ["DEPTHWISE_CONV_2D at index", "has no quantization parameters"]),
    "CONV_2D output unquantized": (JARVIS, _unquantized_output("CONV_2D"),
                                   ["CONV_2D at index", "has no quantization parameters"]),
    "a required input omitted": (JARVIS, _omit_input("CONCATENATION", 1),
                                 ["CONCATENATION at index", "input 1 is omitted, TFLM's kernel needs it"]),
    "a depthwise bias omitted among three inputs": (JARVIS, _omit_input("DEPTHWISE_CONV_2D", 2),
                                                    ["DEPTHWISE_CONV_2D at index", "(the bias) is omitted"]),
    "LOGISTIC input scale 1e-9": (JARVIS, lambda m: setattr(_tensor_of(m, "LOGISTIC", "input").quantization,
                                                            "scale", [1e-9]),
                                  ["LOGISTIC at index 43: input scale 1e-09", "undefined"]),
    "an LSTM intermediate tensor given bytes": (LSTM, lambda m: setattr(m.subgraphs[0].tensors[ops_of(
        m, "UNIDIRECTIONAL_SEQUENCE_LSTM")[0].intermediates[0]], "shape", [1]),
                                                ["UNIDIRECTIONAL_SEQUENCE_LSTM at index 0: intermediate tensor",
                                                 "where TFLM allows intermediate tensors none"]),
    "LSTM hidden state of rank 3": (LSTM, lambda m: setattr(m.subgraphs[0].tensors[ops_of(
        m, "UNIDIRECTIONAL_SEQUENCE_LSTM")[0].inputs[18]], "shape", [1, 1, 20]),
                                    ["UNIDIRECTIONAL_SEQUENCE_LSTM at index 0: hidden state [1, 1, 20]"]),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_one_line_exit_1_nothing_written(capsys, tmp_path, case):
    source, edit, phrases = REFUSED[case]
    path = _edited(tmp_path, source, edit)
    out = tmp_path / "build"
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", out)
    assert code == 1
    assert_one_error_line(code, err, *phrases)
    assert not out.exists()


@pytest.mark.parametrize("case", ["CALL_ONCE calling itself", "init subgraph removed", "a variable in two containers",
                                  "LSTM hidden state of rank 3", "an LSTM intermediate tensor given bytes"])
def test_tflm_refuses_or_crashes_on_them_too(tmp_path, case):
    source, edit, _ = REFUSED[case]
    with pytest.raises(Exception, match="TFLM (refuses this model|crashed)"):
        Tflm(_edited(tmp_path, source, edit))


def _rsqrt(m, rng):
    x = m.tensor("x", [2, 4], "int8", scale=0.05, zp=-128)
    y = m.tensor("y", [2, 4], "int8", scale=0.1, zp=-128)
    m.op("RSQRT", [x], [y], version=2)
    return x, y


def _written(tmp_path, make, scale):
    """A one-op model from the fuzzer's bases with its output's scale set."""
    m = ModelSpec()
    x, y = make(m, np.random.default_rng(0))
    m.inputs, m.outputs = [x], [y]
    m.tensors[y]["scale"] = scale
    path = tmp_path / "written.tflite"
    path.write_bytes(m.build())
    return path


SCALES = {  # where TFLM's Prepare aborts or its int64 requantize shifts by a negative amount
    "ADD output scale 1e-9": (_add, 1e-9, ["ADD at index 0", "rescale factor of", "outside (0, 1)"]),
    "16x8 FULLY_CONNECTED output scale 1e-10": (_fc16, 1e-10, ["FULLY_CONNECTED at index 0: a rescale of 2^18"]),
    "RSQRT output scale 4e6": (_rsqrt, 4e6, ["RSQRT at index 0: a rescale factor of", "past the 31 bits"]),
}


@pytest.mark.parametrize("case", sorted(SCALES))
def test_scales_tflm_cannot_rescale_are_one_line(capsys, tmp_path, case):
    make, scale, phrases = SCALES[case]
    code, _, err = run_cli(capsys, "build", _written(tmp_path, make, scale), "--board", "host", "--out",
                           tmp_path / "build")
    assert_one_error_line(code, err, *phrases)
    assert code == 1 and not (tmp_path / "build").exists()


def test_tflm_aborts_on_the_add(tmp_path):
    with pytest.raises(Exception, match="TFLM crashed on this model"):
        Tflm(_written(tmp_path, _add, 1e-9))


def _bit_exact_with_tflm(path, samples) -> None:
    g = compile_model(path)
    oracle = Tflm(path)
    runner = golden.Runner(g)
    for xs in samples:  # consecutive steps of a stateful model: the state carried on both sides
        for ours, theirs in zip(runner.run(xs), oracle.run(xs, len(g.outputs))):
            np.testing.assert_array_equal(ours, theirs)


def _renamed_handle(model):
    ops_of(model, "VAR_HANDLE")[0].builtinOptions.sharedName = b"renamed"


def _codes_as_the_litert_quantizer_writes_them(model):
    for code in model.operatorCodes:
        code.deprecatedBuiltinCode = 0


def _bias_shape(op_name: str, shape):
    def edit(model):
        _tensor_of(model, op_name, "input", 2).shape = shape
    return edit


ACCEPTED = {
    # TFLM gives the renamed handle its own variable, allocated by its first ASSIGN_VARIABLE (zero points)
    "a handle renamed": (JARVIS, _renamed_handle),
    "deprecated_builtin_code 0 everywhere": (JARVIS, _codes_as_the_litert_quantizer_writes_them),
    "deprecated_builtin_code 0 on an LSTM": (LSTM, _codes_as_the_litert_quantizer_writes_them),
    "a conv bias [1, 60]": (JARVIS, _bias_shape("CONV_2D", [1, 60])),
    "a depthwise bias [60, 1]": (JARVIS, _bias_shape("DEPTHWISE_CONV_2D", [60, 1])),
    "an FC bias [1, 1, 1]": (JARVIS, _bias_shape("FULLY_CONNECTED", [1, 1, 1])),
    "a conv bias omitted": (JARVIS, _omit_input("CONV_2D", 2)),
    "weights marked sparse, stored dense": (JARVIS, _sparse_weights(False)),
}


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_what_tflm_runs_is_run_bit_exact(tmp_path, case):
    source, edit = ACCEPTED[case]
    path = _edited(tmp_path, source, edit)
    g = compile_model(path)
    samples = random_inputs(g, 3, seed=5)
    _bit_exact_with_tflm(path, samples)
    build = build_host(g, tmp_path / "c", "edited.tflite", object_cache=OBJECT_CACHE)
    _, results = run_on_target(Target.of("host"), build.program, g, samples)
    assert all(r.passed for r in results), [r.outputs for r in results]


def test_mixed_int8_16x8_codes_of_the_litert_quantizer(tmp_path):
    """int8 -> QUANTIZE -> 16x8 FULLY_CONNECTED -> QUANTIZE -> int8, every op code written as the LiteRT
    quantizer writes the ones it adds (builtin_code set, deprecated_builtin_code 0)."""
    rng = np.random.default_rng(3)
    m = ModelSpec()
    x = m.tensor("x", [1, 16], "int8", scale=0.05, zp=3)
    x16 = m.tensor("x16", [1, 16], "int16", scale=0.0004, zp=0)
    w = m.const("w", rng.integers(-127, 128, (6, 16)), "int8", scale=0.01, zp=0)
    b = m.const("b", rng.integers(-9000, 9000, 6), "int64", scale=0.000004, zp=0)
    y16 = m.tensor("y16", [1, 6], "int16", scale=0.0009, zp=0)
    y = m.tensor("y", [1, 6], "int8", scale=0.11, zp=-4)
    m.op("QUANTIZE", [x], [x16])
    m.op("FULLY_CONNECTED", [x16, w, b], [y16], "FullyConnectedOptions", version=7)
    m.op("QUANTIZE", [y16], [y])
    m.inputs, m.outputs = [x], [y]
    m.deprecated_codes = {"QUANTIZE": 0, "FULLY_CONNECTED": 0}
    path = tmp_path / "mixed.tflite"
    path.write_bytes(m.build())
    _bit_exact_with_tflm(path, random_inputs(compile_model(path), 4, seed=1))


# -- int32 sums past 2^31: TFLM's accumulator wraps (two's complement on every Arm and x86 target) --
def _wrapping(kind: str) -> ModelSpec:
    """A layer whose worst case passes int32: biases near +-2^31 and weights of one sign. Inputs near the
    zero point keep the sums in range; inputs at the far end wrap them."""
    m = ModelSpec()
    big = [2**31 - 40_000, -(2**31) + 40_000, 2**31 - 1, 5]
    if kind == "FULLY_CONNECTED":
        x = m.tensor("x", [1, 24], "int8", scale=0.05, zp=0)
        w = m.const("w", np.full((4, 24), 127) * [[1], [-1], [1], [1]], "int8", scale=[0.01] * 4, zp=[0] * 4)
        b = m.const("b", big, "int32", scale=[0.0005] * 4, zp=[0] * 4)
        y = m.tensor("y", [1, 4], "int8", scale=2000.0, zp=0)
        m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", version=4)
    else:
        x = m.tensor("x", [1, 5, 5, 8], "int8", scale=0.05, zp=0)
        w = m.const("w", np.full((4, 3, 3, 8), 127) * np.reshape([1, -1, 1, 1], (4, 1, 1, 1)), "int8",
                    scale=[0.01] * 4, zp=[0] * 4)
        b = m.const("b", big, "int32", scale=[0.0005] * 4, zp=[0] * 4)
        y = m.tensor("y", [1, 5, 5, 4], "int8", scale=2000.0, zp=0)
        m.op("CONV_2D", [x, w, b], [y], "Conv2DOptions", version=3, Padding="SAME", StrideH=1, StrideW=1,
             DilationHFactor=1, DilationWFactor=1)
    m.inputs, m.outputs = [x], [y]
    return m


def _wrap_samples(g) -> list[list[np.ndarray]]:
    shape = g.tensors[g.inputs[0]].shape
    return [[np.zeros(shape, np.int8)], [np.full(shape, 127, np.int8)], [np.full(shape, -128, np.int8)],
            *random_inputs(g, 2, seed=9)]


@pytest.mark.parametrize("kind", ["FULLY_CONNECTED", "CONV_2D"])
def test_int32_sums_wrap_as_tflm_s_on_the_host_under_the_sanitizers(tmp_path, kind):
    path = tmp_path / "wrap.tflite"
    path.write_bytes(_wrapping(kind).build())
    g = compile_model(path)
    samples = _wrap_samples(g)
    _bit_exact_with_tflm(path, samples)
    # channel 0 at inputs of 127: 2^31 - 40,000 plus the products wraps negative (unwrapped: +127)
    assert (golden.run(g, samples[1])[0].reshape(-1, 4)[:, 0] == -128).all()
    build = build_host(g, tmp_path / "c", "wrap.tflite", sanitize=True, object_cache=OBJECT_CACHE)
    _, results = run_on_target(Target.of("host"), build.program, g, samples)
    assert all(r.passed for r in results), [r.outputs for r in results]


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])  # the M4's DSP kernels, the M55's Helium ones
@pytest.mark.parametrize("kind", ["FULLY_CONNECTED", "CONV_2D"])
def test_int32_sums_wrap_alike_on_the_emulated_cores(tmp_path, kind, board):
    path = tmp_path / "wrap.tflite"
    path.write_bytes(_wrapping(kind).build())
    b = load_board(board)
    g = compile_model(path, features=b.features)
    program = build_board(g, b, OutDir(tmp_path / "fw"), "wrap.tflite").program
    _, results = run_on_target(Target.of(board), program, g, _wrap_samples(g))
    assert all(r.passed for r in results), [r.outputs for r in results]
