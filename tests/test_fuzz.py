"""Hostile model files: every case ends in "supported and bit-exact with TFLM" or one clean error
(a McugenError: one line, what is wrong and what to do), never another exception, never a hang.

Cases: valid small models from the project's writer with one field or constant parameter rewritten
to a hostile value (the structure-aware part: options, scales on every tensor kind, zero points,
shapes, types in and outside the schema, quantization removed, options tables deleted or under
another union type, builtin/deprecated op codes that disagree, constant or repeated graph inputs
and outputs, ...), byte flips and truncations of small
models (check_flatbuffer.py refuses flips anywhere in the file, as TFLM's loader does), and real stateful,
recurrent and int16 models edited field by field (resource variables' names, containers and CALL_ONCE
index, the init subgraph, op codes, an output's quantization, inputs omitted, ranks, tiny scales). Accepted cases
run golden vs TFLM (in its child process) on a random input, and some of them as host C under
ASan+UBSan. CI runs the fast budget (>= 500 cases); HYPOTHESIS_PROFILE=long runs >= 5,000.
"""
from __future__ import annotations

import os
import signal
import zlib
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from conftest import OBJECT_CACHE, MODELS
from mcugen.validation import golden
from mcugen.codegen.build import build_host
from mcugen.validation.compare import differences, random_inputs
from mcugen.errors import McugenError
from mcugen.validation.oracle import Tflm
from mcugen.codegen.pipeline import compile_model
from mcugen.passes.check_undefined_reads import defined_elements
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from model_edit import load, opcode, pack
from tflite_writer import ModelSpec

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
BUDGET = dict(max_examples=2500 if LONG else 180)  # per test (HYPOTHESIS_PROFILE=long: 2,500)
SANITIZE_ONE_IN = 8  # accepted cases whose host C also runs under the sanitizers
CASE_SECONDS = 60

HOSTILE_INTS = [0, -1, -5, 2, 3, 127, 128, 255, 256, 65535, 1 << 30, (1 << 31) - 1, -(1 << 31)]
ENUM_FIELDS = ("Padding", "FusedActivationFunction")  # int8 in the schema
HOSTILE_ENUMS = [-1, 2, 4, 6, 7, 100, -128]
HOSTILE_SCALES = [0.0, -0.5, float("nan"), float("inf"), float("-inf"), 1e-38, 1e-45, 3.4e38, 1e30, 1e-20, 1e-9, 1e-12,
                  1e-15]


@contextmanager
def time_limit(seconds: int):
    def hang(*_):
        raise TimeoutError(f"no verdict within {seconds} s")
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class Case(tuple):
    """(file bytes, what was done to them), shown by its description and size: hypothesis prints a failing
    case, and the whole file would bury the report (judge() keeps the file as case.tflite)."""

    def __repr__(self) -> str:
        return f"Case({self[1]!r}, {len(self[0])} bytes, crc32 {zlib.crc32(self[0]):08x})"


def judge(blob: bytes, tmp_path) -> str:
    """'refused' or 'bit-exact'; anything else fails the test. The case stays in tmp_path as case.tflite (the
    reproducer; MCUGEN_FUZZ_KEEP=DIR copies each failing one there)."""
    path = tmp_path / "case.tflite"
    path.write_bytes(blob)
    keep = os.environ.get("MCUGEN_FUZZ_KEEP")
    try:
        return _judge(blob, path, tmp_path)
    except BaseException:
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, f"{zlib.crc32(blob):08x}.tflite"), "wb") as f:
                f.write(blob)
        raise


def _judge(blob: bytes, path, tmp_path) -> str:
    with time_limit(CASE_SECONDS):
        try:
            g = compile_model(path)
        except McugenError as exc:
            assert "\n" not in str(exc) and str(exc), repr(exc)
            return "refused"
        xs = random_inputs(g, 1, seed=zlib.crc32(blob))[0]
        try:
            ours = golden.run(g, xs)
        except McugenError:  # a run-time refusal, as TFLM's (RSQRT of a negative value)
            return "refused"
        theirs = Tflm(blob).run(xs, len(g.outputs))  # TFLM refusing what mcugen accepted fails here
        masks = defined_elements(g)  # what TFLM leaves as its arena held it is no one's to compare
        for k, (a, b) in enumerate(zip(ours, theirs)):
            if g.outputs[k] in masks:
                a, b = a[masks[g.outputs[k]]], b.reshape(a.shape)[masks[g.outputs[k]]]
            assert a.dtype == b.dtype and a.size == b.size, f"output {k}: {a.dtype}{a.shape} vs TFLM {b.dtype}{b.shape}"
            differing, worst = differences(a.reshape(-1), b.reshape(-1))
            assert differing == 0, f"accepted, but output {k} differs from TFLM in {differing} values (max {worst})"
        if zlib.crc32(blob) % SANITIZE_ONE_IN == 0:
            build = build_host(g, tmp_path / "c", "case.tflite", sanitize=True, object_cache=OBJECT_CACHE)
            _, results = run_on_target(Target.of("host"), build.program, g, [xs])
            assert results[0].passed, results[0].outputs
        return "bit-exact"


# -- structure-aware: a valid model, one field rewritten ---------------------------------------------
def _conv(m, rng, depthwise):
    x = m.tensor("x", [1, 6, 5, 3], "int8", scale=0.05, zp=-2)
    cout = 6 if depthwise else 4
    w_shape = [1, 3, 3, cout] if depthwise else [cout, 3, 3, 3]
    w = m.const("w", rng.integers(-127, 128, w_shape), "int8", scale=[0.02] * cout, zp=[0] * cout,
                axis=3 if depthwise else 0)
    b = m.const("b", rng.integers(-500, 500, cout), "int32", scale=[0.001] * cout, zp=[0] * cout)
    y = m.tensor("y", [1, 3, 3, cout], "int8", scale=0.1, zp=3)
    fields = dict(Padding="SAME", StrideH=2, StrideW=2, DilationHFactor=1, DilationWFactor=1,
                  FusedActivationFunction="RELU")
    if depthwise:
        m.op("DEPTHWISE_CONV_2D", [x, w, b], [y], "DepthwiseConv2DOptions", version=2, DepthMultiplier=2, **fields)
    else:
        m.op("CONV_2D", [x, w, b], [y], "Conv2DOptions", version=3, **fields)
    return x, y


def _fc(m, rng):
    x = m.tensor("x", [2, 8], "int8", scale=0.05, zp=1)
    w = m.const("w", rng.integers(-127, 128, (5, 8)), "int8", scale=0.02, zp=0)
    b = m.const("b", rng.integers(-500, 500, 5), "int32", scale=0.001, zp=0)
    y = m.tensor("y", [2, 5], "int8", scale=0.2, zp=-7)
    m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", version=4, FusedActivationFunction="NONE")
    return x, y


def _pool(m, rng):
    x = m.tensor("x", [1, 6, 6, 2], "int8", scale=0.05, zp=1)
    y = m.tensor("y", [1, 3, 3, 2], "int8", scale=0.05, zp=1)
    m.op("AVERAGE_POOL_2D", [x], [y], "Pool2DOptions", Padding="VALID", StrideH=2, StrideW=2,
         FilterHeight=2, FilterWidth=2, FusedActivationFunction="NONE")
    return x, y


def _binary(opcode: str, out_scale: float):
    """x [1, 4, 3] (op) a constant [1, 1, 3], broadcast, int8."""
    def make(m, rng):
        x = m.tensor("x", [1, 4, 3], "int8", scale=0.05, zp=1)
        c = m.const("c", rng.integers(-128, 128, (1, 1, 3)), "int8", scale=0.03, zp=-4)
        y = m.tensor("y", [1, 4, 3], "int8", scale=out_scale, zp=2)
        m.op(opcode, [x, c], [y], f"{opcode.capitalize()}Options", version=2, FusedActivationFunction="NONE")
        return x, y
    return make


_add = _binary("ADD", 0.07)


def _softmax(m, rng):
    x = m.tensor("x", [2, 10], "int8", scale=0.1, zp=3)
    y = m.tensor("y", [2, 10], "int8", scale=1 / 256, zp=-128)
    m.op("SOFTMAX", [x], [y], "SoftmaxOptions", Beta=1.0)
    return x, y


def _softmax16(m, rng):
    x = m.tensor("x", [2, 10], "int16", scale=0.001, zp=0)
    y = m.tensor("y", [2, 10], "int16", scale=1 / 32768, zp=0)
    m.op("SOFTMAX", [x], [y], "SoftmaxOptions", version=3, Beta=1.0)
    return x, y


def _reshape(m, rng):
    x = m.tensor("x", [1, 2, 6], "int8", scale=0.1, zp=3)
    y = m.tensor("y", [1, 12], "int8", scale=0.1, zp=3)
    m.op("RESHAPE", [x, m.const("shape", [1, 12], "int32")], [y], "ReshapeOptions", NewShape=[1, 12])
    return x, y


def _activation(opcode, out_scale, out_zp, bits=8, options=None, **fields):
    """One activation op (LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, ...) on int8 or int16 values."""
    def make(m, rng):
        dtype = f"int{bits}"
        x = m.tensor("x", [2, 5], dtype, scale=0.03 if bits == 8 else 0.001, zp=-3 if bits == 8 else 0)
        y = m.tensor("y", [2, 5], dtype, scale=out_scale, zp=out_zp)
        m.op(opcode, [x], [y], options, version=2, **fields)
        return x, y
    return make


def _fc16(m, rng):
    x = m.tensor("x", [2, 8], "int16", scale=0.001, zp=0)
    w = m.const("w", rng.integers(-127, 128, (5, 8)), "int8", scale=0.02, zp=0)
    b = m.const("b", rng.integers(-500, 500, 5), "int64", scale=0.00002, zp=0)
    y = m.tensor("y", [2, 5], "int16", scale=0.002, zp=0)
    m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", version=7)
    return x, y


def _shaping(opcode, options, out_shape, params, **fields):
    """A data-movement op on x [2, 3, 4] whose parameters are constant int32 tensors."""
    def make(m, rng):
        x = m.tensor("x", [2, 3, 4], "int8", scale=0.1, zp=3)
        y = m.tensor("y", out_shape, "int8", scale=0.1, zp=3)
        consts = [m.const(name, values, "int32") for name, values in params]
        inputs = [x, *consts] if opcode != "SPLIT" else [*consts, x]
        m.op(opcode, inputs, [y], options, **fields)
        return x, y
    return make


BASES = {"conv": lambda m, r: _conv(m, r, False), "depthwise": lambda m, r: _conv(m, r, True), "fc": _fc,
         "pool": _pool, "add": _add, "softmax": _softmax, "reshape": _reshape,
         "pad": _shaping("PAD", "PadOptions", [2, 5, 5], [("paddings", [[0, 0], [1, 1], [0, 1]])]),
         "transpose": _shaping("TRANSPOSE", "TransposeOptions", [4, 2, 3], [("perm", [2, 0, 1])]),
         "mean": _shaping("MEAN", "ReducerOptions", [2, 1, 4], [("axes", [1])], KeepDims=True),
         "slice": _shaping("STRIDED_SLICE", "StridedSliceOptions", [2, 2, 2],
                           [("begin", [0, 1, 0]), ("end", [2, 3, 4]), ("strides", [1, 1, 2])]),
         "split": _shaping("SPLIT", "SplitOptions", [2, 3, 4], [("axis", [1])], NumSplits=1),
         "gather": _shaping("GATHER", "GatherOptions", [2, 2, 4], [("indices", [2, 0])], Axis=1),
         "mul": _binary("MUL", 0.01), "fc16": _fc16,
         "logistic": _activation("LOGISTIC", 1 / 256, -128), "tanh": _activation("TANH", 1 / 128, 0),
         "hard swish": _activation("HARD_SWISH", 0.02, -5),
         "leaky relu": _activation("LEAKY_RELU", 0.03, -3, options="LeakyReluOptions", Alpha=0.2),
         "logistic16": _activation("LOGISTIC", 1 / 32768, 0, bits=16),
         "leaky relu16": _activation("LEAKY_RELU", 0.002, 0, bits=16, options="LeakyReluOptions", Alpha=0.2),
         "softmax16": lambda m, r: _softmax16(m, r)}  # not TILE: TFLM has no int8 TILE to judge by


@st.composite
def rewritten_models(draw):
    base = draw(st.sampled_from(sorted(BASES)))
    m = ModelSpec()
    x, y = BASES[base](m, np.random.default_rng(draw(st.integers(0, 99))))
    m.inputs, m.outputs = [x], [y]
    op = m.ops[0]
    ti = draw(st.integers(0, len(m.tensors) - 1))
    t = m.tensors[ti]
    kind = draw(st.sampled_from(["option", "scale", "zero point", "shape", "axis", "no data", "drop options",
                                 "op input", "op output", "graph io", "dtype", "per-channel count",
                                 "parameter", "no quantization", "options type", "op codes", "shape signature",
                                 "int4", "float constant", "signatures"]))
    scalar_fields = sorted(k for k, v in op["fields"].items() if not isinstance(v, (list, bool)))
    if kind == "option" and scalar_fields:
        key = draw(st.sampled_from(scalar_fields))
        op["fields"][key] = draw(st.sampled_from(
            HOSTILE_SCALES if key == "Beta" else HOSTILE_ENUMS if key in ENUM_FIELDS else HOSTILE_INTS))
    elif kind == "scale" and t["scale"] is not None:
        bad = draw(st.sampled_from(HOSTILE_SCALES))
        t["scale"] = [bad] * len(t["scale"]) if isinstance(t["scale"], list) else bad
    elif kind == "zero point" and t["scale"] is not None:
        bad = draw(st.sampled_from([-129, 128, 255, -1000, 1 << 40, 5]))
        t["zp"] = [bad] * len(t["zp"]) if isinstance(t["zp"], list) else bad
    elif kind == "shape":
        t["shape"] = draw(st.sampled_from([[], [0], [1, 16, 1], [(1 << 31) - 1], [1, 1 << 20, 1 << 12],
                                           [2] + t["shape"], t["shape"][:-1], [-3] + t["shape"][1:]]))
        if t["data"] is not None and draw(st.booleans()):
            t["data"] = None
    elif kind == "axis":
        t["axis"] = draw(st.sampled_from([-1, 1, 2, 3, 7, 1 << 20]))
    elif kind == "no data" and t["data"] is not None:
        t["data"] = None
    elif kind == "drop options":
        op["options"] = None
    elif kind == "options type":  # the union's type changed, the table kept or deleted
        op["options_type"] = draw(st.sampled_from([0, 1, 10, 17, 250, 127]))
        if draw(st.booleans()):
            op["options"] = None
    elif kind == "op codes":  # deprecated_builtin_code other than builtin_code says
        m.deprecated_codes[op["opcode"]] = draw(st.sampled_from([0, 3, 9, 22, 25, 127, -1]))
    elif kind == "no quantization" and t["scale"] is not None:
        t["scale"] = None
    elif kind == "op input":
        where = draw(st.integers(0, len(op["inputs"])))
        op["inputs"].insert(where, draw(st.sampled_from([-5, 1 << 20, 0, len(m.tensors) - 1])))
    elif kind == "op output":
        op["outputs"] = draw(st.sampled_from([[], [0], [y, y], [1 << 20], [-1]]))
    elif kind == "graph io":
        const = next((k for k, c in enumerate(m.tensors) if c["data"] is not None), x)  # pool has none
        setattr(m, draw(st.sampled_from(["inputs", "outputs"])),
                draw(st.sampled_from([[], [1 << 20], [-2], [x, x], [y, y], [x, y], [const], [y, const], [x, const]])))
    elif kind == "dtype":
        # names: types numpy has; numbers: STRING, RESOURCE, INT4, BFLOAT16 and codes outside the schema
        t["dtype"] = draw(st.sampled_from(["int16", "uint8", "int32", "float32", "bool", "int64", 5, 13, 17, 18,
                                           99, 127]))
        if t["data"] is not None and isinstance(t["dtype"], str):
            t["data"] = np.asarray(t["data"]).astype(t["dtype"])
    elif kind == "parameter" and t["data"] is not None and t["dtype"] == "int32":
        values = np.array(t["data"]).reshape(-1)
        values[draw(st.integers(0, values.size - 1))] = draw(st.sampled_from(HOSTILE_INTS + [-3, 4, 5]))
        t["data"] = values.reshape(np.shape(t["data"]))
    elif kind == "per-channel count" and isinstance(t["scale"], list):
        k = draw(st.sampled_from([1, 2, len(t["scale"]) + 1]))
        t["scale"], t["zp"] = t["scale"][:1] * k, [0] * k
    elif kind == "shape signature":  # TFLM allocates from shape and never reads shape_signature
        rank = len(t["shape"])
        t["signature"] = draw(st.sampled_from([[-1] * rank, [-1, *t["shape"][1:]], [*t["shape"], 1], [],
                                               [1] * rank, [-5] * rank]))
    elif kind == "int4" and t["data"] is not None and t["dtype"] == "int8":
        t["dtype"] = "int4"  # the writer packs two to a byte, TFLM's order
        t["data"] = np.clip(np.asarray(t["data"]), -8, 7) if draw(st.booleans()) else np.asarray(t["data"]) % 16 - 8
    elif kind == "float constant" and t["data"] is not None:
        t["dtype"] = draw(st.sampled_from(["float32", "float16"]))
        t["data"] = np.asarray(t["data"]).astype(t["dtype"]) * draw(st.sampled_from([1.0, 1e-3, 1e30]))
        if draw(st.booleans()):
            t["scale"] = t["zp"] = None
    blob = m.build()
    if kind == "signatures":  # the model as one of a file's two entry points, the other a RELU
        from model_edit import with_signatures
        other = ModelSpec()
        z = other.tensor("z", [2, 3], "int8", scale=0.1, zp=1)
        r = other.tensor("r", [2, 3], "int8", scale=0.1, zp=-128)
        other.op("RELU", [z], [r])
        other.inputs, other.outputs = [z], [r]
        pair = [("main", blob), ("relu", other.build())]
        blob = with_signatures(dict(pair if draw(st.booleans()) else pair[::-1]))
    return Case((blob, f"{base}: {kind} of op 0 / tensor {ti} '{t['name']}'"))


@settings(**BUDGET)
@given(rewritten_models())
def test_a_rewritten_field_is_refused_or_bit_exact(tmp_path_factory, case):
    blob, description = case  # the description shows in hypothesis' report
    verdict = judge(blob, tmp_path_factory.mktemp("fuzz"))
    event(verdict)  # --hypothesis-show-statistics counts the verdicts, per mutation kind too
    event(f"{description.split(' of op')[0]}: {verdict}")


# -- byte level: truncations of small real models -------------------------------------------
SMALL = ["tflm_simple_add.tflite", "tflm_hello_world.tflite", "gen_keras_small_cnn.tflite", "tflm_micro_speech.tflite"]


@settings(**BUDGET)
@given(st.sampled_from(SMALL), st.floats(0, 1, exclude_max=True))
def test_a_truncated_file_is_refused_or_bit_exact(tmp_path_factory, name, fraction):
    blob = (MODELS / name).read_bytes()
    event(judge(blob[:int(fraction * len(blob))], tmp_path_factory.mktemp("fuzz")))


@pytest.mark.parametrize("name", SMALL)
def test_the_unmutated_sources_are_bit_exact(tmp_path, name):
    assert judge((MODELS / name).read_bytes(), tmp_path) == "bit-exact"


@settings(**BUDGET)
@given(st.sampled_from(SMALL), st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)),
                                        min_size=1, max_size=4))
def test_flipped_bytes_are_refused_or_bit_exact(tmp_path_factory, name, flips):
    blob = bytearray((MODELS / name).read_bytes())
    for where, mask in flips:
        blob[int(where * len(blob))] ^= mask
    event(judge(bytes(blob), tmp_path_factory.mktemp("fuzz")))


# -- real models, one field edited: stateful (resource variables, SVDF, LSTM) and int16 bases -------------
REAL = ["pypi_pmw_hey_jarvis.tflite", "tflm_mnist_lstm_int8.tflite", "tflm_keyword_scrambled_8bit.tflite",
        "mlzoo_ds_cnn_s_int16.tflite"]
TINY_SCALES = [1e-9, 1e-12, 1e-15, 1e-18, 3e-39]


@st.composite
def edited_real_models(draw):
    name = draw(st.sampled_from(REAL))
    model = load(MODELS / "real" / name)
    sub = model.subgraphs[0]
    kind = draw(st.sampled_from(["variable name", "container", "call once", "init subgraph", "op code",
                                 "output quantization", "input omitted", "rank", "tiny scale"]))
    k = draw(st.integers(0, len(sub.operators) - 1))
    op = sub.operators[k]
    handles = [o for s in model.subgraphs for o in s.operators if opcode(model, o) == "VAR_HANDLE"]
    calls = [o for o in sub.operators if opcode(model, o) == "CALL_ONCE"]
    t = sub.tensors[draw(st.integers(0, len(sub.tensors) - 1))]
    if kind in ("variable name", "container") and handles:
        handle = draw(st.sampled_from(handles)).builtinOptions
        value = draw(st.sampled_from([b"", b"other", handles[0].builtinOptions.sharedName, None]))
        setattr(handle, "sharedName" if kind == "variable name" else "container", value)
    elif kind == "call once" and calls:
        calls[0].builtinOptions.initSubgraphIndex = draw(st.sampled_from([-1, 0, 2, 1 << 20]))
    elif kind == "init subgraph" and len(model.subgraphs) > 1:
        del model.subgraphs[1:]
    elif kind == "op code":
        code = model.operatorCodes[op.opcodeIndex]
        new = draw(st.sampled_from([("deprecated 0", None), ("unknown", 250), ("custom", 32), ("ADD", 0),
                                    ("RESHAPE", 22), ("QUANTIZE", 114)]))
        if new[1] is None:
            code.deprecatedBuiltinCode = 0
        else:
            code.builtinCode, code.deprecatedBuiltinCode = new[1], min(new[1], 127)
            code.customCode = b"Mine" if new[0] == "custom" else None
    elif kind == "output quantization" and op.outputs:
        sub.tensors[op.outputs[0]].quantization = None
    elif kind == "input omitted" and op.inputs:
        op.inputs[draw(st.integers(0, len(op.inputs) - 1))] = -1
    elif kind == "rank" and t.shape is not None:
        shape = list(t.shape)
        t.shape = draw(st.sampled_from([[1, *shape], [*shape, 1], [1] * max(0, 7 - len(shape)) + shape, shape[1:]]))
        t.shapeSignature = None
    elif kind == "tiny scale" and t.quantization is not None and t.quantization.scale is not None:
        t.quantization.scale = [draw(st.sampled_from(TINY_SCALES))] * len(t.quantization.scale)
    return Case((pack(model), f"{name}: {kind}"))


@settings(**dict(BUDGET, max_examples=BUDGET["max_examples"] * 3 // 5))
@given(edited_real_models())
def test_an_edited_real_model_is_refused_or_bit_exact(tmp_path_factory, case):
    blob, description = case
    verdict = judge(blob, tmp_path_factory.mktemp("fuzz"))
    event(verdict)
    event(f"{description}: {verdict}")


# -- the signal library's front end, one field edited: flexbuffer options, custom codes, inputs, shapes -------
SIGNAL = ["tflm_audio_preprocessor_int8.tflite", "tflm_audio_preprocessor_float.tflite"]
SIGNAL_CODES = [b"SignalWindow", b"SignalFftAutoScale", b"SignalRfft", b"SignalEnergy", b"SignalFilterBank",
                b"SignalFilterBankSquareRoot", b"SignalFilterBankSpectralSubtraction", b"SignalPCAN",
                b"SignalFilterBankLog", b"SignalIrfft", b"SignalStacker", b"SignalDelay", b"SignalOverlapAdd",
                b"SignalFramer", b"SignalFoo", b"signalwindow", b""]
HOSTILE_OPTION_VALUES = [0, -1, 1, 2, 31, 32, 63, 64, 1 << 20, (1 << 31) - 1, -(1 << 31), 1 << 40, 0.5, 12.0, 1e30,
                         float("nan"), True, False, "x", b"\x00\x01", [1, 2]]


def _signal_options(draw, options: dict) -> bytes:
    """A custom op's flexbuffer map with one entry changed (its value, its type), dropped or added, or
    bytes that are no map at all."""
    from flatbuffers import flexbuffers
    how = draw(st.sampled_from(["value", "value", "value", "drop", "add", "not a map", "garbage", "empty"]))
    if how == "not a map":
        return bytes(flexbuffers.Dumps([1, 2, 3]))
    if how == "garbage":
        return bytes(draw(st.binary(min_size=1, max_size=24)))
    if how == "empty":
        return b""
    options = dict(options)
    if how == "add" or not options:
        options[draw(st.sampled_from(["T", "shift", "num_channels", "zzz"]))] = draw(
            st.sampled_from(HOSTILE_OPTION_VALUES))
    elif how == "drop":
        del options[draw(st.sampled_from(sorted(options)))]
    else:
        key = draw(st.sampled_from(sorted(options)))
        value = options[key]
        options[key] = draw(st.sampled_from(HOSTILE_OPTION_VALUES + ([float(value)] if not isinstance(value, bool)
                                                                      else [])))
    return bytes(flexbuffers.Dumps(options))


@st.composite
def edited_signal_models(draw):
    from flatbuffers import flexbuffers
    name = draw(st.sampled_from(SIGNAL))
    model = load(MODELS / name)
    sub = model.subgraphs[0]
    custom = [o for o in sub.operators if opcode(model, o) == "CUSTOM"]
    op = draw(st.sampled_from(custom))
    kind = draw(st.sampled_from(["options", "options", "options", "input dropped", "output dropped", "input added",
                                 "custom code", "declared shape", "graph input shape", "constant shape"]))
    if kind == "options":
        options = flexbuffers.Loads(bytes(op.customOptions)) if op.customOptions is not None else {}
        op.customOptions = list(_signal_options(draw, options)) or None
    elif kind == "input dropped" and op.inputs:
        del op.inputs[draw(st.integers(0, len(op.inputs) - 1))]
    elif kind == "output dropped" and op.outputs:
        del op.outputs[draw(st.integers(0, len(op.outputs) - 1))]
    elif kind == "input added":
        op.inputs.append(draw(st.sampled_from([-1, 0, op.inputs[0] if op.inputs else 0, len(sub.tensors) - 1])))
    elif kind == "custom code":
        # a new operator code, so that the op alone changes (another op may share the old one)
        model.operatorCodes.append(type(model.operatorCodes[op.opcodeIndex])())
        model.operatorCodes[-1].builtinCode = model.operatorCodes[-1].deprecatedBuiltinCode = 32  # CUSTOM
        model.operatorCodes[-1].customCode = draw(st.sampled_from(SIGNAL_CODES))
        op.opcodeIndex = len(model.operatorCodes) - 1
    elif kind in ("declared shape", "constant shape", "graph input shape"):
        if kind == "graph input shape":
            t = sub.tensors[sub.inputs[0]]
        else:
            pool = [t for t in sub.tensors if (model.buffers[t.buffer].data is not None) == (kind == "constant shape")]
            t = draw(st.sampled_from(pool))
        shape = list(t.shape)
        t.shape = draw(st.sampled_from([[2, *shape[1:]] if shape else [2], [*shape[:-1], shape[-1] + 1] if shape else [1],
                                        [*shape[:-1], max(shape[-1] - 1, 0)] if shape else [0], [1, *shape],
                                        shape[1:], []]))
        t.shapeSignature = None
    return Case((pack(model), f"{name}: {kind}"))


@settings(**dict(BUDGET, max_examples=BUDGET["max_examples"] * 3 // 5))
@given(edited_signal_models())
def test_an_edited_signal_model_is_refused_or_bit_exact(tmp_path_factory, case):
    blob, description = case
    verdict = judge(blob, tmp_path_factory.mktemp("fuzz"))
    event(verdict)
    event(f"{description}: {verdict}")
