"""The reference kernels on Armv6-M: the emulated micro:bit (nRF51, Cortex-M0, no DSP extension, no
hardware divide), bit-exact with the golden model (itself checked against TFLM in tests/test_ops_*.py) on
drawn shapes: 1 to 5 input channels, strides, dilations, padding, depth multipliers."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.targets.firmware import build_board
from mcugen.ops._window import out_size
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from test_dsp_kernels import _conv

M0 = load_board("microbit")


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 4), st.integers(1, 4), st.integers(1, 2), st.integers(1, 2),
       st.sampled_from(["SAME", "VALID"]), st.integers(1, 5), st.integers(1, 3), st.booleans(), st.integers(0, 99))
def test_reference_conv_and_depthwise_on_the_cortex_m0(tmp_path_factory, h, w, kh, kw, stride, dilation, pad, cin,
                                                       k, depthwise, seed):
    if any(out_size(pad, n, f, stride, dilation) < 1 for n, f in ((h, kh), (w, kw))):
        return  # no output position
    cout = cin * k if depthwise else k + 2
    path = tmp_path_factory.mktemp("m0") / "op.tflite"
    path.write_bytes(_conv(h, w, kh, kw, stride, dilation, pad, cin, cout, k if depthwise else 1, depthwise,
                           seed).build())
    g = compile_model(path, features=M0.features)
    result = build_board(g, M0, OutDir(path.parent / "fw"), "op.tflite")
    _, results = run_on_target(Target(M0), result.program, g, random_inputs(g, 2, seed=seed))
    assert all(r.passed for r in results), [r.outputs for r in results]
