"""What the one-op tests share: check() runs one model through the golden model, the oracles and the
generated C on the host; strategies for scales and zero points; model builders used by several families."""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from conftest import OBJECT_CACHE
from mcugen.validation import golden
from mcugen.codegen.build import build_host
from mcugen.passes.check_undefined_reads import defined_elements
from mcugen.validation.compare import differences, random_input
from mcugen.validation.oracle import LiteRtRef, Tflm
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from tflite_writer import ModelSpec


ACTS = st.sampled_from(["NONE", "RELU", "RELU6", "RELU_N1_TO_1"])


ZP = st.integers(-128, 127)


ZP16 = st.integers(-32768, 32767)


def scale(lo=1e-3, hi=1.0):
    return st.floats(np.log(lo), np.log(hi)).map(lambda v: float(np.float32(np.exp(v))))


def check(tmp_path, m: ModelSpec, seed: int, oracles=("tflm", "litert"), reference=None, xs=None):
    """Golden vs each oracle and vs the generated C on the host, on one random input (or `xs`);
    reference(xs) is a plain numpy definition."""
    blob = m.build()
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "op.tflite"
    path.write_bytes(blob)
    g = compile_model(path)
    if xs is None:
        rng = np.random.default_rng(seed)
        xs = [random_input(g, i, rng) for i in g.inputs]
    ours = golden.run(g, xs)
    expected = {}
    if "tflm" in oracles:
        expected["TFLM"] = Tflm(blob).run(xs, len(g.outputs))
    if "litert" in oracles:
        expected["LiteRT REF"] = LiteRtRef(blob).run(xs)
    if reference is not None:
        expected["numpy definition"] = [reference(xs)]
    c_build = build_host(g, tmp_path / "c", "op.tflite", object_cache=OBJECT_CACHE)
    _, results = run_on_target(Target.of("host"), c_build.program, g, [xs])
    assert results[0].passed, f"host C differs from golden: {results[0].outputs}"
    masks = defined_elements(g)  # what TFLM leaves as its arena held it is no one's to compare
    for name, theirs in expected.items():
        for t, a, b in zip(g.outputs, ours, theirs):
            assert a.dtype == b.dtype and a.shape == tuple(b.shape), name
            if t in masks:
                a, b = a[masks[t]], np.asarray(b)[masks[t]]
            differing, worst = differences(a, b)  # floats: bit patterns
            assert differing == 0, f"{name}: {differing} differ, max {worst}"


def opcodes_of(tmp_path, m: ModelSpec) -> list[str]:
    """The ops of m as compiled for the host (what the folding passes left)."""
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    return [op.opcode for op in compile_model(path).ops]


def check_steps(tmp_path, m: ModelSpec, seed: int, steps: int = 6, oracle: str = "tflm", samples=None):
    """A stateful op over `steps` consecutive invocations (or those of `samples`), never reset: golden ==
    the oracle (TFLM, or "litert": LiteRT BUILTIN_REF) at every step, and the generated C on the host ==
    golden over the same sequence."""
    blob = m.build()
    path = tmp_path / "op.tflite"
    path.write_bytes(blob)
    g = compile_model(path)
    rng = np.random.default_rng(seed)
    if samples is None:
        samples = [[random_input(g, i, rng) for i in g.inputs] for _ in range(steps)]
    runner, theirs = golden.Runner(g), (LiteRtRef(blob) if oracle == "litert" else Tflm(blob))
    for xs in samples:
        expected = theirs.run(xs) if oracle == "litert" else theirs.run(xs, len(g.outputs))
        for a, b in zip(runner.run(xs), expected):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), f"{oracle}: {differences(a, b)}"
    c_build = build_host(g, tmp_path / "c", "op.tflite", object_cache=OBJECT_CACHE)
    _, results = run_on_target(Target.of("host"), c_build.program, g, samples)
    assert all(r.passed for r in results), f"host C differs from golden: {[r.outputs for r in results]}"


def io(m, in_shape, out_shape, in_q, out_q, dtype="int8"):
    x = m.tensor("x", in_shape, dtype, scale=in_q[0], zp=in_q[1])
    y = m.tensor("y", out_shape, dtype, scale=out_q[0], zp=out_q[1])
    m.inputs, m.outputs = [x], [y]
    return x, y


def out_size(padding, size, k, stride, dil=1):
    eff = (k - 1) * dil + 1
    return (size + stride - 1) // stride if padding == "SAME" else (size + stride - eff) // stride


DTYPES = st.sampled_from(["int8", "int16"])


ORACLES = {"int8": ("tflm", "litert"), "int16": ("tflm",)}


@st.composite
def broadcast_shapes(draw):
    rank = draw(st.integers(1, 4))
    base = draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank))
    other = [1 if draw(st.booleans()) else d for d in base]
    other = other[draw(st.integers(0, rank - 1)):] if draw(st.booleans()) else other
    return (base, other) if draw(st.booleans()) else (other, base)


def binary_model(opcode, shapes, dtype, q1, q2, q_out, act) -> ModelSpec:
    a_shape, b_shape = shapes
    out_shape = list(np.broadcast_shapes(tuple(a_shape), tuple(b_shape)))
    m = ModelSpec()
    a = m.tensor("a", a_shape, dtype, scale=q1[0], zp=q1[1])
    b = m.tensor("b", b_shape, dtype, scale=q2[0], zp=q2[1])
    y = m.tensor("y", out_shape, dtype, scale=q_out[0], zp=q_out[1])
    m.inputs, m.outputs = [a, b], [y]
    if opcode == "SQUARED_DIFFERENCE":
        m.op(opcode, [a, b], [y], version=2)
    else:
        options = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}[opcode]
        m.op(opcode, [a, b], [y], options, version=2, FusedActivationFunction=act)
    return m


def pool_model(opcode, h, w, kh, kw, stride, pad, channels, zp, act) -> ModelSpec | None:
    """One int8 AVERAGE_POOL_2D or MAX_POOL_2D on [1, h, w, channels], or None when no output fits."""
    oh, ow = out_size(pad, h, kh, stride), out_size(pad, w, kw, stride)
    if oh < 1 or ow < 1:
        return None
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, channels], "int8", scale=0.05, zp=zp)
    y = m.tensor("y", [1, oh, ow, channels], "int8", scale=0.05, zp=zp)
    m.inputs, m.outputs = [x], [y]
    m.op(opcode, [x], [y], "Pool2DOptions", version=2, Padding=pad, StrideW=stride, StrideH=stride,
         FilterWidth=kw, FilterHeight=kh, FusedActivationFunction=act)
    return m
