"""passes/fold_pads.py: a PAD before a VALID convolution becomes the convolution's own padding, whatever its
amounts. Each case is checked against TFLM running the file as written (PAD then a VALID conv): on the host
through the golden model and the generated C, on QEMU through the DSP and Helium kernels; the arena holds no
padded copy. A pad that would leave a window of padding alone stays a PAD, as do those another layer reads."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import DSP, bit_exact_on_board
from mcugen.codegen.pipeline import compile_model
from mcugen.ops._window import pad_before, tflm_out_size
from single_op import check, opcodes_of
from tflite_writer import ModelSpec


def _same_pads(size: int, k: int, stride: int, dilation: int) -> tuple[int, int]:
    """The (leading, trailing) pads TFLM's SAME padding gives a side of `size`."""
    out = tflm_out_size("SAME", size, k, stride, dilation)
    lead = pad_before(size, k, stride, dilation, out)
    return lead, max(0, (out - 1) * stride + (k - 1) * dilation + 1 - size) - lead


def _pad_conv(n, h, w, c, k, stride, dilation, depthwise, seed, pads=None, dtype="int8", value=None, twice=None):
    """x -> PAD(pads, or SAME's for the conv) -> VALID conv (or depthwise, multiplier 1) -> y [, the padded tensor
    read by a second layer too: `twice` "relu" or "conv"]."""
    rng = np.random.default_rng(seed)
    zp = int(rng.integers(-128, 128)) if dtype == "int8" else 0
    if pads is None:
        pads = (_same_pads(h, k, stride, dilation), _same_pads(w, k, stride, dilation))
    (top, bottom), (left, right) = pads
    m = ModelSpec()
    x = m.tensor("x", [n, h, w, c], dtype, scale=0.05, zp=zp)
    padded = m.tensor("padded", [n, h + top + bottom, w + left + right, c], dtype, scale=0.05, zp=zp)
    paddings = m.const("paddings", np.array([[0, 0], [top, bottom], [left, right], [0, 0]]), "int32")
    if value is None:
        m.op("PAD", [x, paddings], [padded], "PadOptions")
    else:
        m.op("PADV2", [x, paddings, m.const("value", np.array([value]), dtype, scale=0.05, zp=zp)], [padded],
             "PadV2Options")
    eff = (k - 1) * dilation + 1
    oh, ow = (h + top + bottom - eff) // stride + 1, (w + left + right - eff) // stride + 1
    cout = c if depthwise else int(rng.integers(1, 9))
    shape = [1, k, k, cout] if depthwise else [cout, k, k, c]
    weights = m.const("w", rng.integers(-127, 128, shape), "int8", scale=[0.02] * cout, zp=[0] * cout,
                      axis=3 if depthwise else 0)
    bias = m.const("b", rng.integers(-4000, 4000, cout), "int32" if dtype == "int8" else "int64",
                   scale=[0.001] * cout, zp=[0] * cout)
    y = m.tensor("y", [n, oh, ow, cout], dtype, scale=0.1, zp=int(rng.integers(-128, 128)) if dtype == "int8" else 0)
    fields = dict(Padding="VALID", StrideH=stride, StrideW=stride, DilationHFactor=dilation, DilationWFactor=dilation)
    if depthwise:
        m.op("DEPTHWISE_CONV_2D", [padded, weights, bias], [y], "DepthwiseConv2DOptions", version=3, DepthMultiplier=1,
             **fields)
    else:
        m.op("CONV_2D", [padded, weights, bias], [y], "Conv2DOptions", version=3, **fields)
    m.inputs, m.outputs = [x], [y]
    if twice == "relu":
        z = m.tensor("z", [n, h + top + bottom, w + left + right, c], dtype, scale=0.05, zp=zp)
        m.op("RELU", [padded], [z])
        m.outputs = [y, z]
    elif twice == "conv":  # a second branch reading the padded tensor: a 3x3 stride-1 depthwise
        z = m.tensor("z", [n, h + top + bottom - 2, w + left + right - 2, c], dtype, scale=0.2, zp=zp // 2)
        m.op("DEPTHWISE_CONV_2D", [padded, m.const("w2", rng.integers(-127, 128, (1, 3, 3, c)), "int8",
                                                   scale=[0.03] * c, zp=[0] * c, axis=3)], [z],
             "DepthwiseConv2DOptions", version=3, DepthMultiplier=1, Padding="VALID", StrideH=1, StrideW=1)
        m.outputs = [y, z]
    return m


def _folds(size: int, k: int, stride: int, dilation: int, lead: int, trail: int) -> bool:
    """Whether every window over this side, padded so, still touches the image (what the pass requires)."""
    span = (k - 1) * dilation + 1
    out = (size + lead + trail - span) // stride + 1
    return lead < span and (out - 1) * stride - lead < size


@settings(max_examples=16, deadline=None)
@given(st.integers(1, 2), st.integers(1, 9), st.integers(1, 9), st.integers(1, 7), st.sampled_from([1, 3, 5]),
       st.integers(1, 2), st.integers(1, 2), st.booleans(), st.sampled_from(["int8", "int16"]), st.integers(0, 999),
       st.tuples(*[st.integers(0, 4)] * 4))
def test_a_pad_before_a_conv_folds_bit_exact(tmp_path_factory, n, h, w, c, k, stride, dilation, depthwise, dtype,
                                             seed, amounts):
    """Any amounts, SAME's or not (PyTorch's (1, 1) before a stride-2 layer, more on one side than the other):
    folded where every window touches the image, the model bit-exact with TFLM either way."""
    top, bottom, left, right = amounts
    span = (k - 1) * dilation + 1
    if span > h + top + bottom or span > w + left + right:
        return
    tmp = tmp_path_factory.mktemp("fold")
    m = _pad_conv(n, h, w, c, k, stride, dilation, depthwise, seed, pads=((top, bottom), (left, right)), dtype=dtype)
    folded = sum(amounts) > 0 and _folds(h, k, stride, dilation, top, bottom) and _folds(w, k, stride, dilation,
                                                                                           left, right)
    assert ("PAD" in opcodes_of(tmp, m)) != folded
    check(tmp, m, seed, oracles=("tflm",))


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
@pytest.mark.parametrize("shape, k, stride, depthwise, pads", [
    ((2, 7, 6, 5), 3, 1, False, None),  # batch 2, odd channels, SAME's amounts
    ((1, 10, 9, 8), 3, 2, True, None),  # Keras' correct_pad before a stride-2 depthwise: (0, 1) on the even side
    ((1, 8, 8, 16), 3, 2, True, ((1, 1), (1, 1))),  # PyTorch's padding=1 before a stride-2 layer: leads with 1
    ((1, 9, 7, 6), 3, 2, False, ((1, 1), (1, 1))),
    ((1, 5, 5, 3), 5, 1, True, ((3, 0), (0, 2))),  # more before than after, and the other way round
    ((1, 8, 8, 16), 3, 1, False, ((2, 0), (1, 1))),
])
def test_folded_pads_run_bit_exact_on_the_dsp_and_helium_kernels(tmp_path, board, shape, k, stride, depthwise, pads):
    m = _pad_conv(*shape, k, stride, 1, depthwise, seed=7, pads=pads)
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    g = compile_model(path)
    pads = pads or (_same_pads(shape[1], k, stride, 1), _same_pads(shape[2], k, stride, 1))
    padded = int(np.prod([shape[0], shape[1] + sum(pads[0]), shape[2] + sum(pads[1]), shape[3]]))
    assert [op.opcode for op in g.ops] == ["DEPTHWISE_CONV_2D" if depthwise else "CONV_2D"]
    assert g.arena.plan.size < padded + g.tensors[g.outputs[0]].nbytes  # no padded copy beside the output
    check(tmp_path / "host", m, 7, oracles=("tflm",))
    bit_exact_on_board(tmp_path / board, m, seed=7, samples=2, board=board)


def test_a_pad_two_branches_read_folds_into_both(tmp_path):
    """MobileNet-like branches: a stride-2 conv and a stride-1 depthwise read one PAD; each pads for itself."""
    m = _pad_conv(1, 8, 6, 4, 3, 2, 1, False, seed=5, pads=((1, 1), (1, 1)), twice="conv")
    assert opcodes_of(tmp_path, m) == ["CONV_2D", "DEPTHWISE_CONV_2D"]
    check(tmp_path, m, 5, oracles=("tflm",))


@pytest.mark.parametrize("case", ["a window of padding alone", "PADV2 with another value", "read twice"])
def test_a_pad_that_cannot_fold_stays(tmp_path, case):
    """A pad as wide as the window gives outputs that read no pixel (no kernel computes those), another fill
    value is no skipped tap, and a padded tensor another layer reads must exist: each PAD stays (and the model
    still runs bit-exact)."""
    if case.startswith("a window"):
        m = _pad_conv(1, 8, 8, 4, 3, 2, 1, True, seed=3, pads=((3, 1), (1, 1)))
    elif case.startswith("PADV2"):
        m = _pad_conv(1, 6, 6, 4, 3, 1, 1, False, seed=3, value=5)
    else:
        m = _pad_conv(1, 6, 6, 4, 3, 1, 1, False, seed=3, twice="relu")
    assert "PAD" in opcodes_of(tmp_path, m) or "PADV2" in opcodes_of(tmp_path, m)
    check(tmp_path, m, 3, oracles=("tflm",))


def _conv_pad_pool(h, w, c, k, stride, pads, act, value=None, pool="MAX_POOL_2D", seed=0):
    """x -> 1x1 CONV_2D (fused `act`) -> PAD (or PADV2 filling `value`) -> VALID `pool` k x k: a ResNet's stem."""
    rng = np.random.default_rng(seed)
    (top, bottom), (left, right) = pads
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, c], "int8", scale=0.05, zp=3)
    zp = int(rng.integers(-100, 100))
    t = m.tensor("t", [1, h, w, c], "int8", scale=0.04, zp=zp)
    m.op("CONV_2D", [x, m.const("w", rng.integers(-127, 128, (c, 1, 1, c)), "int8", scale=[0.02] * c, zp=[0] * c),
                     m.const("b", rng.integers(-900, 900, c), "int32", scale=[0.001] * c, zp=[0] * c)], [t],
         "Conv2DOptions", Padding="VALID", StrideW=1, StrideH=1, FusedActivationFunction=act)
    padded = m.tensor("padded", [1, h + top + bottom, w + left + right, c], "int8", scale=0.04, zp=zp)
    paddings = m.const("paddings", np.array([[0, 0], [top, bottom], [left, right], [0, 0]]), "int32")
    if value is None:
        m.op("PAD", [t, paddings], [padded], "PadOptions")
    else:
        m.op("PADV2", [t, paddings, m.const("value", np.array([value]), "int8", scale=0.04, zp=zp)], [padded],
             "PadV2Options")
    oh, ow = (h + top + bottom - k) // stride + 1, (w + left + right - k) // stride + 1
    y = m.tensor("y", [1, oh, ow, c], "int8", scale=0.04, zp=zp)
    m.op(pool, [padded], [y], "Pool2DOptions", Padding="VALID", StrideW=stride, StrideH=stride, FilterWidth=k,
         FilterHeight=k)
    m.inputs, m.outputs = [x], [y]
    return m


@settings(max_examples=16, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.sampled_from([1, 3, 4]), st.sampled_from([2, 3]), st.integers(1, 2),
       st.tuples(*[st.integers(0, 2)] * 4), st.sampled_from(["NONE", "RELU", "RELU6"]),
       st.sampled_from([None, -128, -5]), st.sampled_from(["MAX_POOL_2D", "AVERAGE_POOL_2D"]), st.integers(0, 99))
def test_a_pad_before_a_max_pool_folds_where_its_fill_never_wins(tmp_path_factory, h, w, c, k, stride, amounts, act,
                                                                 value, pool, seed):
    """A max pool pads for itself where the PAD's fill is no larger than anything its input holds: -128, or the
    zero point after a RELU/RELU6 (the producer's least value); an average pool never (it divides by the pixels
    alone); the model bit-exact with TFLM either way."""
    top, bottom, left, right = amounts
    if k > h + top + bottom or k > w + left + right:
        return
    m = _conv_pad_pool(h, w, c, k, stride, ((top, bottom), (left, right)), act, value, pool, seed)
    tmp = tmp_path_factory.mktemp("pool")
    never_wins = value == -128 or (value is None and act != "NONE")
    folded = pool == "MAX_POOL_2D" and never_wins and sum(amounts) > 0 and \
        _folds(h, k, stride, 1, top, bottom) and _folds(w, k, stride, 1, left, right)
    assert (opcodes_of(tmp, m) == ["CONV_2D", pool]) == folded
    check(tmp, m, seed, oracles=("tflm",))


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
@pytest.mark.parametrize("shape, k, stride, pads, act, value", [
    ((9, 10, 8), 3, 2, ((1, 1), (1, 1)), "RELU", None),  # PyTorch's stem: ReLU, MaxPool2d(3, 2, padding=1)
    ((7, 7, 5), 3, 2, ((1, 1), (1, 1)), "NONE", -128),  # onnx2tf's PADV2 with the type's least value
    ((6, 9, 3), 2, 2, ((0, 1), (1, 0)), "RELU6", None),  # uneven amounts
])
def test_folded_max_pool_pads_run_bit_exact_on_the_boards(tmp_path, board, shape, k, stride, pads, act, value):
    m = _conv_pad_pool(*shape, k, stride, pads, act, value, seed=4)
    assert opcodes_of(tmp_path, m) == ["CONV_2D", "MAX_POOL_2D"]
    check(tmp_path / "host", m, 4, oracles=("tflm",))
    bit_exact_on_board(tmp_path / board, m, seed=4, samples=2, board=board)


def _padded_depthwise(h, w, c, pads):
    """PAD (top, bottom, left, right) then a VALID 3x3 depthwise on it: one layer with the PAD folded in, as a
    patch at an image's edge has its padding (passes/split_patches.py)."""
    top, bottom, left, right = pads
    rng = np.random.default_rng(h * w * c + sum(pads))
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, c], "int8", scale=0.05, zp=3)
    p = m.tensor("p", [1, h + top + bottom, w + left + right, c], "int8", scale=0.05, zp=3)
    m.op("PAD", [x, m.const("pads", [[0, 0], [top, bottom], [left, right], [0, 0]], "int32")], [p], "PadOptions")
    f = m.const("f", rng.integers(-127, 128, (1, 3, 3, c)), "int8", scale=[0.02] * c, zp=[0] * c, axis=3)
    b = m.const("b", rng.integers(-900, 900, c), "int32", scale=[0.001] * c, zp=[0] * c)
    y = m.tensor("y", [1, h + top + bottom - 2, w + left + right - 2, c], "int8", scale=0.1, zp=-2)
    m.op("DEPTHWISE_CONV_2D", [p, f, b], [y], "DepthwiseConv2DOptions", Padding="VALID", StrideW=1, StrideH=1,
         DepthMultiplier=1, FusedActivationFunction="RELU6")
    m.inputs, m.outputs = [x], [y]
    return m


@pytest.mark.parametrize("h, w, c, pads, x2", [
    (8, 8, 144, (1, 0, 1, 0), True),  # MobileNetV2's 8x8 grid's corner patch: 7 x 7, one pad before, none after
    (8, 8, 4, (1, 0, 0, 0), True),  # down the columns (7 x 6): the pad along them
    (8, 8, 4, (0, 0, 1, 0), True),
    (8, 8, 4, (0, 1, 0, 1), True),  # the other corner: a pad after, none before
    (9, 8, 6, (2, 0, 2, 1), False),  # two pads before a row
    (5, 9, 4, (1, 0, 1, 0), True),  # an even length (8)
    (8, 8, 4, (1, 1, 1, 1), True),  # SAME's
])
def test_the_channel_at_a_time_depthwise_takes_the_padding_its_rows_hold(tmp_path, h, w, c, pads, x2):
    """A folded PAD's amounts (a patch's: one before, none after) on the 3x3 depthwise: the channel-at-a-time
    kernel's window rows share a pad between rows of odd length only where a pad follows the pixels (a pixel
    laid on the shared pad was a wrong answer in MobileNetV2's 8x8 patches), and hold one pad before a row at
    most; two pads before take the four-channel kernel. Bit-exact on the emulated M4 either way."""
    m = _padded_depthwise(h, w, c, pads)
    path = tmp_path / "dw.tflite"
    path.write_bytes(m.build())
    g = compile_model(path, features=DSP)
    depthwise = next(op for op in g.ops if op.opcode == "DEPTHWISE_CONV_2D")
    assert (depthwise.call.kernel == "mcu_depthwise_conv2d_s8_x2") == x2
    bit_exact_on_board(tmp_path / "board", m, 1)


@pytest.mark.parametrize("board", ["mps2-an505", "mps2-an500"])
@pytest.mark.parametrize("pads", [(1, 0, 1, 0), (0, 1, 0, 1)])
def test_a_pad_before_a_row_with_none_after_on_the_m33_and_m7(tmp_path, board, pads):
    """The channel-at-a-time 3x3 depthwise's rows of odd length with one pad on a side (a patch's corner) on the
    other cores that run it: bit-exact with the golden model on the emulated M33 and M7."""
    bit_exact_on_board(tmp_path, _padded_depthwise(8, 8, 12, pads), 2, board=board,
                       kernel="mcu_depthwise_conv2d_s8_x2")
