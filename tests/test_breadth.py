"""Every model TFLM runs, round three: what newer converters and vendor zoos write that mcugen used to
refuse. Each case bit-exact with TFLM (golden and host C), the kernels on the emulated cores too."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import bit_exact_on_board
from single_op import ACTS, ZP, check
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec


def _grouped(rng, dtype, h, w, groups, per_group, cout_per_group, k, stride, padding, act, zx=0, zy=0):
    m = ModelSpec()
    cin, cout = groups * per_group, groups * cout_per_group
    s_in, s_out = (0.02, 0.05) if dtype == "int8" else (1e-4, 5e-4)
    x = m.tensor("x", [1, h, w, cin], dtype, scale=s_in, zp=zx)
    wt = m.const("w", rng.integers(-127, 128, (cout, k, k, per_group)), "int8",
                 scale=[float(s) for s in rng.uniform(0.002, 0.02, cout)], zp=[0] * cout)
    b = m.const("b", rng.integers(-3000, 3000, cout), "int32" if dtype == "int8" else "int64", scale=1e-4, zp=0)
    oh, ow = ((h + stride - 1) // stride, (w + stride - 1) // stride) if padding == "SAME" else \
        ((h - k) // stride + 1, (w - k) // stride + 1)
    y = m.tensor("y", [1, oh, ow, cout], dtype, scale=s_out, zp=zy)
    m.op("CONV_2D", [x, wt, b], [y], "Conv2DOptions", version=3, Padding=padding, StrideH=stride, StrideW=stride,
         DilationHFactor=1, DilationWFactor=1, FusedActivationFunction=act)
    m.inputs, m.outputs = [x], [y]
    return m


@given(st.sampled_from(["int8", "int16"]), st.integers(3, 7), st.integers(3, 7), st.integers(2, 4),
       st.integers(1, 5), st.integers(1, 3), st.sampled_from([1, 3]), st.sampled_from([1, 2]),
       st.sampled_from(["SAME", "VALID"]), ACTS, st.data(), st.integers(0, 99))
def test_grouped_conv(tmp_path_factory, dtype, h, w, groups, per_group, cout_per_group, k, stride, padding, act,
                      data, seed):
    zx, zy = (data.draw(ZP), data.draw(ZP)) if dtype == "int8" else (0, 0)
    m = _grouped(np.random.default_rng(seed), dtype, h, w, groups, per_group, cout_per_group, k, stride, padding,
                 act, zx, zy)
    check(tmp_path_factory.mktemp("grouped"), m, seed, oracles=("tflm",))


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
def test_grouped_conv_on_the_emulated_cores(tmp_path, board):
    m = _grouped(np.random.default_rng(1), "int8", 6, 5, 3, 4, 2, 3, 1, "SAME", "RELU", zx=-3, zy=5)
    bit_exact_on_board(tmp_path, m, seed=2, board=board)


def test_a_group_count_tflm_reads_past_is_one_line(capsys, tmp_path):
    """9 input channels, filter depth 3 (3 groups), 5 output channels: TFLM's group of channel 4 is 2.5."""
    rng = np.random.default_rng(1)
    m = ModelSpec()
    x = m.tensor("x", [1, 5, 5, 9], "int8", scale=0.02, zp=0)
    wt = m.const("w", rng.integers(-127, 128, (5, 3, 3, 3)), "int8", scale=[0.01] * 5, zp=[0] * 5)
    y = m.tensor("y", [1, 5, 5, 5], "int8", scale=0.05, zp=0)
    m.op("CONV_2D", [x, wt, -1], [y], "Conv2DOptions", version=3, Padding="SAME", StrideH=1, StrideW=1,
         DilationHFactor=1, DilationWFactor=1)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
    assert_one_error_line(code, err, "grouped convolution (9 input channels, filter depth 3, 5 output channels)")


def test_a_time_axis_left_open_in_shape_signature_runs(tmp_path_factory):
    """shape_signature [-1, -1, 8] with shape [1, 3, 8] (GRU/LSTM audio models): TFLM allocates the shape."""
    m = ModelSpec()
    x = m.tensor("x", [1, 3, 8], "int8", scale=0.05, zp=1, signature=[-1, -1, 8])
    y = m.tensor("y", [1, 3, 8], "int8", scale=0.05, zp=1, signature=[-1, -1, 8])
    m.op("RELU", [x], [y])
    m.inputs, m.outputs = [x], [y]
    check(tmp_path_factory.mktemp("signature"), m, 0, oracles=("tflm",))


@st.composite
def batch_matmuls(draw):
    """Operands of rank 2 to 4 whose batch dimensions broadcast, adjoint flags, a constant or computed R."""
    dtype = draw(st.sampled_from(["int8", "int16"]))
    rank = draw(st.integers(2, 4))
    batch = [draw(st.integers(1, 3)) for _ in range(rank - 2)]
    lhs_batch = [b if draw(st.booleans()) else 1 for b in batch]
    rhs_batch = [b if draw(st.booleans()) else 1 for b in batch][draw(st.integers(0, len(batch))):]
    rows, depth, cols = draw(st.integers(1, 5)), draw(st.integers(1, 9)), draw(st.integers(1, 5))
    adj_x, adj_y = draw(st.booleans()), draw(st.booleans())
    return dtype, lhs_batch, rhs_batch, rows, depth, cols, adj_x, adj_y, draw(st.booleans())


@given(batch_matmuls(), st.data(), st.integers(0, 99))
def test_batch_matmul(tmp_path_factory, case, data, seed):
    dtype, lhs_batch, rhs_batch, rows, depth, cols, adj_x, adj_y, constant = case
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    wide = dtype == "int16"
    zl, zr, zo = (0, 0, 0) if wide else (data.draw(ZP), data.draw(ZP), data.draw(ZP))
    s = (1e-3, 2e-3, 5e-3) if wide else (0.02, 0.03, 0.4)
    lhs_shape = [*lhs_batch, *([depth, rows] if adj_x else [rows, depth])]
    rhs_shape = [*rhs_batch, *([cols, depth] if adj_y else [depth, cols])]
    x = m.tensor("x", lhs_shape, dtype, scale=s[0], zp=zl)
    info = np.iinfo(dtype)
    r = (m.const("r", rng.integers(info.min, info.max + 1, rhs_shape), dtype, scale=s[1], zp=zr) if constant
         else m.tensor("r", rhs_shape, dtype, scale=s[1], zp=zr))
    lead = max(len(lhs_batch), len(rhs_batch))
    a = [1] * (lead - len(lhs_batch)) + lhs_batch
    b = [1] * (lead - len(rhs_batch)) + rhs_batch
    y = m.tensor("y", [*(max(p, q) for p, q in zip(a, b)), rows, cols], dtype, scale=s[2], zp=zo)
    m.op("BATCH_MATMUL", [x, r], [y], "BatchMatMulOptions", version=4 if wide else 1, AdjX=adj_x, AdjY=adj_y)
    m.inputs, m.outputs = ([x] if constant else [x, r]), [y]
    check(tmp_path_factory.mktemp("batch_matmul"), m, seed, oracles=("tflm",))


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547", "microbit"])
def test_batch_matmul_on_the_emulated_cores(tmp_path, board):
    rng = np.random.default_rng(4)
    m = ModelSpec()
    q = m.tensor("q", [2, 3, 8], "int8", scale=0.02, zp=3)
    k = m.const("k", rng.integers(-128, 128, (2, 5, 8)), "int8", scale=0.03, zp=-2)
    y = m.tensor("y", [2, 3, 5], "int8", scale=0.5, zp=-1)
    m.op("BATCH_MATMUL", [q, k], [y], "BatchMatMulOptions", AdjX=False, AdjY=True)
    m.inputs, m.outputs = [q], [y]
    bit_exact_on_board(tmp_path, m, seed=3, board=board)


@given(st.sampled_from(["int8", "int16"]), st.lists(st.integers(1, 3), min_size=1, max_size=5), st.data(),
       st.integers(0, 99))
def test_broadcast_to(tmp_path_factory, dtype, target, data, seed):
    """Any input whose every axis is 1 or the target's, with fewer axes or as many, up to 5-D."""
    rank = data.draw(st.integers(1, len(target)))
    shape = [d if data.draw(st.booleans()) else 1 for d in target[len(target) - rank:]]
    m = ModelSpec()
    x = m.tensor("x", shape, dtype, scale=0.1, zp=0)
    y = m.tensor("y", target, dtype, scale=0.1, zp=0)
    m.op("BROADCAST_TO", [x, m.const("shape", target, data.draw(st.sampled_from(["int32", "int64"])))], [y], version=2)
    m.inputs, m.outputs = [x], [y]
    check(tmp_path_factory.mktemp("broadcast_to"), m, seed, oracles=("tflm",))


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.floats(1e-5, 1e-2), st.floats(1e-4, 1e-1),
       st.integers(0, 99))
def test_int16_rsqrt(tmp_path_factory, shape, s_in, s_out, seed):
    """1 / sqrt by TFLM's integer Newton-Raphson per value, zero points 0; inputs of 0 give 32767."""
    m = ModelSpec()
    x = m.tensor("x", shape, "int16", scale=float(np.float32(s_in)), zp=0)
    y = m.tensor("y", shape, "int16", scale=float(np.float32(s_out)), zp=0)
    m.op("RSQRT", [x], [y], version=3)
    m.inputs, m.outputs = [x], [y]
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 32768, shape).astype(np.int16)
    values.reshape(-1)[:3] = [0, 1, 32767][:values.size]
    check(tmp_path_factory.mktemp("rsqrt16"), m, seed, oracles=("tflm",), xs=[values])


def test_int16_rsqrt_on_every_value(tmp_path):
    """Every int16 input under four random quantizations: a rescale made in float32 rather than TFLM's
    double is off by one in a few values of thousands (a16w8 models from the LiteRT quantizer)."""
    rng = np.random.default_rng(11)
    for k in range(4):
        s_in, s_out = (float(np.float32(np.exp(rng.uniform(np.log(lo), np.log(1e-1))))) for lo in (1e-6, 1e-5))
        m = ModelSpec()
        x = m.tensor("x", [32768], "int16", scale=s_in, zp=0)
        y = m.tensor("y", [32768], "int16", scale=s_out, zp=0)
        m.op("RSQRT", [x], [y], version=3)
        m.inputs, m.outputs = [x], [y]
        check(tmp_path / str(k), m, k, oracles=("tflm",), xs=[np.arange(32768).astype(np.int16)])


@pytest.mark.parametrize("board", ["mps2-an386", "microbit"])
def test_int16_rsqrt_on_the_emulated_cores(tmp_path, board):
    from mcugen.targets.boards import load_board
    from mcugen.targets.firmware import build_board
    from mcugen.codegen.outdir import OutDir
    from mcugen.codegen.pipeline import compile_model
    from mcugen.targets.target import Target
    from mcugen.validation.validate import run_on_target
    m = ModelSpec()
    x = m.tensor("x", [4, 9], "int16", scale=2e-4, zp=0)
    y = m.tensor("y", [4, 9], "int16", scale=3e-3, zp=0)
    m.op("RSQRT", [x], [y], version=3)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "rsqrt.tflite"
    path.write_bytes(m.build())
    g = compile_model(path, features=load_board(board).features)
    xs = [[np.random.default_rng(k).integers(0, 32768, (4, 9)).astype(np.int16)] for k in range(2)]
    program = build_board(g, load_board(board), OutDir(tmp_path / "fw"), "rsqrt.tflite").program
    _, results = run_on_target(Target.of(board), program, g, xs)
    assert all(r.passed for r in results), [r.outputs for r in results]


# -- several signatures in one file (LiteRT 2.x) ------------------------------------------------------
def _signatures(tmp_path):
    from model_edit import with_signatures
    rng = np.random.default_rng(6)
    encode, decode = ModelSpec(), ModelSpec()
    x = encode.tensor("x", [1, 8], "int8", scale=0.05, zp=2)
    w = encode.const("w", rng.integers(-127, 128, (4, 8)), "int8", scale=0.02, zp=0)
    y = encode.tensor("y", [1, 4], "int8", scale=0.1, zp=-3)
    encode.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions", version=4)
    encode.inputs, encode.outputs = [x], [y]
    z = decode.tensor("z", [2, 3, 5], "int8", scale=0.03, zp=1)
    r = decode.tensor("r", [2, 3, 5], "int8", scale=0.03, zp=-128)
    decode.op("RELU", [z], [r])
    decode.inputs, decode.outputs = [z], [r]
    path = tmp_path / "two.tflite"
    path.write_bytes(with_signatures({"encode": encode.build(), "decode": decode.build()}))
    return path, {"encode": encode.build(), "decode": decode.build()}


@pytest.mark.parametrize("name", ["encode", "decode"])
def test_a_signature_picked_runs_its_subgraph_bit_exact(capsys, tmp_path, name):
    from mcugen.validation.compare import random_inputs
    from mcugen.validation.oracle import Tflm
    from mcugen.codegen.pipeline import compile_model
    from mcugen.validation import golden
    path, alone = _signatures(tmp_path)
    g = compile_model(path, signature=name)
    xs = random_inputs(g, 2, seed=1)
    for sample in xs:  # the signature's subgraph, as TFLM runs the same subgraph saved alone
        for ours, theirs in zip(golden.run(g, sample), Tflm(alone[name]).run(sample, 1)):
            np.testing.assert_array_equal(ours, theirs)
    code, out, err = run_cli(capsys, "compare", path, "--signature", name, "--samples", "2")
    assert code == 0 and "bit-exact" in out + err, out + err
    code, out, err = run_cli(capsys, "test", path, "--signature", name, "--board", "host", "--samples", "2",
                             "--out", tmp_path / "build")
    assert code == 0, out + err


def test_signatures_listed_and_the_bad_ones_one_line(capsys, tmp_path):
    path, _ = _signatures(tmp_path)
    code, out, _ = run_cli(capsys, "inspect", path, "--signature", "decode")
    assert code == 0 and "signature" in out and "encode" in out and "decode" in out, out
    code, out, err = run_cli(capsys, "compare", path, "--samples", "2")  # subgraph 0 ("encode"), as TFLM runs it
    assert code == 0 and "bit-exact" in out + err, out + err
    code, _, err = run_cli(capsys, "run", path, "--signature", "train", "--input", tmp_path / "x.npy",
                           "--output", tmp_path / "o.npz")
    assert_one_error_line(code, err, "no signature 'train' (the file has encode, decode)")
    assert not (tmp_path / "o.npz").exists()


def test_a_16x8_transpose_conv_with_an_int32_bias_runs_as_tflm_reads_it(tmp_path):
    """TFLM's 16x8 TRANSPOSE_CONV reads an int32 bias as int64, its bytes and as many after them in the file
    (XMOS's converter writes such models and TFLM runs them): the golden model and the C read the same
    bytes, bit-exact with TFLM; the same bias as int64 gives other outputs."""
    from mcugen.validation.oracle import Tflm
    rng = np.random.default_rng(0)
    weights = rng.integers(-127, 128, (3, 2, 2, 2))

    def model(bias_type):
        m = ModelSpec()
        x = m.tensor("x", [1, 3, 3, 2], "int16", scale=1e-4, zp=0)
        w = m.const("w", weights, "int8", scale=[0.01] * 3, zp=[0] * 3)
        b = m.const("b", [1000, -2000, 30000], bias_type, scale=1e-6, zp=0)
        y = m.tensor("y", [1, 6, 6, 3], "int16", scale=5e-4, zp=0)
        m.op("TRANSPOSE_CONV", [m.const("shape", [1, 6, 6, 3], "int32"), w, x, b], [y], "TransposeConvOptions",
             version=3, Padding="SAME", StrideH=2, StrideW=2)
        m.inputs, m.outputs = [x], [y]
        return m

    xs = [np.random.default_rng(1).integers(-3000, 3000, (1, 3, 3, 2)).astype(np.int16)]
    assert not np.array_equal(Tflm(model("int32").build()).run(xs, 1)[0], Tflm(model("int64").build()).run(xs, 1)[0])
    check(tmp_path / "int32", model("int32"), 1, oracles=("tflm",), xs=xs)


def test_a_file_s_one_signature_on_another_subgraph_needs_no_flag(capsys, tmp_path):
    """One signature naming subgraph 1 (subgraph 0 left with no ops): it runs without --signature, and the
    oracle runs that subgraph too, not the subgraph 0 TFLM would."""
    from model_edit import load, pack
    path, _ = _signatures(tmp_path)
    model = load(path)
    model.signatureDefs = model.signatureDefs[1:]  # only "decode" (subgraph 1) is left
    model.subgraphs[0].operators = []
    path.write_bytes(pack(model))
    code, out, err = run_cli(capsys, "compare", path, "--samples", "2")
    assert code == 0 and "bit-exact" in out + err, out + err
    code, out, _ = run_cli(capsys, "inspect", path)
    assert code == 0 and "signature  decode" in out and "RELU" in out, out


@pytest.mark.parametrize("shape, axes, out_q", [
    ([2, 3, 4, 5, 6], [1, 2], None),  # a 5-D MEAN of a converter that left the tensors unquantized
    ([2, 3, 4, 5, 6], [0, 1, 2, 3, 4], None),
    ([1, 4, 4, 3], [1, 2], (0.1, 7)),  # only the input unquantized: the multiplier 0, the output zero point
])
def test_an_unquantized_int8_mean_runs_as_tflm_runs_it(tmp_path, shape, axes, out_q):
    """TFLM reads an absent quantization as scale 0 and zero point 0: a 0 / 0 (or 0 / s) rescale its
    QuantizeMultiplier makes 0. Bit-exact with TFLM and LiteRT, and the host C."""
    m = ModelSpec()
    x = m.tensor("x", shape, "int8")
    out = [1 if k in axes else d for k, d in enumerate(shape)]
    y = m.tensor("y", out, "int8") if out_q is None else m.tensor("y", out, "int8", scale=out_q[0], zp=out_q[1])
    m.op("MEAN", [x, m.const("axes", axes, "int32")], [y], "ReducerOptions", version=2, KeepDims=True)
    m.inputs, m.outputs = [x], [y]
    check(tmp_path, m, 3)


def test_a_mean_whose_output_alone_is_unquantized_is_refused_in_one_line(capsys, tmp_path):
    m = ModelSpec()
    x = m.tensor("x", [1, 4, 4, 3], "int8", scale=0.1, zp=2)
    y = m.tensor("y", [1, 1, 1, 3], "int8")
    m.op("MEAN", [x, m.const("axes", [1, 2], "int32")], [y], "ReducerOptions", version=2, KeepDims=True)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "b")
    assert_one_error_line(code, err, "output 'y' has no quantization parameters")


def test_a_reduce_op_outside_subgraph_0_is_refused_as_tflm_crashes_on_it(capsys, tmp_path):
    """TFLM prepares every subgraph of a file and crashes preparing a MEAN (SUM, REDUCE_MAX, REDUCE_MIN) in any
    but the first: such a file is one line, whichever signature is asked for; with the MEAN first it runs."""
    from model_edit import with_signatures
    from mcugen.validation.oracle import Tflm
    mean = ModelSpec()
    x = mean.tensor("x", [2, 3, 4], "int8", scale=0.1, zp=3)
    y = mean.tensor("y", [2, 1, 4], "int8", scale=0.1, zp=3)
    mean.op("MEAN", [x, mean.const("axes", [1], "int32")], [y], "ReducerOptions", KeepDims=True)
    mean.inputs, mean.outputs = [x], [y]
    relu = ModelSpec()
    z, r = relu.tensor("z", [2, 3], "int8", scale=0.1, zp=1), relu.tensor("r", [2, 3], "int8", scale=0.1, zp=-128)
    relu.op("RELU", [z], [r])
    relu.inputs, relu.outputs = [z], [r]
    second = tmp_path / "second.tflite"
    second.write_bytes(with_signatures({"relu": relu.build(), "mean": mean.build()}))
    with pytest.raises(Exception, match="TFLM crashed"):
        Tflm(second.read_bytes())
    for flags in ((), ("--signature", "mean"), ("--signature", "relu")):
        code, _, err = run_cli(capsys, "compare", second, *flags)
        assert_one_error_line(code, err, "subgraph 1 has a MEAN (op 0)", "crashes preparing one outside subgraph 0")
    first = tmp_path / "first.tflite"
    first.write_bytes(with_signatures({"mean": mean.build(), "relu": relu.build()}))
    code, out, err = run_cli(capsys, "compare", first, "--samples", "2")
    assert code == 0 and "bit-exact" in out + err, out + err


@pytest.mark.parametrize("kind", ["int8 conv", "float conv", "int8 depthwise", "int8 average pool"])
def test_placeholder_shapes_run_as_tflm_runs_them(tmp_path, kind):
    """A model saved with placeholder input shapes (openWakeWord's melspectrogram: [1, 1] for [-1, -1]) declares
    window outputs its options do not compute from them ([1, 1, 1, 5] from a 1x8 window over one pixel). TFLM
    loops over the declared output and pads as the options say, clipping every window to the image: so does
    mcugen (on the reference kernels), bit-exact with TFLM, in C on the host and the emulated Cortex-M4."""
    rng = np.random.default_rng(4)
    m = ModelSpec()
    dtype = "float32" if kind == "float conv" else "int8"
    q = {} if dtype == "float32" else dict(scale=0.05, zp=3)
    x = m.tensor("x", [1, 1, 1, 2], dtype, signature=[-1, 1, -1, 2], **q)
    y = m.tensor("y", [1, 1, 5, 2], dtype, signature=[-1, 1, -1, 2], **q)
    fields = dict(Padding="VALID", StrideH=1, StrideW=4, FusedActivationFunction="NONE")
    if kind == "int8 average pool":
        m.op("AVERAGE_POOL_2D", [x], [y], "Pool2DOptions", FilterHeight=1, FilterWidth=8, **fields)
    elif dtype == "float32":
        w = m.const("w", rng.uniform(-1, 1, (2, 1, 8, 2)).astype(np.float32), "float32")
        b = m.const("b", rng.uniform(-1, 1, 2).astype(np.float32), "float32")
        m.op("CONV_2D", [x, w, b], [y], "Conv2DOptions", DilationHFactor=1, DilationWFactor=1, **fields)
    else:
        depthwise = kind == "int8 depthwise"
        w = m.const("w", rng.integers(-127, 128, (1, 1, 8, 2) if depthwise else (2, 1, 8, 2)), "int8",
                    scale=[0.02, 0.03], zp=[0, 0], axis=3 if depthwise else 0)
        b = m.const("b", rng.integers(-500, 500, 2), "int32", scale=[0.001, 0.0015], zp=[0, 0])
        m.op("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", [x, w, b], [y],
             "DepthwiseConv2DOptions" if depthwise else "Conv2DOptions", DilationHFactor=1, DilationWFactor=1,
             **(dict(DepthMultiplier=1) if depthwise else {}), **fields)
    m.inputs, m.outputs = [x], [y]
    check(tmp_path, m, 2, oracles=("tflm",))
    bit_exact_on_board(tmp_path / "m4", m, 2)
