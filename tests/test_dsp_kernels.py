"""The DSP (Cortex-M4/M33) and Helium kernels on QEMU: awkward and hypothesis-drawn shapes, pruned channels,
fused strips, widened weights giving way where flash is short; the newer reference kernels on the board."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from conftest import DSP, ROOT, argument, bit_exact_on_board, examples
from mcugen.validation import golden
from mcugen.ir.budget import Budget
from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.targets.firmware import build_board
from mcugen.validation.oracle import Tflm
from mcugen.codegen.outdir import OutDir
from mcugen.kernels.strips import FILTER_TWIN
from mcugen.passes.fuse_strips import fuse_all
from mcugen.passes.plan_memory import plan_memory
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from mcugen.ops._window import out_size
from test_dsp_fc import _fc_model
from test_ops_conv import _conv_model, conv_case
from tflite_writer import ModelSpec


def _conv(h, w, kh, kw, stride, dilation, pad, cin, cout, mult, depthwise, seed, out_q=(0.3, -4), batch=1):
    oh, ow = (out_size(pad, n, k, stride, dilation) for n, k in ((h, kh), (w, kw)))
    return _conv_model(dict(h=h, w=w, kh=kh, kw=kw, sh=stride, sw=stride, dh=dilation, dw=dilation, pad=pad,
                            oh=oh, ow=ow, cin=cin, cout=cout, mult=mult, w_scales=[0.02] * cout,
                            in_q=(0.05, 7), out_q=out_q, act="RELU", bias=True, seed=seed, batch=batch),
                       depthwise)


AWKWARD = [
    ("conv, 3 input channels, 6 outputs, dilation 2, SAME", lambda: _conv(9, 7, 3, 3, 2, 2, "SAME", 3, 6, 1, False, 1)),
    ("conv, 1x5 kernel, 9 inputs, 5 outputs, VALID", lambda: _conv(4, 11, 1, 5, 1, 1, "VALID", 9, 5, 1, False, 2)),
    ("depthwise, 6 channels (a tail of 2), dilation 2", lambda: _conv(8, 8, 3, 3, 1, 2, "SAME", 6, 6, 1, True, 3)),
    ("depthwise 3x3 unrolled, 12 channels, VALID", lambda: _conv(6, 7, 3, 3, 1, 1, "VALID", 12, 12, 1, True, 16)),
    ("depthwise 3x3, 5 channels, stride 2, batch 2 (in place)",
     lambda: _conv(9, 6, 3, 3, 2, 1, "SAME", 5, 5, 1, True, 17, batch=2)),
    ("depthwise, depth multiplier 2, stride 2 (reference)", lambda: _conv(7, 9, 3, 3, 2, 1, "SAME", 4, 8, 2, True, 4)),
    ("depthwise, depth multiplier 4, 3 channels (reference)", lambda: _conv(6, 5, 3, 2, 1, 1, "SAME", 3, 12, 4, True, 6)),
    ("fully connected, 13 -> 7, filter zero point 3", lambda: _fc_model(13, 7, 3, 5)),
    # CONV_2D's blocks of 6 positions, its direct 1x1 path and its gathered patches
    ("1x1 conv, 8 inputs (direct), 35 positions, 5 outputs", lambda: _conv(5, 7, 1, 1, 1, 1, "VALID", 8, 5, 1, False, 7)),
    ("1x1 conv, stride 2, 12 inputs, batch 2", lambda: _conv(7, 5, 1, 1, 2, 1, "VALID", 12, 9, 1, False, 8, batch=2)),
    ("1x1 conv, 6 inputs (gathered, padded to 8)", lambda: _conv(4, 5, 1, 1, 1, 1, "VALID", 6, 7, 1, False, 9)),
    ("1x1 conv, 16 inputs, batch 2: each position's pixel read where the last one ended",
     lambda: _conv(3, 5, 1, 1, 1, 1, "VALID", 16, 6, 1, False, 28, batch=2)),
    # fewer positions than a block: the rows of a FULLY_CONNECTED
    ("1x1 conv on 5 positions, 9 inputs, 7 outputs", lambda: _conv(1, 5, 1, 1, 1, 1, "VALID", 9, 7, 1, False, 20)),
    ("conv whose kernel covers its input (streaming), 5x1 x 6, batch 2",
     lambda: _conv(5, 1, 5, 1, 1, 1, "VALID", 6, 5, 1, False, 21, batch=2)),
    ("first layer, 1 input channel, 10x4 stride 2, SAME", lambda: _conv(13, 6, 10, 4, 2, 1, "SAME", 1, 10, 1, False, 10)),
    # windows inside the image widen without the per-tap gather: rows of whole words, rows copied past
    # their end (9 bytes; 3; 2, the shortest), batches
    ("first layer, 3 input channels, 3x3 stride 2, SAME, batch 2",
     lambda: _conv(11, 10, 3, 3, 2, 1, "SAME", 3, 8, 1, False, 22, batch=2)),
    ("first layer, 1 input channel, 3x3 stride 2, VALID", lambda: _conv(9, 9, 3, 3, 2, 1, "VALID", 1, 5, 1, False, 23)),
    ("conv, 3x1 kernel over 2 channels, VALID", lambda: _conv(7, 4, 3, 1, 1, 1, "VALID", 2, 3, 1, False, 24)),
    # kernel rows longer than a word and not whole words (mcu_conv2d_split_s8_w16): 9 bytes, the first layer's
    # unrolled copy, from windows inside the image and gathered patches; 15 bytes (12 + 3) through gathered
    # patches only (dilation)
    ("first layer, 3 channels, 3x3 stride 2, SAME, rows split, 5 outputs, batch 2",
     lambda: _conv(11, 10, 3, 3, 2, 1, "SAME", 3, 5, 1, False, 26, out_q=(0.3, -128), batch=2)),
    # ... with every channel in the pairs' assembly: a row's windows inside the image in runs of half-blocks
    # it widens itself (padding left of the first, a row's last ones and the bottom row's through the blocks)
    ("first layer, 3 channels, 3x3 stride 2, SAME, 8 outputs, batch 2, ReLU at -128: runs of windows",
     lambda: _conv(15, 17, 3, 3, 2, 1, "SAME", 3, 8, 1, False, 35, out_q=(0.3, -128), batch=2)),
    ("first layer, 3 channels, 3x3 stride 1, VALID, 6 outputs, ReLU at -128: whole rows of runs",
     lambda: _conv(9, 11, 3, 3, 1, 1, "VALID", 3, 6, 1, False, 36, out_q=(0.3, -128))),
    ("conv, 2x3 kernel over 5 channels (rows of 12 + 3), dilation 2",
     lambda: _conv(8, 9, 2, 3, 1, 2, "SAME", 5, 6, 1, False, 27, out_q=(0.3, -128))),
    # ReLU at zero point -128 clamps nothing SSAT does not: channel pairs of full half-blocks go through
    # one assembly loop (mcu_conv_pairs), an odd last channel and a short last half-block do not
    ("1x1 conv, 8 inputs, 7 outputs, 35 positions, ReLU at -128",
     lambda: _conv(5, 7, 1, 1, 1, 1, "VALID", 8, 7, 1, False, 25, out_q=(0.3, -128))),
    # a pointwise conv's whole half-blocks go through that loop in one call, widening their pixels itself
    ("1x1 conv, 16 inputs, 8 outputs, 35 positions, ReLU at -128: eleven half-blocks in one call, two positions after",
     lambda: _conv(5, 7, 1, 1, 1, 1, "VALID", 16, 8, 1, False, 30, out_q=(0.3, -128))),
    ("1x1 conv, 40 inputs (the loop entered part-way), 6 outputs, batch 2, ReLU at -128",
     lambda: _conv(4, 5, 1, 1, 1, 1, "VALID", 40, 6, 1, False, 31, out_q=(0.3, -128), batch=2)),
    ("conv with multiplier > 1 (the exact requantization)",
     lambda: _conv(6, 6, 3, 3, 1, 1, "SAME", 4, 6, 1, False, 11, out_q=(0.0006, 3))),
    ("depthwise on 1 input channel, multiplier 3 (runs as conv)", lambda: _conv(9, 8, 4, 3, 2, 1, "SAME", 1, 3, 3, True, 12)),
    ("depthwise, 8 channels, 5x5, stride 2", lambda: _conv(11, 9, 5, 5, 2, 1, "SAME", 8, 8, 1, True, 13)),
    ("depthwise, multiplier > 1 requantization", lambda: _conv(5, 6, 3, 3, 1, 1, "VALID", 8, 8, 1, True, 14,
                                                               out_q=(0.0006, 3))),
    ("depthwise 3x3 stride 1, 9 wide: a channel at a time, batch 2 (in place)",
     lambda: _conv(5, 9, 3, 3, 1, 1, "SAME", 6, 6, 1, True, 18, batch=2)),
    ("depthwise 3x3 stride 1, 9 wide, ReLU at -128: all rows in one loop, an odd row's last output alone",
     lambda: _conv(5, 9, 3, 3, 1, 1, "SAME", 6, 6, 1, True, 29, out_q=(0.3, -128))),
    # stride 2 a channel at a time (mcu_dw3_sums_stride2_x2): an odd and an even side, a row of an odd count of outputs
    # and one with no room for a right pad, an output taller than wide
    ("depthwise 3x3 stride 2, 13 x 14 SAME, 6 channels: a channel at a time, batch 2 (in place)",
     lambda: _conv(13, 14, 3, 3, 2, 1, "SAME", 6, 6, 1, True, 32, batch=2)),
    ("depthwise 3x3 stride 2, 16 x 16 VALID (7 x 7: rows of an odd count), 4 channels",
     lambda: _conv(16, 16, 3, 3, 2, 1, "VALID", 4, 4, 1, True, 33)),
    ("depthwise 3x3 stride 2, 14 x 14 VALID (6 x 6): a window row the image's 14 values exactly, no pad after",
     lambda: _conv(14, 14, 3, 3, 2, 1, "VALID", 8, 8, 1, True, 37)),
    ("depthwise 3x3 stride 2, 17 x 13 VALID, taller than wide, 9 channels, ReLU at -128",
     lambda: _conv(17, 13, 3, 3, 2, 1, "VALID", 9, 9, 1, True, 34, out_q=(0.3, -128))),
    ("depthwise 3x3 stride 1, 10 wide VALID, multiplier > 1 requantization",
     lambda: _conv(4, 12, 3, 3, 1, 1, "VALID", 5, 5, 1, True, 19, out_q=(0.0006, 3))),
    ("fully connected, 8 -> 3", lambda: _fc_model(8, 3, 0, 15)),
]
# on int8 weights (--optimize balanced and size: these layers' widened weights would pass 1.1x theirs) and, where
# the widened weights' code differs (the pairs' assembly, a first layer's runs of windows, split rows), on them
WIDENED = [(name, spec) for name, spec in AWKWARD if "-128" in name or "first layer" in name or "split" in name]


@pytest.mark.parametrize("name, spec, optimize", [(*case, "balanced") for case in AWKWARD] +
                         [(*case, "speed") for case in WIDENED])
def test_dsp_kernels_match_the_golden_model_on_awkward_shapes(tmp_path, name, spec, optimize):
    """The optimized Cortex-M4 kernels (runtime_c/dsp/) on what their fast paths don't cover evenly:
    channel counts that aren't multiples of 4, padding, dilation, depth multipliers, filter offsets."""
    path = tmp_path / "op.tflite"
    path.write_bytes(spec().build())
    g = compile_model(path, features=DSP, budget=Budget(optimize=optimize))
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "fw"), "op.tflite")
    kernel = g.ops[0].call.kernel
    if (ROOT / "runtime_c" / "dsp" / f"{kernel}.c").is_file():  # the optimized kernel was the one built
        built = (tmp_path / "fw" / "src" / f"{kernel}.c").read_text()
        assert built == (ROOT / "runtime_c" / "dsp" / f"{kernel}.c").read_text()
    _, results = run_on_target(Target.of("mps2-an386"), result.program, g, random_inputs(g, 3, seed=8))
    assert all(r.passed for r in results), (name, [r.outputs for r in results])


PRUNED = [
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_live_s8_w16", -4),  # three live: a pair and an odd one
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_live_s8_w16", -128),  # ... the pair in the assembly loop
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_s8_x6", -4),  # every channel computed, the pruned ones' requantization settled
    ((5, 1, 1, 8), (0, 2, 3, 4), "mcu_conv2d_live_s8_w16", -4),  # 1x1 in place, one live channel
    ((6, 1, 1, 8), (1, 4), "mcu_conv2d_live_s8_w16", -128),  # 1x1 in place, two live pairs: the assembly's half-blocks
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_live_s8_x6", -4),  # int8 weights: a pair and an odd one
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_live_s8_x6", -128),  # ... the pair in the int8 assembly loop
    ((6, 1, 1, 8), (1, 4), "mcu_conv2d_live_s8_x6", -128),  # 1x1 in place, two live pairs, int8 weights
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_live_s8_twin", -4),  # twin words: a pair and an odd one
    ((6, 1, 1, 8), (1, 4), "mcu_conv2d_live_s8_twin", -128),  # ... two live pairs in the twin assembly loop
]


# the assembly loops' cases also on the M33 and the M7, whose blocks are scheduled for them
# (mcu_nn_conv_pairs_dsp.h)
@pytest.mark.parametrize("shape, dead, kernel, zp, board", [(*case, "mps2-an386") for case in PRUNED] +
                         [(*case, board) for case in PRUNED if case[3] == -128 for board in ("mps2-an505", "mps2-an500")])
def test_pruned_channels_are_skipped_or_settled_and_stay_bit_exact(tmp_path, shape, dead, kernel, zp, board):
    """Channels whose weights are all zero (pruned; MLPerf's MobileNet keeps biases near 2^30 on them) output
    one value each: mcu_conv2d_live_s8_w16 (and _s8_x6, on int8 weights) computes only the others and writes
    those values from a row; the dense int8-weight conv computes them all, their requantization made the fast one (ops/_quant.py
    settle_dead_channels). One pruned channel has a multiplier > 1. With an activation that clamps nothing
    SSAT does not (zero point -128), the live pair goes through the assembly loop and its outputs to their
    channels. Bit-exact on the emulated Cortex-M4, the golden model with TFLM."""
    rng = np.random.default_rng(len(dead))
    taps = rng.integers(-127, 128, shape)
    taps[list(dead)] = 0
    cout = shape[0]
    scales = [9.0 if c == dead[-1] else 0.02 for c in range(cout)]  # input * weight scale > output scale
    biases = [(-1) ** c * (2 ** 30 + 128 * c) if c in dead else int(rng.integers(-900, 900)) for c in range(cout)]
    m = ModelSpec()
    x = m.tensor("x", [1, 5, 6, shape[3]], "int8", scale=0.05, zp=7)
    f = m.const("f", taps, "int8", scale=scales, zp=[0] * cout, axis=0)
    b = m.const("b", biases, "int32", scale=[0.05 * s for s in scales], zp=[0] * cout)
    y = m.tensor("y", [1, 5, 6, cout], "int8", scale=0.3, zp=zp)
    m.op("CONV_2D", [x, f, b], [y], "Conv2DOptions", Padding="SAME", StrideW=1, StrideH=1,
         FusedActivationFunction="RELU")
    m.inputs, m.outputs = [x], [y]
    bit_exact_on_board(tmp_path, m, 6, samples=3, kernel=kernel, force=kernel != "mcu_conv2d_live_s8_w16",
                       board=board)
    g = compile_model(tmp_path / "op.tflite", features=DSP)
    tflm = Tflm(m.build())
    for xs in random_inputs(g, 3, seed=6):
        assert all(np.array_equal(a, b) for a, b in zip(golden.run(g, xs), tflm.run(xs, 1)))


@settings(max_examples=examples(10), deadline=None)
@given(st.booleans(), st.data())
def test_dsp_conv_kernels_on_qemu_for_drawn_shapes(tmp_path_factory, depthwise, data):
    """The randomized single-op cases (tests/test_ops_conv.py, whose golden model the oracles
    check) built for the emulated Cortex-M4: the DSP kernels (CONV_2D in blocks, depthwise by
    channel groups from a padded window, in place) bit-exact on QEMU, for drawn kernel sizes,
    strides, dilations, padding, channel counts, depth multipliers, batches and quantizations."""
    c = data.draw(conv_case(depthwise=depthwise))
    m = _conv_model(c, depthwise)
    if m is None:
        return
    bit_exact_on_board(tmp_path_factory.mktemp("dsp"), m, c["seed"])


@pytest.mark.parametrize("board, kernel", [(board, kernel) for board in ("mps2-an386", "mps2-an505") for kernel in
                                           ("mcu_conv2d_s8_twin", "mcu_conv2d_s8_x6")] +
                         [("mps2-an500", "mcu_conv2d_s8_twin"), ("mps2-an500", "mcu_conv2d_s8_w16")])
@settings(max_examples=examples(6), deadline=None)
@given(st.data())
def test_the_int8_weight_convs_on_qemu_for_drawn_shapes(tmp_path_factory, kernel, board, data):
    """mcu_conv2d_s8_twin (a channel pair's int8 weights a halfword: --optimize balanced's where the widened
    weights have no room) and mcu_conv2d_s8_x6 (where twin words do not hold a layer; --optimize speed's
    mcu_conv2d_s8_w16 runs the cases above), forced: bit-exact on QEMU for drawn shapes, strides, dilations,
    padding, channel counts and quantizations; on the M4, on the M33 and on the M7 (each its own schedule of
    the pairs' loops; the M7's int8-word loop is the M4's)."""
    c = data.draw(conv_case(depthwise=False))
    m = _conv_model(c, False)
    if m is None:
        return
    bit_exact_on_board(tmp_path_factory.mktemp("x6"), m, c["seed"], kernel=kernel, force=True, board=board)


def test_twin_words_hold_a_channel_pair_exactly_up_to_their_bound(tmp_path):
    """A twin pair's c1 sum is its halfwords' mixed sum less c0's, over 256: exact while bias1 plus any sum of
    c1's products lies in [-2^23, 2^23). c0 at 127 and c1 at -128 on 256 taps (w1 = -128 beside w0 >= 0 is an
    int16), input zero point -128 (its share of the bias 16384 a tap): c1's sums reach -32640 a tap at inputs of
    127, -8,355,840. With a bias of -32768 (-2^23 in all) the layer runs on twin words, bit-exact on QEMU at the
    edge, through the assembly's pairs (six positions) and the C remainder (a seventh); at -32769 it is refused
    and runs on int8 words (--optimize size: no widened weights), still bit-exact."""
    board = load_board("mps2-an386")
    depth = 256
    for bias, kernel in ((-32768, "mcu_conv2d_s8_twin"), (-32769, "mcu_conv2d_s8_x6")):
        rng = np.random.default_rng(-bias)
        m = ModelSpec()
        x = m.tensor("x", [1, 1, 7, depth], "int8", scale=0.05, zp=-128)
        taps = np.stack([np.full(depth, 127), np.full(depth, -128), rng.integers(-127, 128, depth)])
        f = m.const("f", taps.reshape(3, 1, 1, depth), "int8", scale=[0.0001] * 3, zp=[0] * 3, axis=0)
        b = m.const("b", [0, bias, 5], "int32", scale=[0.000005] * 3, zp=[0] * 3)
        y = m.tensor("y", [1, 1, 7, 3], "int8", scale=2.0, zp=0)
        m.op("CONV_2D", [x, f, b], [y], "Conv2DOptions", Padding="VALID", StrideW=1, StrideH=1)
        m.inputs, m.outputs = [x], [y]
        path = tmp_path / f"conv{-bias}.tflite"
        path.write_bytes(m.build())
        g = compile_model(path, features=board.features, budget=Budget(optimize="size"))
        assert g.ops[0].call.kernel == kernel
        program = build_board(g, board, OutDir(tmp_path / f"fw{-bias}"), path.name).program
        edges = [np.full((1, 1, 7, depth), v, dtype=np.int8) for v in (127, -128)]
        _, results = run_on_target(Target.of(board.id), program, g, [[e] for e in edges] + random_inputs(g, 2, seed=1))
        assert all(r.passed for r in results), [r.outputs for r in results]
        golden_out = golden.run(g, [edges[0]])[0]
        assert np.array_equal(golden_out, Tflm(m.build()).run([edges[0]], 1)[0])


@settings(max_examples=examples(10), deadline=None)
@given(st.booleans(), st.booleans(), st.sampled_from(["int32", "int64"]), st.data())
def test_dsp_16x8_kernels_on_qemu_for_drawn_shapes(tmp_path_factory, depthwise, three, bias_type, data):
    """The 16x8 DSP variants (mcu_conv2d_s16_x6 on the register-blocked conv loop, the channel-at-a-time
    mcu_depthwise_conv2d_s16_x2 for 3x3 stride 1) bit-exact on QEMU for drawn shapes, strides,
    dilations, padding, channel counts, batches, 32- and 64-bit accumulators."""
    c = data.draw(conv_case(depthwise=depthwise))
    if three:  # the depthwise variant's shapes
        c.update(kh=3, kw=3, sh=1, sw=1, dh=1, dw=1, oh=out_size(c["pad"], c["h"], 3, 1, 1),
                 ow=out_size(c["pad"], c["w"], 3, 1, 1))
        if depthwise:
            c.update(mult=1, cout=c["cin"], w_scales=c["w_scales"][:1])
    m = _conv_model(c, depthwise, activations="int16", bias_type="int64" if depthwise else bias_type)
    if m is None:
        return
    kernel = "mcu_conv2d_s16_x6" if not depthwise else "mcu_depthwise_conv2d_s16_x2" if three and c["cin"] > 1 else None
    bit_exact_on_board(tmp_path_factory.mktemp("dsp16"), m, c["seed"], kernel=kernel)


@settings(max_examples=examples(10), deadline=None)
@given(st.booleans(), st.sampled_from(["int32", "int64"]), st.data())
def test_helium_16x8_conv_on_qemu_for_drawn_shapes(tmp_path_factory, depthwise, bias_type, data):
    """mcu_conv2d_s16_mve (patches gathered with zeros, or read in place for unpadded 1x1 kernels; eight
    products per VMLADAVA, the weights widened as they load, depths off the eights) and
    mcu_depthwise_conv2d_s16_mve (four channels per vector, windows clipped, the last channels predicated)
    bit-exact on the emulated Cortex-M55 for drawn shapes, strides, dilations, padding, batches, both
    accumulators."""
    c = data.draw(conv_case(depthwise=depthwise))
    if depthwise:
        c.update(mult=1, cout=c["cin"], w_scales=c["w_scales"][:1])
    m = _conv_model(c, depthwise, activations="int16", bias_type="int64" if depthwise else bias_type)
    if m is None:
        return
    three = (c["kh"], c["kw"], c["sh"], c["sw"], c["dh"], c["dw"]) == (3, 3, 1, 1, 1, 1)
    kernel = ("mcu_conv2d_s16_mve" if not depthwise and c["kh"] * c["kw"] * c["cin"] * 32768 * 128 < 2 ** 31 else
              "mcu_depthwise_conv2d_s16_mve" if depthwise and c["cin"] > 1 and not three else None)
    bit_exact_on_board(tmp_path_factory.mktemp("mve16"), m, c["seed"], kernel=kernel, board="mps3-an547")


@pytest.mark.parametrize("board", ["mps2-an386", "mps2-an505"])  # the M33: its own load order (mcu_nn_dw3_dsp.h)
@settings(max_examples=examples(9), deadline=None)
@given(st.integers(1, 7), st.integers(1, 13), st.integers(2, 9), st.sampled_from(["SAME", "VALID"]),
       st.sampled_from(["NONE", "RELU", "RELU6"]), st.integers(1, 2), st.booleans(), st.integers(0, 999))
@example(7, 3, 5, "SAME", "RELU", 1, False, 3)  # taller than wide: down the columns, an odd length of 7
@example(6, 5, 4, "VALID", "NONE", 2, True, 4)  # down the columns, an even length without pads
@example(40, 30, 6, "SAME", "RELU6", 1, False, 5)  # four windows past MCU_DW3_GROUP_BYTES: one channel's at a time
def test_the_channel_at_a_time_3x3_depthwise_on_qemu(tmp_path_factory, board, h, w, c, pad, act, batch, exact,
                                                     seed):
    """mcu_depthwise_conv2d_s8_x2 (3x3, stride 1) bit-exact on QEMU at any width, forced where the
    default keeps the four-channel kernel (narrower than depthwise_conv_2d.WIDE): odd widths (a pair
    straddling each row's end), one to thirteen columns, SAME and VALID, batches, in place, the SSAT-only
    and clamping epilogues, the exact (multiplier > 1) requantization; outputs taller than wide, which
    the kernel runs down the columns."""
    oh, ow = out_size(pad, h, 3, 1, 1), out_size(pad, w, 3, 1, 1)
    m = _conv_model(dict(h=h, w=w, kh=3, kw=3, sh=1, sw=1, dh=1, dw=1, pad=pad, oh=oh, ow=ow, cin=c, cout=c, mult=1,
                         w_scales=[0.02] * c, in_q=(0.05, 7), out_q=(0.0006, 3) if exact else (0.3, -4), act=act,
                         bias=True, seed=seed, batch=batch), True)
    if m is None:
        return
    bit_exact_on_board(tmp_path_factory.mktemp("dw3"), m, seed, kernel="mcu_depthwise_conv2d_s8_x2", force=True,
                       board=board)


@settings(max_examples=examples(8), deadline=None)
@given(st.sampled_from(["ADD", "SUB"]), st.lists(st.integers(1, 7), min_size=1, max_size=4),
       st.floats(1e-3, 1.0), st.integers(-128, 127), st.floats(1e-3, 1.0), st.integers(-128, 127),
       st.floats(1e-3, 2.0), st.integers(-128, 127), st.sampled_from(["NONE", "RELU", "RELU6"]))
@example("ADD", [4, 4, 16], 0.05, -3, 0.05, 5, 0.1, -2, "RELU")  # equal scales: an input shift of 0
@example("SUB", [7], 0.9, 127, 0.001, -128, 1e-3, 5, "NONE")  # an output left shift: the reference kernel
def test_dsp_add_and_sub_on_qemu_for_drawn_shapes(tmp_path_factory, opcode, shape, s1, z1, s2, z2, so, zo, act):
    """mcu_add_s8_x4 (each rescale with SMMULR, its shifts 0 or right shifts; the reference mcu_add for
    the rest) bit-exact on the emulated Cortex-M4: element counts off the fours, zero points at the ends
    of int8, fused activations."""
    from single_op import binary_model

    model = binary_model(opcode, (shape, shape), "int8", (s1, z1), (s2, z2), (so, zo), act)
    bit_exact_on_board(tmp_path_factory.mktemp("add_x4"), model, len(shape), samples=3, kernel="mcu_add_s8_x4")


@settings(max_examples=examples(7), deadline=None)
@given(st.sampled_from([("int16", "int8"), ("int8", "int16"), ("int16", "int16")]), st.integers(1, 40),
       st.floats(1e-4, 1.0), st.integers(-128, 127), st.floats(2.5, 3000.0), st.integers(-128, 127))
def test_dsp_requantize_on_qemu(tmp_path_factory, types, n, s_in, z_in, ratio, z_out):
    """QUANTIZE between int8 and int16 ends with a right shift (an output scale over twice the input's)
    on mcu_requantize_int_x4, bit-exact on the emulated Cortex-M4: counts off the fours, zero points."""
    m = ModelSpec()
    x = m.tensor("x", [1, n], types[0], scale=s_in, zp=z_in if types[0] == "int8" else 0)
    y = m.tensor("y", [1, n], types[1], scale=s_in * ratio, zp=z_out if types[1] == "int8" else 0)
    m.op("QUANTIZE", [x], [y])
    m.inputs, m.outputs = [x], [y]
    bit_exact_on_board(tmp_path_factory.mktemp("rq_x4"), m, n, samples=3, kernel="mcu_requantize_int_x4")


@settings(max_examples=examples(7), deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 4), st.integers(1, 4), st.integers(1, 3),
       st.sampled_from(["SAME", "VALID"]), st.integers(1, 11), st.integers(-128, 127),
       st.sampled_from(["NONE", "RELU", "RELU6"]))
@example(17, 16, 17, 16, 1, "VALID", 5, 3, "NONE")  # a 272-tap window: the reference kernel's way
def test_dsp_average_pool_on_qemu(tmp_path_factory, h, w, kh, kw, stride, pad, channels, zp, act):
    """mcu_avgpool_s8_x4 (four channels summed per word) bit-exact on the emulated Cortex-M4: channels
    off the fours, windows the padding clips (fewer taps to average), strides, fused activations."""
    from single_op import pool_model

    m = pool_model("AVERAGE_POOL_2D", h, w, kh, kw, stride, pad, channels, zp, act)
    if m is not None:
        bit_exact_on_board(tmp_path_factory.mktemp("avgpool_x4"), m, h * w, kernel="mcu_avgpool_s8_x4")

def _conv_into(m, rng, x, x_shape, k, stride, cout, depthwise=False, pruned=(), act="RELU"):
    """A CONV_2D (or DEPTHWISE_CONV_2D on one channel, which runs as a conv) on x, SAME padding; `pruned`:
    output channels whose weights are all zero; `act` its fused activation."""
    _, h, w, cin = x_shape
    oh, ow = -(-h // stride), -(-w // stride)
    taps = rng.integers(-127, 128, (1, k, k, cout) if depthwise else (cout, k, k, cin))
    taps[list(pruned)] = 0
    f = m.const("f", taps, "int8", scale=[0.02] * cout, zp=[0] * cout, axis=3 if depthwise else 0)
    b = m.const("b", rng.integers(-900, 900, cout), "int32", scale=[0.001] * cout, zp=[0] * cout)
    t = m.tensor("t", [1, oh, ow, cout], "int8", scale=0.4, zp=-6)
    if depthwise:
        m.op("DEPTHWISE_CONV_2D", [x, f, b], [t], "DepthwiseConv2DOptions", Padding="SAME", StrideW=stride,
             StrideH=stride, DepthMultiplier=cout, FusedActivationFunction=act)
    else:
        m.op("CONV_2D", [x, f, b], [t], "Conv2DOptions", Padding="SAME", StrideW=stride, StrideH=stride,
             FusedActivationFunction=act)
    return t, (1, oh, ow, cout)


def _conv_then_fc(h, w, cin, k, stride, cout, units, depthwise=False, view=False, act="RELU"):
    rng = np.random.default_rng(h * w + units)
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, cin], "int8", scale=0.05, zp=7)
    t, shape = _conv_into(m, rng, x, (1, h, w, cin), k, stride, cout, depthwise, act=act)
    depth = int(np.prod(shape))
    if view:  # a RESHAPE between them, as Keras' Flatten makes
        flat = m.tensor("flat", [1, depth], "int8", scale=0.4, zp=-6)
        m.op("RESHAPE", [t, m.const("shape", [1, depth], "int32")], [flat], "ReshapeOptions", NewShape=[1, depth])
        t = flat
    fw = m.const("fw", rng.integers(-127, 128, (units, depth)), "int8", scale=0.003, zp=0)
    fb = m.const("fb", rng.integers(-3000, 3000, units), "int32", scale=0.4 * 0.003, zp=0)
    y = m.tensor("y", [1, units], "int8", scale=0.5, zp=3)
    m.op("FULLY_CONNECTED", [t, fw, fb], [y], "FullyConnectedOptions", version=4, FusedActivationFunction="NONE")
    m.inputs, m.outputs = [x], [y]
    return m


def _conv_then_add(h, w, c, stride, conv_first, residual_is_input, pruned=(), k=3, act="RELU"):
    """ADD(conv(z), r) (or ADD(r, conv(z))) where r is a second input, or the conv's own input; the conv
    k x k with fused activation `act`."""
    rng = np.random.default_rng(h * w * c + stride)
    m = ModelSpec()
    z = m.tensor("z", [1, h * stride, w * stride, c], "int8", scale=0.05, zp=-2)
    t, shape = _conv_into(m, rng, z, (1, h * stride, w * stride, c), k, stride, c, pruned=pruned, act=act)
    r = z if residual_is_input else m.tensor("r", list(shape), "int8", scale=0.07, zp=4)
    y = m.tensor("y", list(shape), "int8", scale=0.3, zp=-1)
    m.op("ADD", [t, r] if conv_first else [r, t], [y], "AddOptions", FusedActivationFunction="RELU")
    m.inputs, m.outputs = ([z] if residual_is_input else [z, r]), [y]
    return m


def _conv_conv_add(h, w, cin, c, k1, stride, residual_is_input, act="RELU", shortcut=None, shortcut_first=False):
    """ADD(conv(conv(z)), r): a ResNet block, whose residual r is a second input or z itself, or with
    `shortcut` k, a k x k conv of z with the first conv's stride (a projection shortcut; shortcut_first: before
    the main path in the file, and the ADD's first input)."""
    rng = np.random.default_rng(h * w * c + k1 + stride + (shortcut or 0))
    m = ModelSpec()
    z = m.tensor("z", [1, h, w, cin], "int8", scale=0.05, zp=-2)
    if shortcut and shortcut_first:
        r, _ = _conv_into(m, rng, z, (1, h, w, cin), shortcut, stride, c, act="NONE")
    t, shape = _conv_into(m, rng, z, (1, h, w, cin), k1, stride, c, act=act)
    u, shape = _conv_into(m, rng, t, shape, 3, 1, c, act=act)
    if shortcut and not shortcut_first:
        r, _ = _conv_into(m, rng, z, (1, h, w, cin), shortcut, stride, c, act="NONE")
    elif not shortcut:
        r = z if residual_is_input else m.tensor("r", list(shape), "int8", scale=0.07, zp=4)
    y = m.tensor("y", list(shape), "int8", scale=0.3, zp=-1)
    m.op("ADD", [r, u] if shortcut_first else [u, r], [y], "AddOptions", FusedActivationFunction="RELU")
    m.inputs, m.outputs = ([z] if residual_is_input or shortcut else [z, r]), [y]
    return m


def _conv_then_depthwise(h, w, cin, k, cout, dw_k, stride, padding, dilation=1, act="RELU"):
    """DEPTHWISE_CONV_2D (depth multiplier 1) of conv(x): MobileNet's pointwise -> depthwise pairs."""
    rng = np.random.default_rng(h * w * cin + dw_k * stride)
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, cin], "int8", scale=0.05, zp=7)
    t, (_, th, tw, _) = _conv_into(m, rng, x, (1, h, w, cin), k, 1, cout, act=act)
    oh, ow = (out_size(padding, n, dw_k, stride, dilation) for n in (th, tw))
    f = m.const("dwf", rng.integers(-127, 128, (1, dw_k, dw_k, cout)), "int8", scale=[0.03] * cout, zp=[0] * cout,
                axis=3)
    b = m.const("dwb", rng.integers(-2000, 2000, cout), "int32", scale=[0.4 * 0.03] * cout, zp=[0] * cout)
    y = m.tensor("y", [1, oh, ow, cout], "int8", scale=0.5, zp=-3)
    m.op("DEPTHWISE_CONV_2D", [t, f, b], [y], "DepthwiseConv2DOptions", Padding=padding, StrideW=stride,
         StrideH=stride, DepthMultiplier=1, DilationWFactor=dilation, DilationHFactor=dilation,
         FusedActivationFunction="RELU6")
    m.inputs, m.outputs = [x], [y]
    return m


@pytest.mark.parametrize("name, spec, in_place", [
    # the depthwise's output rows each read a few of the conv's, held in a buffer (rows skipped by stride 2
    # never computed, top padding, rows past the bottom)
    ("1x1 conv -> depthwise 3x3 stride 2 SAME", lambda: _conv_then_depthwise(12, 10, 3, 1, 16, 3, 2, "SAME"), False),
    ("conv 3x3 -> depthwise 3x3 stride 1 VALID, 5 x 5 (forced)", lambda: _conv_then_depthwise(7, 7, 4, 3, 12, 3, 1, "VALID"),
     False),
    ("1x1 conv -> depthwise 5x5 stride 2 SAME, odd sizes",
     lambda: _conv_then_depthwise(13, 7, 2, 1, 20, 5, 2, "SAME"), False),
    ("1x1 conv -> depthwise 3x3 dilation 2 SAME, 10 channels (forced)",
     lambda: _conv_then_depthwise(9, 6, 3, 1, 10, 3, 1, "SAME", dilation=2), False),
    ("conv 3x3 -> FC: 7 rows in strips of 6 and 1, 280 values, 5 units", lambda: _conv_then_fc(7, 5, 3, 3, 1, 8, 5),
     False),
    ("conv 3x3 -> FC: 135 values (not a multiple of 4)", lambda: _conv_then_fc(9, 3, 3, 3, 1, 5, 5), False),
    ("depthwise on 1 channel (as conv), stride 2 -> RESHAPE -> FC, 4 units",
     lambda: _conv_then_fc(11, 8, 1, 3, 2, 4, 4, depthwise=True, view=True), False),
    # a pointwise conv without clamping reads its pixels in place of patches, whole half-blocks of three at a
    # time: the last strip, one position, has none (Silicon Labs' keyword model ran past memory there)
    ("1x1 conv on one column -> ADD with a second input: strips of 6 and 1 position (forced)",
     lambda: _conv_then_add(7, 1, 8, 1, True, False, k=1, act="NONE"), True),
    ("conv 3x3 stride 2 -> ADD with a second input, conv second (in place)",
     lambda: _conv_then_add(5, 4, 6, 2, False, False), True),
    # both convs of a block inside the ADD's call, a row at a time
    ("conv 3x3 -> conv 3x3 -> ADD with the first conv's input (in place: rows written behind the reads)",
     lambda: _conv_conv_add(9, 7, 5, 5, 3, 1, True), True),
    ("conv 3x3 stride 2 -> conv 3x3 -> ADD with a second input, 7 channels (forced; in place over it)",
     lambda: _conv_conv_add(11, 8, 4, 7, 3, 2, False), True),
    ("conv 5x5 -> conv 3x3 -> ADD with the first conv's input (forced; not in place: it reads a row behind)",
     lambda: _conv_conv_add(8, 6, 3, 3, 5, 1, True), False),
    # and a projection shortcut's conv too, strip by strip: the output over the block's input behind both
    # convs' reads where its rows are no larger
    ("conv 3x3 stride 2 -> conv 3x3 -> ADD with a 1x1 stride-2 conv of the block's input (forced; in place)",
     lambda: _conv_conv_add(12, 10, 5, 7, 3, 2, False, shortcut=1), True),
    ("8 -> 4 channels, 3x3 shortcut first in the file: output rows half the input's (forced; in place)",
     lambda: _conv_conv_add(9, 7, 8, 4, 3, 1, False, shortcut=3, shortcut_first=True), True),
    ("3 -> 5 channels, 3x3 convs and shortcut: output rows larger than the input's (forced; not in place)",
     lambda: _conv_conv_add(7, 5, 3, 5, 3, 1, False, shortcut=3), False),
    # a conv run on its live channels alone runs its strips on all of them
    ("conv 3x3 with pruned channels -> ADD with a second input (in place over it)",
     lambda: _conv_then_add(5, 4, 6, 1, True, False, pruned=(1, 4)), True),
    # fusing saves nothing here, so the pass leaves it; forced, the residual keeps its bytes
    ("conv 3x3 -> ADD with its own input (forced; not in place: the conv still reads it)",
     lambda: _conv_then_add(6, 5, 4, 1, True, True), False),
])
@pytest.mark.parametrize("room, filter_bits", [(None, 16), (0, FILTER_TWIN)])
def test_fused_strip_plans_are_bit_exact_with_tflm_on_qemu(tmp_path, name, spec, in_place, room, filter_bits):
    """A conv run a strip of rows at a time inside its consumer's call (passes/fuse_strips.py), on
    widened weights or (no flash to spare) twin words: the intermediate has no buffer, the residual is
    overwritten only when nothing else reads it, and the outputs on the emulated Cortex-M4 equal the
    golden model's, which equal TFLM's."""
    g = _fused_strips_bit_exact(tmp_path, spec(), room, forced="forced" in name)
    conv = next(op for op in g.ops if op.opcode in ("CONV_2D", "DEPTHWISE_CONV_2D"))
    consumer = g.ops[conv.fused_into]
    assert argument(consumer.call, "filter_bits") == filter_bits
    out = g.arena.buffer_of[consumer.outputs[0]]
    assert any(out == g.arena.buffer_of[t] for t in (*g.inputs, *conv.inputs) if t in g.arena.buffer_of) == in_place


@settings(max_examples=examples(6), deadline=None)
@given(consumer=st.sampled_from(["ADD", "ADD of its input", "ADD of two convs", "ADD of a block and its shortcut",
                                 "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"]),
       h=st.integers(1, 13), w=st.sampled_from([1, 1, 2, 3, 5]), c=st.sampled_from([1, 2, 3, 5, 8]),
       k=st.sampled_from([1, 1, 3]), stride=st.sampled_from([1, 2]), act=st.sampled_from(["NONE", "RELU"]),
       room=st.sampled_from([None, 0]))
@example(consumer="ADD", h=7, w=1, c=8, k=1, stride=1, act="NONE", room=0)
def test_fused_strips_on_qemu_for_drawn_shapes(tmp_path_factory, consumer, h, w, c, k, stride, act, room):
    """Every fusion forced on drawn geometries: the strips' last one of any number of rows and positions
    (one or two: no whole half-block), pointwise convs that read their pixels in place of patches (no
    activation), int8 and widened weights; bit-exact on the emulated Cortex-M4 with the golden model and
    TFLM."""
    spec = {"ADD": lambda: _conv_then_add(h, w, c, stride, True, False, k=k, act=act),
            "ADD of its input": lambda: _conv_then_add(h, w, c, 1, False, True, k=k, act=act),
            "ADD of two convs": lambda: _conv_conv_add(h, w, c, c, k, stride, False, act=act),
            "ADD of a block and its shortcut": lambda: _conv_conv_add(h * stride, w, c, c + 1, k, stride, False,
                                                                      act=act, shortcut=1 + 2 * (h % 2),
                                                                      shortcut_first=w % 2 == 0),
            "DEPTHWISE_CONV_2D": lambda: _conv_then_depthwise(h, w, c, k, c + 1, 3, stride, "SAME", act=act),
            "FULLY_CONNECTED": lambda: _conv_then_fc(h, w, c, k, 1, c, 3, act=act)}[consumer]
    _fused_strips_bit_exact(tmp_path_factory.mktemp("strips"), spec(), room, forced=None)


def _fused_strips_bit_exact(tmp_path, m: ModelSpec, room, forced: bool | None):
    """m compiled for the M4 (const_room `room`), bit-exact on QEMU with the golden model, which equals TFLM;
    the graph that ran. forced: the pass fuses nothing, every fusion is taken by hand; None: taken by hand
    where the pass fused nothing."""
    blob = m.build()
    path = tmp_path / "op.tflite"
    path.write_bytes(blob)
    g = compile_model(path, features=DSP, budget=Budget(const_room=room, optimize="speed"))
    unfused = all(op.fused_into is None for op in g.ops)
    assert unfused or not forced
    if unfused and forced is not False:
        g = plan_memory(fuse_all(g))
    conv = next(op for op in g.ops if op.opcode in ("CONV_2D", "DEPTHWISE_CONV_2D"))
    assume(conv.fused_into is not None)  # a drawn conv may run on a kernel without strips
    assert conv.outputs[0] not in g.arena.buffer_of and g.arena.plan.conflicts() == []
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "fw"), "op.tflite")
    samples = random_inputs(g, 3, seed=4)
    _, results = run_on_target(Target.of("mps2-an386"), result.program, g, samples)
    assert all(r.passed for r in results), [r.outputs for r in results]
    tflm = Tflm(blob)
    for xs in samples:
        assert all(np.array_equal(a, b) for a, b in zip(golden.run(g, xs), tflm.run(xs, 1)))
    return g


def _chain_of_newer_ops():
    """SPACE_TO_BATCH_ND -> BATCH_TO_SPACE_ND -> PRELU -> RESIZE_BILINEAR -> ABS -> SQUARED_DIFFERENCE
    -> RSQRT (whose input, a square, is never negative)."""
    m = ModelSpec()
    x = m.tensor("x", [1, 4, 6, 3], "int8", scale=0.05, zp=-3)
    batched = m.tensor("batched", [4, 3, 3, 3], "int8", scale=0.05, zp=-3)
    m.op("SPACE_TO_BATCH_ND", [x, m.const("block", [2, 2], "int32"), m.const("pads", [[1, 1], [0, 0]], "int32")],
         [batched], "SpaceToBatchNDOptions")
    space = m.tensor("space", [1, 4, 6, 3], "int8", scale=0.05, zp=-3)
    m.op("BATCH_TO_SPACE_ND", [batched, m.const("block2", [2, 2], "int32"),
                               m.const("crops", [[1, 1], [0, 0]], "int32")], [space], "BatchToSpaceNDOptions")
    prelu = m.tensor("prelu", [1, 4, 6, 3], "int8", scale=0.04, zp=-10)
    m.op("PRELU", [space, m.const("alpha", [-90, 30, 127], "int8", scale=0.01, zp=4)], [prelu])
    big = m.tensor("big", [1, 7, 5, 3], "int8", scale=0.04, zp=-10)
    m.op("RESIZE_BILINEAR", [prelu, m.const("size", [7, 5], "int32")], [big], "ResizeBilinearOptions",
         version=3, HalfPixelCenters=True)
    magnitude = m.tensor("abs", [1, 7, 5, 3], "int8", scale=0.03, zp=-100)
    m.op("ABS", [big], [magnitude], version=2)
    square = m.tensor("square", [1, 7, 5, 3], "int8", scale=0.05, zp=-128)
    m.op("SQUARED_DIFFERENCE", [magnitude, big], [square], version=2)
    y = m.tensor("y", [1, 7, 5, 3], "int8", scale=0.1, zp=-50)
    m.op("RSQRT", [square], [y], version=2)
    m.inputs, m.outputs = [x], [y]
    return m


def test_newer_reference_kernels_are_bit_exact_on_the_emulated_board(tmp_path):
    path = tmp_path / "chain.tflite"
    path.write_bytes(_chain_of_newer_ops().build())
    g = compile_model(path)
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "fw"), "chain.tflite")
    _, results = run_on_target(Target.of("mps2-an386"), result.program, g, random_inputs(g, 3, seed=4))
    assert [op.opcode for op in g.ops][-1] == "RSQRT" and len(g.ops) == 7
    assert all(r.passed for r in results), [r.outputs for r in results]


