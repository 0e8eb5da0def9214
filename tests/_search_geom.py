"""Every kernel a drawn layer can run on, each bit-exact on QEMU on the core that runs it: the DSP variants on the
Cortex-M4 (mps2-an386), Helium's and the DSP's on the Cortex-M55 (mps3-an547), then the reference kernel.

The layer reads what a QUANTIZE (int8 -> int8) wrote, so that its input dies at it and the kernels that may
write over their input do (in place); the geometries are the awkward ones: kx1 and 1xk kernels up to 9 taps,
one-pixel-wide and one-pixel-high images, odd channel counts, batches above 1, strides and dilations, rescales
above and below one. A Silicon Labs keyword model's 9x1 depthwise layer in place on [1, 49, 1, 120] is one of
its examples."""
from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.tuning import Measured, Tuning
from mcugen.ops.variants import candidates
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


def _layer_model(kind: str, batch: int, h: int, w: int, c_in: int, c_out: int, kh: int, kw: int, stride: int,
                 dilation: int, pad: str, out_scale: float, act: str, seed: int) -> ModelSpec | None:
    """x -> QUANTIZE -> the layer; None where the geometry has no output."""
    oh, ow = out_size(pad, h, kh, stride, dilation), out_size(pad, w, kw, stride, dilation)
    if oh < 1 or ow < 1:
        return None
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [batch, h, w, c_in], "int8", scale=0.05, zp=-7)
    mid = m.tensor("mid", [batch, h, w, c_in], "int8", scale=0.06, zp=3)
    m.op("QUANTIZE", [x], [mid])
    if kind == "conv":
        filt = m.const("w", rng.integers(-127, 128, (c_out, kh, kw, c_in)), "int8", scale=[0.02] * c_out,
                       zp=[0] * c_out, axis=0)
    else:
        filt = m.const("w", rng.integers(-127, 128, (1, kh, kw, c_out)), "int8", scale=[0.02] * c_out,
                       zp=[0] * c_out, axis=3)
    bias = m.const("b", rng.integers(-4000, 4000, c_out), "int32", scale=[0.06 * 0.02] * c_out, zp=[0] * c_out)
    y = m.tensor("y", [batch, oh, ow, c_out], "int8", scale=out_scale, zp=-4)
    fields = dict(Padding=pad, StrideW=stride, StrideH=stride, DilationWFactor=dilation, DilationHFactor=dilation,
                  FusedActivationFunction=act)
    if kind == "conv":
        m.op("CONV_2D", [mid, filt, bias], [y], "Conv2DOptions", version=3, **fields)
    else:
        m.op("DEPTHWISE_CONV_2D", [mid, filt, bias], [y], "DepthwiseConv2DOptions", version=3,
             DepthMultiplier=c_out // c_in, **fields)
    m.inputs, m.outputs = [x], [y]
    return m


def _every_kernel_bit_exact(tmp, m: ModelSpec, seed: int) -> list[str]:
    """The layer (op 1) on each of its candidates on each board, bit-exact with the golden model there; the
    golden model bit-exact with TFLM first. Returns what ran."""
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "layer.tflite"
    blob = m.build()
    path.write_bytes(blob)
    ran = []
    g = compile_model(path)
    samples = random_inputs(g, 2, seed=seed)
    tflm = Tflm(blob)
    for xs in samples:
        assert all(np.array_equal(a, b) for a, b in zip(golden.run(g, xs), tflm.run(xs, 1)))
    for board in BOARDS:
        features = load_board(board).features
        lowered = compile_model(path, features=features)
        kernels = [call.kernel for call in candidates(lowered, lowered.ops[1], features)]
        for rank, kernel in enumerate(kernels):
            tuning = Tuning(board, "", {1: Measured({kernel: 0}, {kernel: rank})})
            g = compile_model(path, features=features, tuning=tuning)
            assert g.ops[1].call.kernel == kernel
            out = OutDir(tmp / f"{board}-{rank}")
            program = build_board(g, load_board(board), out, "layer.tflite").program
            _, results = run_on_target(Target.of(board), program, g, samples)
            assert all(r.passed for r in results), (board, kernel, [r.outputs for r in results])
            ran.append(f"{board}:{kernel}")
    return ran


GEOMETRY = dict(batch=st.integers(1, 3), h=st.integers(1, 12), w=st.sampled_from([1, 1, 2, 3, 5, 8, 11]),
                kh=st.integers(1, 9), kw=st.sampled_from([1, 1, 2, 3, 5]), stride=st.sampled_from([1, 1, 2, 3]),
                dilation=st.sampled_from([1, 1, 2]), pad=st.sampled_from(["SAME", "VALID"]),
                out_scale=st.sampled_from([0.3, 0.05, 0.0004]), act=st.sampled_from(["NONE", "RELU", "RELU6"]),
                seed=st.integers(0, 999))


@settings(max_examples=150, deadline=None)
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


@settings(max_examples=60, deadline=None)
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
