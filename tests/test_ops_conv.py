"""Randomized one-op models, convolutions: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV, int8 and
16x8 (host C == golden == TFLM, and == LiteRT BUILTIN_REF where it is bit-exact).

HYPOTHESIS_PROFILE=long runs 200 configurations per op; CI runs the fast profile.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcugen.targets.boards import load_board
from mcugen.validation.compare import compare_with_tflm, random_inputs
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from single_op import ACTS, DTYPES, ZP, check, io, out_size, scale
from tflite_writer import ModelSpec


@st.composite
def conv_case(draw, depthwise=False):
    h, w = draw(st.integers(1, 10)), draw(st.integers(1, 10))
    kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    pad = draw(st.sampled_from(["SAME", "VALID"]))
    oh, ow = out_size(pad, h, kh, sh, dh), out_size(pad, w, kw, sw, dw)
    cin = draw(st.integers(1, 6))
    mult = draw(st.integers(1, 3)) if depthwise else 1
    cout = cin * mult if depthwise else draw(st.integers(1, 6))
    per_channel = draw(st.booleans())
    w_scales = draw(st.lists(scale(1e-6, 1.0), min_size=cout, max_size=cout)) if per_channel \
        else [draw(scale(1e-6, 1.0))] * cout
    return dict(h=h, w=w, kh=kh, kw=kw, sh=sh, sw=sw, dh=dh, dw=dw, pad=pad, oh=oh, ow=ow, cin=cin,
                cout=cout, mult=mult, w_scales=w_scales if per_channel else w_scales[:1],
                in_q=(draw(scale()), draw(ZP)), out_q=(draw(scale(1e-3, 4.0)), draw(ZP)),
                act=draw(ACTS), bias=draw(st.booleans()), seed=draw(st.integers(0, 2**16)),
                batch=1 if depthwise else draw(st.integers(1, 2)))


def _conv_model(c, depthwise, activations="int8", bias_type="int32"):
    """int16 activations (16x8) have zero points 0, as the converter makes them."""
    if c["oh"] < 1 or c["ow"] < 1:
        return None
    rng = np.random.default_rng(c["seed"])
    m = ModelSpec()
    zp = (lambda z: z) if activations == "int8" else (lambda z: 0)
    x = m.tensor("x", [c["batch"], c["h"], c["w"], c["cin"]], activations, scale=c["in_q"][0], zp=zp(c["in_q"][1]))
    wshape = [1, c["kh"], c["kw"], c["cout"]] if depthwise else [c["cout"], c["kh"], c["kw"], c["cin"]]
    axis = 3 if depthwise else 0
    weights = m.const("w", rng.integers(-127, 128, wshape), "int8", scale=c["w_scales"],
                      zp=[0] * len(c["w_scales"]), axis=axis)
    inputs = [x, weights]
    if c["bias"]:
        bscale = [c["in_q"][0] * s for s in np.resize(c["w_scales"], c["cout"])]
        inputs += [m.const("b", rng.integers(-5000, 5000, c["cout"]), bias_type, scale=bscale,
                             zp=[0] * c["cout"])]
    y = m.tensor("y", [c["batch"], c["oh"], c["ow"], c["cout"]], activations, scale=c["out_q"][0],
                 zp=zp(c["out_q"][1]))
    m.inputs, m.outputs = [x], [y]
    fields = dict(Padding=c["pad"], StrideW=c["sw"], StrideH=c["sh"], DilationWFactor=c["dw"],
                  DilationHFactor=c["dh"], FusedActivationFunction=c["act"])
    if depthwise:
        m.op("DEPTHWISE_CONV_2D", inputs, [y], "DepthwiseConv2DOptions", version=3,
             DepthMultiplier=c["mult"], **fields)
    else:
        m.op("CONV_2D", inputs, [y], "Conv2DOptions", version=3, **fields)
    return m


def _conv_oracles(c):
    return ("tflm", "litert") if c["bias"] else ("tflm",)  # LiteRT's conv insists on a bias


@given(conv_case())
def test_conv_2d(tmp_path_factory, c):
    m = _conv_model(c, depthwise=False)
    if m is not None:
        check(tmp_path_factory.mktemp("conv"), m, c["seed"], oracles=_conv_oracles(c))


@given(conv_case(depthwise=True))
def test_depthwise_conv_2d(tmp_path_factory, c):
    m = _conv_model(c, depthwise=True)
    if m is not None:
        check(tmp_path_factory.mktemp("dw"), m, c["seed"], oracles=_conv_oracles(c))


@given(conv_case(), st.sampled_from(["int64", "int32"]))
def test_conv_2d_16x8(tmp_path_factory, c, bias_type):
    """int16 activations, int8 weights, an int64 accumulator (or an int32 one, with an int32 bias)."""
    m = _conv_model(c, depthwise=False, activations="int16", bias_type=bias_type)
    if m is not None:
        check(tmp_path_factory.mktemp("conv16"), m, c["seed"], oracles=("tflm",))


@given(conv_case(depthwise=True))
def test_depthwise_conv_2d_16x8(tmp_path_factory, c):
    m = _conv_model(c, depthwise=True, activations="int16", bias_type="int64")
    if m is not None:
        check(tmp_path_factory.mktemp("dw16"), m, c["seed"], oracles=("tflm",))


def fc16_model(batch, depth, units, bias, bias_type, s_in, s_w, s_out, act, seed) -> ModelSpec:
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [batch, depth], "int16", scale=s_in, zp=0)
    w = m.const("w", rng.integers(-127, 128, (units, depth)), "int8", scale=s_w, zp=0)
    inputs = [x, w]
    if bias:
        inputs.append(m.const("b", rng.integers(-50000, 50000, units), bias_type, scale=s_in * s_w, zp=0))
    y = m.tensor("y", [batch, units], "int16", scale=s_out, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", inputs, [y], "FullyConnectedOptions", version=7, FusedActivationFunction=act)
    return m


FC16_CASES = (st.integers(1, 3), st.integers(1, 24), st.integers(1, 12), st.booleans(),
              st.sampled_from(["int64", "int32"]), scale(1e-5, 1e-2), scale(1e-4, 0.1), scale(1e-5, 1e-2), ACTS, st.integers(0, 2**16))


@given(*FC16_CASES)
def test_fully_connected_16x8(tmp_path_factory, batch, depth, units, bias, bias_type, s_in, s_w, s_out, act, seed):
    m = fc16_model(batch, depth, units, bias, bias_type, s_in, s_w, s_out, act, seed)
    check(tmp_path_factory.mktemp("fc16"), m, seed, oracles=("tflm",))


@given(st.integers(1, 3), st.integers(1, 24), st.integers(1, 12), st.booleans(), st.booleans(),
       scale(), ZP, scale(1e-4, 0.1), scale(1e-3, 4.0), ZP, ACTS, st.integers(0, 2**16))
def test_fully_connected(tmp_path_factory, batch, depth, units, bias, keep, s_in, z_in, s_w, s_out,
                         z_out, act, seed):
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x, y = io(m, [batch, depth], [batch, units], (s_in, z_in), (s_out, z_out))
    w = m.const("w", rng.integers(-127, 128, (units, depth)), "int8", scale=s_w, zp=0)
    b = m.const("b", rng.integers(-3000, 3000, units), "int32", scale=s_in * s_w, zp=0) if bias else -1
    m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", version=4,
         FusedActivationFunction=act, KeepNumDims=keep)
    # LiteRT's reference FC rounds once in float: TFLM is the only bit-exact oracle here.
    check(tmp_path_factory.mktemp("fc"), m, seed, oracles=("tflm",))


@pytest.mark.parametrize("zp", [-128, 127])
def test_conv_extreme_zero_points(tmp_path, zp):
    c = dict(h=5, w=7, kh=1, kw=3, sh=3, sw=4, dh=1, dw=1, pad="SAME", cin=3, cout=2, mult=1,
             w_scales=[1e-6, 1.0], in_q=(0.05, zp), out_q=(0.1, -zp - 1), act="NONE", bias=True,
             seed=zp & 0xFF, batch=1)
    c["oh"], c["ow"] = out_size("SAME", 5, 1, 3), out_size("SAME", 7, 3, 4)
    check(tmp_path, _conv_model(c, depthwise=False), 7)


@given(st.integers(1, 16), st.integers(1, 8), scale(1e-3, 0.1), ZP, scale(1e-3, 0.1), ZP, st.integers(0, 999))
def test_mixed_precision_int8_and_16x8_segments(tmp_path_factory, depth, units, s_in, z_in, s_out, z_out, seed):
    """int8 FC -> QUANTIZE int8->int16 -> 16x8 FC (int64 bias) -> QUANTIZE int16->int8 -> int8 FC: the
    segments and their joints as TFLM runs them."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [1, depth], "int8", scale=s_in, zp=z_in)

    def fc(name, inp, dtype, s_x, s_y, z_y, bias_type):
        w = m.const(f"{name}_w", rng.integers(-127, 128, (units, m.tensors[inp]["shape"][1])), "int8", scale=0.02, zp=0)
        b = m.const(f"{name}_b", rng.integers(-3000, 3000, units), bias_type, scale=s_x * 0.02, zp=0)
        y = m.tensor(name, [1, units], dtype, scale=s_y, zp=z_y)
        m.op("FULLY_CONNECTED", [inp, w, b], [y], "FullyConnectedOptions", version=7)
        return y

    a = fc("a", x, "int8", s_in, s_out, z_out, "int32")
    a16 = m.tensor("a16", [1, units], "int16", scale=s_out / 256, zp=0)
    m.op("QUANTIZE", [a], [a16])
    b16 = fc("b16", a16, "int16", s_out / 256, s_out / 128, 0, "int64")
    b8 = m.tensor("b8", [1, units], "int8", scale=s_out, zp=z_out)
    m.op("QUANTIZE", [b16], [b8])
    y = fc("y", b8, "int8", s_out, s_out, z_out, "int32")
    m.inputs, m.outputs = [x], [y]
    check(tmp_path_factory.mktemp("mixed"), m, seed, oracles=("tflm",))


@given(DTYPES, st.integers(1, 4), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3),
       st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.sampled_from(["SAME", "VALID"]), ACTS, st.data(),
       st.integers(0, 99))
def test_transpose_conv(tmp_path_factory, dtype, h, w, cin, cout, kh, kw, sh, sw, padding, act, data, seed):
    """int8 (int32 bias, zero points) and 16x8 (int64 bias, or int16, which TFLM widens), per-channel filter
    scales."""
    rng = np.random.default_rng(seed)
    oh, ow = (h * sh, w * sw) if padding == "SAME" else ((h - 1) * sh + kh, (w - 1) * sw + kw)
    zx, zy = (0, 0) if dtype == "int16" else (data.draw(ZP), data.draw(ZP))
    s_in, s_out = (0.01, 0.05) if dtype == "int8" else (1e-4, 5e-4)
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, cin], dtype, scale=s_in, zp=zx)
    shape = m.const("shape", [1, oh, ow, cout], "int32")
    wt = m.const("w", rng.integers(-127, 128, (cout, kh, kw, cin)), "int8",
                 scale=[float(s) for s in rng.uniform(0.001, 0.02, cout)], zp=[0] * cout)
    bias_type = data.draw(st.sampled_from(["int64", "int16"])) if dtype == "int16" else "int32"
    b = m.const("b", rng.integers(-3000, 3000, cout), bias_type, scale=1e-4, zp=0)
    y = m.tensor("y", [1, oh, ow, cout], dtype, scale=s_out, zp=zy)
    m.inputs, m.outputs = [x], [y]
    m.op("TRANSPOSE_CONV", [shape, wt, x, b], [y], "TransposeConvOptions", version=3, Padding=padding, StrideH=sh,
         StrideW=sw, FusedActivationFunction=act)
    check(tmp_path_factory.mktemp("transpose_conv"), m, seed, oracles=("tflm",))


def test_int16_kernels_on_the_emulated_board(tmp_path):
    """The int16 kernels of this file chained in one model, bit-exact on the emulated Cortex-M4 too
    (golden == TFLM on every layer, the board's C == golden)."""
    rng = np.random.default_rng(3)
    m = ModelSpec()
    x = m.tensor("x", [1, 4, 4, 3], "int16", scale=1e-3, zp=0)
    t1 = m.tensor("t1", [1, 8, 8, 4], "int16", scale=2e-3, zp=0)
    m.op("TRANSPOSE_CONV", [m.const("shape", [1, 8, 8, 4], "int32"),
                            m.const("w", rng.integers(-127, 128, (4, 3, 3, 3)), "int8", scale=[0.01] * 4, zp=[0] * 4),
                            x, m.const("b", rng.integers(-999, 999, 4), "int64", scale=1e-5, zp=0)], [t1],
         "TransposeConvOptions", version=3, Padding="SAME", StrideH=2, StrideW=2)
    k = m.const("k", rng.integers(-9999, 9999, 4), "int16", scale=1e-3, zp=0)
    t2, t3, t4, t5 = (m.tensor(f"t{i}", [1, 8, 8, 4], "int16", scale=s, zp=z)
                      for i, s, z in ((2, 3e-3, 17), (3, 3e-3, -5), (4, 2e-2, 0), (5, 2e-2, 0)))
    m.op("ADD", [t1, k], [t2], "AddOptions", version=2)
    m.op("SUB", [t2, k], [t3], "SubOptions", version=2)
    m.op("MUL", [t1, t1], [t4], "MulOptions", version=2)
    m.op("LEAKY_RELU", [t4], [t5], "LeakyReluOptions", version=2, Alpha=0.25)
    t6 = m.tensor("t6", [1, 10, 10, 4], "int16", scale=2e-2, zp=0)
    m.op("PAD", [t5, m.const("pads", [[0, 0], [1, 1], [1, 1], [0, 0]], "int32")], [t6], version=2)
    mean = m.tensor("mean", [1, 1, 1, 4], "int16", scale=1e-2, zp=3)
    m.op("MEAN", [t6, m.const("axes", [1, 2], "int32")], [mean], "ReducerOptions", version=2, KeepDims=True)
    sig, tanh = (m.tensor(n, [1, 10, 10, 4], "int16", scale=1 / 32768, zp=0) for n in ("sig", "tanh"))
    m.op("LOGISTIC", [t6], [sig], version=3)
    m.op("TANH", [t6], [tanh], version=3)
    joined = m.tensor("joined", [1, 10, 10, 8], "int16", scale=1 / 32768, zp=0)
    m.op("CONCATENATION", [sig, tanh], [joined], "ConcatenationOptions", Axis=3)
    top = m.tensor("top", [1, 8, 8, 4], "int16", scale=3e-3, zp=-5)
    m.op("MAXIMUM", [t3, t2], [top], version=2)
    halves = [m.tensor(f"half{i}", [1, 10, 10, 4], "int16", scale=1 / 32768, zp=0) for i in range(2)]
    m.op("SPLIT", [m.const("axis", [3], "int32"), joined], halves, "SplitOptions", NumSplits=2)
    turned = m.tensor("turned", [1, 10, 4, 10], "int16", scale=1 / 32768, zp=0)
    m.op("TRANSPOSE", [halves[0], m.const("perm", [0, 1, 3, 2], "int32")], [turned], version=6)
    small = m.tensor("small", [1, 3, 7, 4], "int16", scale=1 / 32768, zp=0)
    m.op("RESIZE_NEAREST_NEIGHBOR", [halves[1], m.const("size", [3, 7], "int32")], [small],
         "ResizeNearestNeighborOptions", version=4)
    m.inputs, m.outputs = [x], [mean, joined, top, turned, small]
    path = tmp_path / "int16.tflite"
    path.write_bytes(m.build())
    g = compile_model(path)
    xs = random_inputs(g, 2, seed=4)
    assert compare_with_tflm(g, path, xs) is None
    program = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "board"), "int16").program
    _, results = run_on_target(Target.of("mps2-an386"), program, g, xs)
    assert all(r.passed for r in results), [r.outputs for r in results]
