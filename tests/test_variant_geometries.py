"""Every kernel a drawn layer can run on, each bit-exact on QEMU on the core that runs it: the DSP variants on the
Cortex-M4 (mps2-an386), Helium's and the DSP's on the Cortex-M55 (mps3-an547), then the reference kernel.

The layer (CONV_2D and DEPTHWISE_CONV_2D int8, 16x8 and on INT4 weights; FULLY_CONNECTED; ADD, SUB, MUL;
the pools) reads what a QUANTIZE wrote, so that its input dies at it and the kernels that may write over their
input do (in place); the geometries are the awkward ones: kx1 and 1xk kernels up to 9 taps, one-pixel-wide and
one-pixel-high images, odd channel counts, batches above 1, strides and dilations, rescales above and below
one, explicit PADs of any amounts (which become the layer's own padding). A Silicon Labs keyword model's 9x1
depthwise layer in place on [1, 49, 1, 120] is one of its examples; the fused strips are drawn in
tests/test_dsp_kernels.py.
SVDF, LSTM and SOFTMAX's variants have theirs in tests/test_dsp_kernels.py and tests/test_mve.py."""
from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import examples
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import Budget
from mcugen.ir.tuning import Measured, Tuning
from mcugen.kernels import candidates
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import build_board
from mcugen.targets.target import Target
from mcugen.validation import golden
from mcugen.validation.compare import random_inputs
from mcugen.validation.oracle import Tflm
from mcugen.validation.validate import run_on_target
from single_op import out_size
from tflite_writer import ModelSpec

BOARDS = ("mps2-an386", "mps3-an547")


def _front(m: ModelSpec, shape: list[int], dtype: str) -> tuple[int, int]:
    """x -> QUANTIZE -> mid: the layer's input, a buffer that dies at the layer (int16: zero points 0)."""
    x = m.tensor("x", shape, dtype, scale=0.05, zp=-7 if dtype == "int8" else 0)
    mid = m.tensor("mid", shape, dtype, scale=0.06, zp=3 if dtype == "int8" else 0)
    m.op("QUANTIZE", [x], [mid])
    return x, mid


def _weights(m: ModelSpec, rng, shape, weights: str, axis: int, scales: list[float]) -> int:
    low, high = (-8, 8) if weights == "int4" else (-127, 128)
    return m.const("w", rng.integers(low, high, shape), weights, scale=scales, zp=[0] * len(scales), axis=axis)


def _layer_model(kind: str, batch: int, h: int, w: int, c_in: int, c_out: int, kh: int, kw: int, stride: int,
                 dilation: int, pad: str, out_scale: float, act: str, seed: int, dtype: str = "int8",
                 weights: str = "int8") -> ModelSpec | None:
    """x -> QUANTIZE -> the layer (CONV_2D or DEPTHWISE_CONV_2D); None where the geometry has no output. Padding
    "PAD": an explicit PAD of drawn amounts before a VALID layer, which passes/fold_pads.py makes the layer's own."""
    rng = np.random.default_rng(seed)
    pads = [_drawn_pads(rng, size, k, stride, dilation) for size, k in ((h, kh), (w, kw))] if pad == "PAD" else None
    if pads is None:
        oh, ow = out_size(pad, h, kh, stride, dilation), out_size(pad, w, kw, stride, dilation)
    else:
        oh, ow = (out_size("VALID", size + sum(amounts), k, stride, dilation)
                  for size, k, amounts in ((h, kh, pads[0]), (w, kw, pads[1])))
    if oh < 1 or ow < 1:
        return None
    m = ModelSpec()
    x, mid = _front(m, [batch, h, w, c_in], dtype)
    if pads is not None and pads == [(0, 0), (0, 0)]:
        pad = "VALID"
    elif pads is not None:
        padded = m.tensor("padded", [batch, h + sum(pads[0]), w + sum(pads[1]), c_in], dtype, scale=0.06,
                          zp=3 if dtype == "int8" else 0)
        m.op("PAD", [mid, m.const("paddings", np.array([[0, 0], *pads, [0, 0]]), "int32")], [padded], "PadOptions")
        mid, pad = padded, "VALID"
    if kind == "conv":
        filt = _weights(m, rng, (c_out, kh, kw, c_in), weights, 0, [0.02] * c_out)
    else:
        filt = _weights(m, rng, (1, kh, kw, c_out), weights, 3, [0.02] * c_out)
    bias = m.const("b", rng.integers(-4000, 4000, c_out), "int32" if dtype == "int8" else "int64",
                   scale=[0.06 * 0.02] * c_out, zp=[0] * c_out)
    y = m.tensor("y", [batch, oh, ow, c_out], dtype, scale=out_scale if dtype == "int8" else out_scale / 64,
                 zp=-4 if dtype == "int8" else 0)
    fields = dict(Padding=pad, StrideW=stride, StrideH=stride, DilationWFactor=dilation, DilationHFactor=dilation,
                  FusedActivationFunction=act)
    if kind == "conv":
        m.op("CONV_2D", [mid, filt, bias], [y], "Conv2DOptions", version=3, **fields)
    else:
        m.op("DEPTHWISE_CONV_2D", [mid, filt, bias], [y], "DepthwiseConv2DOptions", version=3,
             DepthMultiplier=c_out // c_in, **fields)
    m.inputs, m.outputs = [x], [y]
    return m


def _drawn_pads(rng, size: int, k: int, stride: int, dilation: int) -> tuple[int, int]:
    """(leading, trailing) pads of one side, each under the window's span, the last window still touching the
    image (as fold_pads requires): PyTorch's symmetric ones, Keras' correct_pad, more before than after."""
    span = (k - 1) * dilation + 1
    lead, trail = (int(v) for v in rng.integers(0, span, 2))
    if ((size + lead + trail - span) // stride) * stride - lead >= size:
        trail = 0
    return lead, trail


def _every_kernel_bit_exact(tmp, m: ModelSpec, seed: int) -> list[str]:
    """The layer (op 1) on each of its candidates, bit-exact with the golden model on the core that runs it (the
    M4: the DSP variants and the reference kernel; the M55: Helium's); the golden model bit-exact with TFLM
    first. Returns what ran."""
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "layer.tflite"
    blob = m.build()
    path.write_bytes(blob)
    ran = []
    g = compile_model(path)
    assert "PAD" not in [op.opcode for op in g.ops]  # a drawn PAD is the layer's own padding
    samples = random_inputs(g, 2, seed=seed)
    tflm = Tflm(blob)
    for xs in samples:
        assert all(np.array_equal(a, b) for a, b in zip(golden.run(g, xs), tflm.run(xs, 1)))
    for board in BOARDS:
        features = load_board(board).features
        lowered = compile_model(path, features=features)
        kernels = [call.kernel for call in candidates(lowered, lowered.ops[1], features)]
        for rank, kernel in enumerate(kernels):
            if board != BOARDS[0] and "_mve" not in kernel:
                continue  # the DSP variants' and the reference's C is the M4's, checked there
            tuning = Tuning(board, "", {1: Measured({kernel: 0}, {kernel: rank})})
            g = compile_model(path, features=features, tuning=tuning, budget=Budget(optimize="speed"))
            assert g.ops[1].call.kernel == kernel
            out = OutDir(tmp / f"{board}-{rank}")
            program = build_board(g, load_board(board), out, "layer.tflite").program
            _, results = run_on_target(Target.of(board), program, g, samples)
            assert all(r.passed for r in results), (board, kernel, [r.outputs for r in results])
            ran.append(f"{board}:{kernel}")
    return ran


GEOMETRY = dict(batch=st.integers(1, 3), h=st.integers(1, 12), w=st.sampled_from([1, 1, 2, 3, 5, 8, 11]),
                kh=st.integers(1, 9), kw=st.sampled_from([1, 1, 2, 3, 5]), stride=st.sampled_from([1, 1, 2, 3]),
                dilation=st.sampled_from([1, 1, 2]), pad=st.sampled_from(["SAME", "VALID", "PAD"]),
                out_scale=st.sampled_from([0.3, 0.05, 0.0004]), act=st.sampled_from(["NONE", "RELU", "RELU6"]),
                seed=st.integers(0, 999))


@settings(max_examples=examples(6), deadline=None)
@given(channels=st.sampled_from([1, 3, 4, 5, 7, 9, 12, 17]), multiplier=st.sampled_from([1, 1, 1, 2]),
       transpose=st.booleans(), **GEOMETRY)
@example(channels=120, multiplier=1, transpose=False, batch=1, h=49, w=1, kh=9, kw=1, stride=1, dilation=1,
         pad="SAME", out_scale=0.05, act="RELU", seed=5)
def test_every_depthwise_kernel_on_qemu(tmp_path_factory, channels, multiplier, transpose, batch, h, w, kh, kw,
                                        stride, dilation, pad, out_scale, act, seed):
    """kx1 and 1xk (`transpose` swaps the drawn sides), one pixel wide or high, odd channel counts, depth
    multipliers, batches: every kernel that takes the layer, in place where it may be."""
    if transpose:
        h, w, kh, kw = w, h, kw, kh
    m = _layer_model("depthwise", batch, h, w, channels, channels * multiplier, kh, kw, stride, dilation, pad,
                     out_scale, act, seed)
    if m is not None:
        _every_kernel_bit_exact(tmp_path_factory.mktemp("dw"), m, seed)


@settings(max_examples=examples(5), deadline=None)
@given(c_in=st.sampled_from([1, 2, 3, 5, 8, 9, 16]), c_out=st.sampled_from([1, 3, 5, 6, 8, 13]),
       transpose=st.booleans(), **GEOMETRY)
def test_every_conv_kernel_on_qemu(tmp_path_factory, c_in, c_out, transpose, batch, h, w, kh, kw, stride, dilation,
                                   pad, out_scale, act, seed):
    """CONV_2D likewise: kx1 and 1xk kernels, one-pixel images, odd channel counts, batches."""
    if transpose:
        h, w, kh, kw = w, h, kw, kh
    m = _layer_model("conv", batch, h, w, c_in, c_out, kh, kw, stride, dilation, pad, out_scale, act, seed)
    if m is not None:
        _every_kernel_bit_exact(tmp_path_factory.mktemp("conv"), m, seed)


@settings(max_examples=examples(4), deadline=None)
@given(kind=st.sampled_from(["conv", "depthwise"]), dtype=st.sampled_from(["int8", "int16"]),
       channels=st.sampled_from([1, 3, 4, 5, 8, 9]), transpose=st.booleans(), **GEOMETRY)
def test_every_16x8_and_int4_conv_kernel_on_qemu(tmp_path_factory, kind, dtype, channels, transpose, batch, h, w, kh,
                                                 kw, stride, dilation, pad, out_scale, act, seed):
    """16x8 (int16 activations, int64 bias) and INT4 weights (read packed) likewise; an INT4 conv's output channels
    in quads where the drawn count is 1, 5 or 9 (mcu_conv2d_s4_quads)."""
    if transpose:
        h, w, kh, kw = w, h, kw, kh
    c_out = channels if kind == "depthwise" else channels + (2 if dtype == "int16" else 3)
    m = _layer_model(kind, batch, h, w, channels, c_out, kh, kw, stride, dilation, pad, out_scale, act, seed,
                     dtype=dtype, weights="int8" if dtype == "int16" else "int4")
    if m is not None:
        _every_kernel_bit_exact(tmp_path_factory.mktemp("wide"), m, seed)


@settings(max_examples=examples(4), deadline=None)
@given(dtype=st.sampled_from(["int8", "int16"]), weights=st.sampled_from(["int8", "int4"]), batch=st.integers(1, 4),
       depth=st.sampled_from([1, 3, 7, 8, 17, 33]), units=st.sampled_from([1, 2, 5, 8, 13]),
       act=st.sampled_from(["NONE", "RELU"]), seed=st.integers(0, 999))
def test_every_fully_connected_kernel_on_qemu(tmp_path_factory, dtype, weights, batch, depth, units, act, seed):
    """Batches, depths off the words, units off the fours, INT4 weights (int8 activations)."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x, mid = _front(m, [batch, depth], dtype)
    weights = "int8" if dtype == "int16" else weights
    w = _weights(m, rng, (units, depth), weights, 0, [0.02])
    b = m.const("b", rng.integers(-3000, 3000, units), "int32" if dtype == "int8" else "int64", scale=0.0012, zp=0)
    y = m.tensor("y", [batch, units], dtype, scale=0.2 if dtype == "int8" else 0.003, zp=5 if dtype == "int8" else 0)
    m.op("FULLY_CONNECTED", [mid, w, b], [y], "FullyConnectedOptions", version=4 if dtype == "int8" else 7,
         FusedActivationFunction=act)
    m.inputs, m.outputs = [x], [y]
    _every_kernel_bit_exact(tmp_path_factory.mktemp("fc"), m, seed)


@settings(max_examples=examples(4), deadline=None)
@given(opcode=st.sampled_from(["ADD", "SUB", "MUL"]), dtype=st.sampled_from(["int8", "int16"]),
       shape=st.lists(st.integers(1, 7), min_size=1, max_size=4), act=st.sampled_from(["NONE", "RELU"]),
       seed=st.integers(0, 999))
def test_every_elementwise_kernel_on_qemu(tmp_path_factory, opcode, dtype, shape, act, seed):
    """ADD, SUB and MUL written over the input that dies at them (in place), odd lengths."""
    m = ModelSpec()
    x, mid = _front(m, shape, dtype)
    other = m.tensor("other", shape, dtype, scale=0.04, zp=9 if dtype == "int8" else 0)
    y = m.tensor("y", shape, dtype, scale=0.1 if dtype == "int8" else 0.002, zp=-2 if dtype == "int8" else 0)
    m.op(opcode, [mid, other], [y], f"{opcode.capitalize()}Options", version=2, FusedActivationFunction=act)
    m.inputs, m.outputs = [x, other], [y]
    _every_kernel_bit_exact(tmp_path_factory.mktemp("binary"), m, seed)


@settings(max_examples=examples(4), deadline=None)
@given(opcode=st.sampled_from(["AVERAGE_POOL_2D", "MAX_POOL_2D"]), channels=st.sampled_from([1, 3, 4, 5, 16, 17]),
       transpose=st.booleans(), batch=st.integers(1, 3), h=st.integers(1, 12), w=st.sampled_from([1, 2, 3, 8]),
       kh=st.integers(1, 5), kw=st.sampled_from([1, 2, 3]), stride=st.sampled_from([1, 2]),
       pad=st.sampled_from(["SAME", "VALID", "PAD"]), seed=st.integers(0, 999))
@example(opcode="MAX_POOL_2D", channels=5, transpose=False, batch=2, h=7, w=8, kh=3, kw=3, stride=2, pad="PAD",
         seed=3)
def test_every_pool_kernel_on_qemu(tmp_path_factory, opcode, channels, transpose, batch, h, w, kh, kw, stride, pad,
                                   seed):
    """kx1 and 1xk windows, one-pixel images, odd channel counts, batches; a max pool's explicit PADV2 of -128
    (which it takes as its own padding; an average pool's PAD stays one, so those draw SAME)."""
    if transpose:
        h, w, kh, kw = w, h, kw, kh
    rng = np.random.default_rng(seed)
    pads = [_drawn_pads(rng, size, k, stride, 1) for size, k in ((h, kh), (w, kw))] \
        if pad == "PAD" and opcode == "MAX_POOL_2D" else None
    pad = "SAME" if pad == "PAD" and pads is None else "VALID" if pads == [(0, 0), (0, 0)] else pad
    if pad == "PAD":
        oh, ow = (out_size("VALID", size + sum(amounts), k, stride) for size, k, amounts in ((h, kh, pads[0]),
                                                                                            (w, kw, pads[1])))
    else:
        oh, ow = out_size(pad, h, kh, stride), out_size(pad, w, kw, stride)
    if oh < 1 or ow < 1:
        return
    m = ModelSpec()
    x, mid = _front(m, [batch, h, w, channels], "int8")
    if pad == "PAD":
        padded = m.tensor("padded", [batch, h + sum(pads[0]), w + sum(pads[1]), channels], "int8", scale=0.06, zp=3)
        m.op("PADV2", [mid, m.const("paddings", np.array([[0, 0], *pads, [0, 0]]), "int32"),
                       m.const("value", np.array([-128]), "int8", scale=0.06, zp=3)], [padded], "PadV2Options")
        mid, pad = padded, "VALID"
    y = m.tensor("y", [batch, oh, ow, channels], "int8", scale=0.06, zp=3)
    m.op(opcode, [mid], [y], "Pool2DOptions", Padding=pad, StrideH=stride, StrideW=stride, FilterHeight=kh,
         FilterWidth=kw, FusedActivationFunction="NONE")
    m.inputs, m.outputs = [x], [y]
    _every_kernel_bit_exact(tmp_path_factory.mktemp("pool"), m, seed)
