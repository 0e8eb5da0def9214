"""Randomized one-op models, elementwise: activations, SOFTMAX, the binary ops with broadcasting, PRELU,
MAXIMUM / MINIMUM, and the type conversions (QUANTIZE, DEQUANTIZE)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcugen.validation import golden
from mcugen.errors import McugenError
from mcugen.validation.oracle import Tflm
from mcugen.codegen.pipeline import compile_model
from single_op import ACTS, DTYPES, ORACLES, ZP, ZP16, binary_model, broadcast_shapes, check, io, scale
from tflite_writer import ModelSpec


@given(st.integers(1, 3), st.integers(1, 40), scale(1e-3, 2.0), ZP,
       st.floats(0.25, 2.0).map(lambda v: float(np.float32(v))), st.integers(0, 99))
def test_softmax(tmp_path_factory, rows, depth, s, z, beta, seed):
    m = ModelSpec()
    x, y = io(m, [rows, depth], [rows, depth], (s, z), (1 / 256, -128))
    m.op("SOFTMAX", [x], [y], "SoftmaxOptions", version=2, Beta=beta)
    check(tmp_path_factory.mktemp("softmax"), m, seed)


@given(st.integers(1, 3), st.integers(1, 40), scale(1e-3, 2.0), ZP, st.integers(0, 99))
def test_softmax_to_int16(tmp_path_factory, rows, depth, s, z, seed):
    m = ModelSpec()
    x = m.tensor("x", [rows, depth], "int8", scale=s, zp=z)
    y = m.tensor("y", [rows, depth], "int16", scale=1 / 65536, zp=-32768)
    m.inputs, m.outputs = [x], [y]
    m.op("SOFTMAX", [x], [y], "SoftmaxOptions", version=2, Beta=1.0)
    check(tmp_path_factory.mktemp("softmax16"), m, seed, oracles=("tflm",))


@given(st.integers(1, 3), st.integers(1, 40), scale(1e-5, 1e-2), st.floats(0.25, 2.0).map(lambda v: float(np.float32(v))),
       st.integers(0, 99))
def test_softmax_int16(tmp_path_factory, rows, depth, s, beta, seed):
    """TFLM's table-based int16 SOFTMAX (the tables built in float32 as its Prepare builds them)."""
    m = ModelSpec()
    x = m.tensor("x", [rows, depth], "int16", scale=s, zp=0)
    y = m.tensor("y", [rows, depth], "int16", scale=1 / 32768, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op("SOFTMAX", [x], [y], "SoftmaxOptions", version=3, Beta=beta)
    check(tmp_path_factory.mktemp("softmax_int16"), m, seed, oracles=("tflm",))


@given(st.sampled_from(["LOGISTIC", "TANH"]), st.lists(st.integers(1, 6), min_size=1, max_size=3),
       st.one_of(st.sampled_from([2.0 ** -13, 2.0 ** -12, 2.0 ** -11, 2.0 ** -10]), scale(1e-5, 1e-2)),
       st.integers(0, 99))
def test_logistic_tanh_int16(tmp_path_factory, opcode, shape, s_in, seed):
    """TFLM's int16 kernels: power-of-two input scales (3 << shift, TFLM's special case where it
    applies) and any other scale (a multiplier and a shift)."""
    m = ModelSpec()
    x = m.tensor("x", shape, "int16", scale=s_in, zp=0)
    y = m.tensor("y", shape, "int16", scale=1 / 32768, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op(opcode, [x], [y], version=3)
    check(tmp_path_factory.mktemp("sigmoid16"), m, seed, oracles=("tflm",))


@pytest.mark.parametrize("opcode", ["LOGISTIC", "TANH"])
@pytest.mark.parametrize("s_in", [3.0, 0.37, 11.0])
def test_logistic_tanh_int16_past_the_documented_multiplier(tmp_path, opcode, s_in):
    """Input scales whose multiplier passes 32767 (an int16x8 LSTM cell's gates, s_in x 12288): TFLM's
    Prepare checks that only in debug builds and runs it; past 65536 its int32 product wraps, as ours. Every
    int16 value, TFLM and the host C."""
    m = ModelSpec()
    x = m.tensor("x", [65536], "int16", scale=s_in, zp=0)
    y = m.tensor("y", [65536], "int16", scale=1 / 32768, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op(opcode, [x], [y], version=3)
    check(tmp_path, m, 0, oracles=("tflm",), xs=[np.arange(-32768, 32768).astype(np.int16)])


@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), scale(1e-5, 1e-2), ZP16, scale(1e-5, 1e-2), ZP16,
       st.floats(-0.9, 0.9).map(lambda v: float(np.float32(v))), st.integers(0, 99))
def test_leaky_relu_int16(tmp_path_factory, shape, s_in, z_in, s_out, z_out, alpha, seed):
    m = ModelSpec()
    x, y = io(m, shape, shape, (s_in, z_in), (s_out, z_out), "int16")
    m.op("LEAKY_RELU", [x], [y], "LeakyReluOptions", version=2, Alpha=alpha)
    check(tmp_path_factory.mktemp("leaky16"), m, seed, oracles=("tflm",))


UNARY_OUT = {"LOGISTIC": (1 / 256, -128), "TANH": (1 / 128, 0)}


@given(st.sampled_from(["LOGISTIC", "TANH", "RELU", "RELU6", "LEAKY_RELU", "HARD_SWISH", "QUANTIZE"]),
       st.lists(st.integers(1, 6), min_size=1, max_size=4), scale(1e-3, 1.0), ZP, scale(1e-3, 1.0), ZP,
       st.floats(-0.9, 0.9).map(lambda v: float(np.float32(v))), st.integers(0, 99))
def test_elementwise(tmp_path_factory, opcode, shape, s_in, z_in, s_out, z_out, alpha, seed):
    out_q = UNARY_OUT.get(opcode, (s_in, z_in) if opcode == "RELU6" else (s_out, z_out))
    if opcode == "HARD_SWISH" and out_q[0] < s_in / 128:
        out_q = (s_in, z_out)  # TFLM needs a non-positive output exponent
    m = ModelSpec()
    x, y = io(m, shape, shape, (s_in, z_in), out_q)
    if opcode == "LEAKY_RELU":
        m.op(opcode, [x], [y], "LeakyReluOptions", version=2, Alpha=alpha)
    else:
        m.op(opcode, [x], [y], version=2)
    # LiteRT's int8 RELU6 requantizes and its LEAKY_RELU/HARD_SWISH tables differ: TFLM only.
    check(tmp_path_factory.mktemp("unary"), m, seed, oracles=("tflm",)
          if opcode in ("RELU6", "LEAKY_RELU", "HARD_SWISH") else ("tflm", "litert"))


@given(st.sampled_from(["ADD", "SUB", "MUL", "SQUARED_DIFFERENCE"]), broadcast_shapes(), scale(1e-3, 1.0), ZP,
       scale(1e-3, 1.0), ZP, scale(1e-3, 2.0), ZP, ACTS, st.integers(0, 99))
def test_binary(tmp_path_factory, opcode, shapes, s1, z1, s2, z2, so, zo, act, seed):
    check(tmp_path_factory.mktemp("bin"), binary_model(opcode, shapes, "int8", (s1, z1), (s2, z2), (so, zo), act),
          seed)


@given(st.sampled_from(["ADD", "SUB", "MUL"]), broadcast_shapes(), scale(1e-5, 1e-2), ZP16, scale(1e-5, 1e-2),
       ZP16, scale(1e-5, 2e-2), ZP16, ACTS, st.integers(0, 99))
def test_binary_int16(tmp_path_factory, opcode, shapes, s1, z1, s2, z2, so, zo, act, seed):
    if opcode == "MUL":  # TFLM's int16 MUL takes zero points of 0 only
        z1 = z2 = zo = 0
    check(tmp_path_factory.mktemp("bin16"), binary_model(opcode, shapes, "int16", (s1, z1), (s2, z2), (so, zo), act),
          seed, oracles=("tflm",))


@pytest.mark.parametrize("opcode", ["ADD", "SUB", "MUL", "LEAKY_RELU"])
def test_int16_on_many_values(tmp_path, opcode):
    """20000 random values for each of four random quantizations: a rescale off in its low bits
    (multipliers made in float32 instead of double, as TFLM's source of August 2026 spells SUB's and
    LEAKY_RELU's but the oracle's TFLM does not) shows in a few values of thousands, which the small
    random shapes above rarely draw."""
    rng = np.random.default_rng(7)
    for k in range(4):
        s1, s2, so = (float(np.float32(np.exp(rng.uniform(np.log(1e-5), np.log(1e-2))))) for _ in range(3))
        z1, z2, zo = (0, 0, 0) if opcode == "MUL" else (int(z) for z in rng.integers(-2000, 2000, 3))
        if opcode == "LEAKY_RELU":
            m = ModelSpec()
            x, y = io(m, [20000], [20000], (s1, z1), (so, zo), "int16")
            m.op(opcode, [x], [y], "LeakyReluOptions", version=2, Alpha=float(np.float32(rng.uniform(-0.9, 0.9))))
        else:
            m = binary_model(opcode, ([20000], [20000]), "int16", (s1, z1), (s2, z2), (so, zo), "NONE")
        (tmp_path / str(k)).mkdir()
        check(tmp_path / str(k), m, k, oracles=("tflm",))


@given(st.sampled_from(["ABS", "RSQRT"]), st.lists(st.integers(1, 6), min_size=1, max_size=4),
       scale(1e-4, 2.0), ZP, scale(1e-3, 2.0), ZP, st.booleans(), st.integers(0, 99))
def test_abs_rsqrt(tmp_path_factory, opcode, shape, s_in, z_in, s_out, z_out, same_scale, seed):
    m = ModelSpec()
    x, y = io(m, shape, shape, (s_in, z_in), (s_in if same_scale else s_out, z_out))
    m.op(opcode, [x], [y], version=2)
    # RSQRT of a negative real fails the invoke in TFLM: feed values at or above the zero point
    low = z_in if opcode == "RSQRT" else -128
    xs = [np.random.default_rng(seed).integers(low, 128, size=shape).astype(np.int8)]
    check(tmp_path_factory.mktemp("abs_rsqrt"), m, seed, xs=xs)


def test_rsqrt_of_a_negative_input_stops_the_golden_model_as_it_stops_tflm(tmp_path):
    m = ModelSpec()
    x, y = io(m, [4], [4], (0.1, 3), (0.1, 0))
    m.op("RSQRT", [x], [y], version=2)
    path = tmp_path / "rsqrt.tflite"
    path.write_bytes(m.build())
    xs = [np.array([3, 4, 2, 10], dtype=np.int8)]
    with pytest.raises(McugenError, match="TFLM failed to run this model .*invocation failed"):
        Tflm(path.read_bytes()).run(xs, 1)
    with pytest.raises(McugenError, match="RSQRT .*negative input"):
        golden.run(compile_model(path), xs)


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data(), scale(1e-3, 1.0), ZP,
       scale(1e-3, 1.0), ZP, scale(1e-3, 1.0), ZP, st.integers(0, 99))
def test_prelu(tmp_path_factory, shape, data, s_in, z_in, s_a, z_a, s_out, z_out, seed):
    # alpha: the input's trailing axes, some of them 1 (one slope per channel is the usual case)
    tail = shape[data.draw(st.integers(0, len(shape) - 1)):]
    alpha_shape = [d if data.draw(st.booleans()) else 1 for d in tail]
    m = ModelSpec()
    x, y = io(m, shape, shape, (s_in, z_in), (s_out, z_out))
    alpha = m.const("alpha", np.random.default_rng(seed).integers(-128, 128, alpha_shape), "int8",
                    scale=s_a, zp=z_a)
    m.op("PRELU", [x, alpha], [y])
    check(tmp_path_factory.mktemp("prelu"), m, seed)


@given(st.sampled_from(["MAXIMUM", "MINIMUM"]), broadcast_shapes(), DTYPES, scale(1e-3, 1.0), scale(1e-3, 1.0),
       st.data(), st.integers(0, 99))
def test_maximum_minimum(tmp_path_factory, opcode, shapes, dtype, s1, s2, data, seed):
    a_shape, b_shape = shapes
    zp = ZP if dtype == "int8" else ZP16
    z1, z2 = data.draw(zp), data.draw(zp)
    m = ModelSpec()
    a = m.tensor("a", a_shape, dtype, scale=s1, zp=z1)
    b = m.tensor("b", b_shape, dtype, scale=s2, zp=z2)
    y = m.tensor("y", list(np.broadcast_shapes(tuple(a_shape), tuple(b_shape))), dtype, scale=s1, zp=z1)
    m.inputs, m.outputs = [a, b], [y]
    m.op(opcode, [a, b], [y], version=2)
    check(tmp_path_factory.mktemp("maxmin"), m, seed, oracles=ORACLES[dtype])


def boundary_values(scale: float, zero_point: int, rng, size: int) -> np.ndarray:
    """Floats where QUANTIZE is delicate: exact rounding ties, the saturation edges, 0 and -0,
    +-inf, NaN and quotients beyond int32, mixed with values across the int8 range."""
    ties = (np.arange(-130, 130) + 0.5) * np.float32(scale)
    edges = np.array([-129 - zero_point, -128.5 - zero_point, 127.5 - zero_point, 128 - zero_point]) * scale
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 3e9 * scale, -3e9 * scale, 1e38, -1e38]
    pool = np.concatenate([ties, edges, special, rng.uniform(-140, 140, 64) * scale]).astype(np.float32)
    return rng.choice(pool, size=size)


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), scale(1e-6, 10.0), ZP, st.integers(0, 2**16))
def test_quantize_from_float32(tmp_path_factory, shape, s, z, seed):
    m = ModelSpec()
    x = m.tensor("x", shape, "float32")
    y = m.tensor("y", shape, "int8", scale=s, zp=z)
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [y])
    xs = [boundary_values(s, z, np.random.default_rng(seed), int(np.prod(shape))).reshape(shape)]
    check(tmp_path_factory.mktemp("quantize"), m, seed, xs=xs)


@given(st.sampled_from([("uint8", "int8"), ("int8", "uint8"), ("int8", "int8")]),
       st.lists(st.integers(1, 5), min_size=1, max_size=4), scale(1e-3, 1.0), st.integers(0, 255),
       scale(1e-3, 1.0), st.integers(0, 255), st.booleans(), st.integers(0, 99))
def test_quantize_between_int8_and_uint8(tmp_path_factory, types, shape, s_in, z_in, s_out, z_out, same, seed):
    def zp(dtype, z):
        return z if dtype == "uint8" else z - 128
    if same:  # TFLM's fast path: same scale, zero points 128 apart
        s_out, z_out = s_in, z_in
    m = ModelSpec()
    x = m.tensor("x", shape, types[0], scale=s_in, zp=zp(types[0], z_in))
    y = m.tensor("y", shape, types[1], scale=s_out, zp=zp(types[1], z_out))
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [y])
    check(tmp_path_factory.mktemp("requantize"), m, seed, oracles=("tflm",))


INTEGER_PAIRS = [("int16", "int8"), ("int8", "int16"), ("int16", "int16"), ("int16", "int32"), ("int8", "int32"),
                 ("int32", "int8"), ("int32", "int16")]


@given(st.sampled_from(INTEGER_PAIRS), st.lists(st.integers(1, 5), min_size=1, max_size=4), scale(1e-5, 1.0), ZP,
       scale(1e-5, 1.0), ZP, st.integers(0, 99))
def test_quantize_between_integer_types(tmp_path_factory, types, shape, s_in, z_in, s_out, z_out, seed):
    """The joints of int8 and int16 segments and the int16/int32 ends (int16 and int32 zero points are 0)."""
    m = ModelSpec()
    x = m.tensor("x", shape, types[0], scale=s_in, zp=z_in if types[0] == "int8" else 0)
    y = m.tensor("y", shape, types[1], scale=s_out, zp=z_out if types[1] == "int8" else 0)
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [y])
    check(tmp_path_factory.mktemp("requantize16"), m, seed, oracles=("tflm",))


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), scale(1e-6, 10.0), st.integers(0, 2**16))
def test_quantize_float32_to_int16(tmp_path_factory, shape, s, seed):
    m = ModelSpec()
    x = m.tensor("x", shape, "float32")
    y = m.tensor("y", shape, "int16", scale=s, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op("QUANTIZE", [x], [y])
    rng = np.random.default_rng(seed)
    xs = [(rng.uniform(-40000, 40000, int(np.prod(shape))) * s).astype(np.float32).reshape(shape)]
    check(tmp_path_factory.mktemp("quantize16"), m, seed, xs=xs, oracles=("tflm",))


@given(st.sampled_from(["int8", "int16"]), st.lists(st.integers(1, 5), min_size=1, max_size=4), scale(1e-6, 10.0),
       ZP, st.integers(0, 99))
def test_dequantize_to_float32(tmp_path_factory, dtype, shape, s, z, seed):
    m = ModelSpec()
    x = m.tensor("x", shape, dtype, scale=s, zp=z if dtype == "int8" else 0)
    y = m.tensor("y", shape, "float32")
    m.inputs, m.outputs = [x], [y]
    m.op("DEQUANTIZE", [x], [y])
    check(tmp_path_factory.mktemp("dequantize"), m, seed)
