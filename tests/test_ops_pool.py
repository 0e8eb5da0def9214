"""Randomized one-op models, pooling and reductions: the pools, MEAN, REDUCE_MAX, ARG_MAX / ARG_MIN."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from single_op import ACTS, DTYPES, ORACLES, ZP, ZP16, check, io, out_size, scale
from tflite_writer import ModelSpec


@given(st.sampled_from(["AVERAGE_POOL_2D", "MAX_POOL_2D"]), st.integers(1, 8), st.integers(1, 8),
       st.integers(1, 3), st.integers(1, 3), st.integers(1, 2), st.integers(1, 2), st.sampled_from(["SAME", "VALID"]),
       st.integers(1, 4), scale(1e-5, 1e-2), ACTS, st.integers(0, 99))
def test_pool_2d_int16(tmp_path_factory, opcode, h, w, kh, kw, sh, sw, pad, c, s, act, seed):
    oh, ow = out_size(pad, h, kh, sh), out_size(pad, w, kw, sw)
    if oh < 1 or ow < 1:
        return
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, c], "int16", scale=s, zp=0)
    y = m.tensor("y", [1, oh, ow, c], "int16", scale=s, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op(opcode, [x], [y], "Pool2DOptions", version=3, Padding=pad, StrideW=sw, StrideH=sh,
         FilterWidth=kw, FilterHeight=kh, FusedActivationFunction=act)
    check(tmp_path_factory.mktemp("pool16"), m, seed, oracles=("tflm",))


@given(st.sampled_from(["AVERAGE_POOL_2D", "MAX_POOL_2D"]), st.integers(1, 9), st.integers(1, 9),
       st.integers(1, 4), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3),
       st.sampled_from(["SAME", "VALID"]), st.integers(1, 5), scale(), ZP, ACTS, st.integers(0, 99))
def test_pool_2d(tmp_path_factory, opcode, h, w, kh, kw, sh, sw, pad, c, s, z, act, seed):
    oh, ow = out_size(pad, h, kh, sh), out_size(pad, w, kw, sw)
    if oh < 1 or ow < 1:
        return
    m = ModelSpec()
    x, y = io(m, [1, h, w, c], [1, oh, ow, c], (s, z), (s, z))
    m.op(opcode, [x], [y], "Pool2DOptions", version=2, Padding=pad, StrideW=sw, StrideH=sh,
         FilterWidth=kw, FilterHeight=kh, FusedActivationFunction=act)
    check(tmp_path_factory.mktemp("pool"), m, seed)


@given(st.sampled_from(["MEAN", "REDUCE_MAX"]), st.lists(st.integers(1, 6), min_size=1, max_size=4),
       st.data(), st.booleans(), DTYPES, scale(), scale(), st.integers(0, 99))
def test_reduce(tmp_path_factory, opcode, shape, data, keep, dtype, s_in, s_out, seed):
    dtype = "int8" if opcode == "REDUCE_MAX" else dtype
    zp = ZP if dtype == "int8" else ZP16
    z_in, z_out = data.draw(zp), data.draw(zp)
    axes = sorted(data.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1)))
    out = [1 if i in axes else d for i, d in enumerate(shape)] if keep else \
        [d for i, d in enumerate(shape) if i not in axes]
    out_q = (s_out, z_out) if opcode == "MEAN" else (s_in, z_in)
    m = ModelSpec()
    x, y = io(m, shape, out, (s_in, z_in), out_q, dtype)
    ax = m.const("axes", axes, "int32")
    m.op(opcode, [x, ax], [y], "ReducerOptions", version=2, KeepDims=keep)
    check(tmp_path_factory.mktemp("reduce"), m, seed, oracles=ORACLES[dtype])


@given(st.sampled_from(["ARG_MAX", "ARG_MIN"]), st.lists(st.integers(1, 6), min_size=1, max_size=4),
       st.data(), scale(), ZP, st.integers(0, 99))
def test_arg_min_max(tmp_path_factory, opcode, shape, data, s, z, seed):
    axis = data.draw(st.integers(0, len(shape) - 1))
    m = ModelSpec()
    x = m.tensor("x", shape, "int8", scale=s, zp=z)
    y = m.tensor("y", shape[:axis] + shape[axis + 1:], "int32")
    m.inputs, m.outputs = [x], [y]
    options = "ArgMaxOptions" if opcode == "ARG_MAX" else "ArgMinOptions"
    m.op(opcode, [x, m.const("axis", [axis], "int32")], [y], options, version=2, OutputType=2)
    # few distinct values, so that ties (the first position wins) are common
    xs = [np.random.default_rng(seed).integers(-2, 2, size=shape).astype(np.int8)]
    check(tmp_path_factory.mktemp("arg"), m, seed, xs=xs)
