"""passes/place_views.py: a contiguous STRIDED_SLICE (or SPLIT) is its input's bytes, a CONCATENATION whose inputs
lie one after another has each written in its place; no copy runs and the arena holds no second copy. Each case is
bit-exact with TFLM on the host (golden model and generated C) and on QEMU (the M4's DSP kernels, the M55's
Helium ones); the cases that are no view keep their copy."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import bit_exact_on_board
from mcugen.codegen.pipeline import compile_model
from single_op import check
from tflite_writer import ModelSpec


def _conv(m: ModelSpec, rng, x: int, shape_in, rows_out: int, c_out: int, name: str) -> int:
    """A 3x3 SAME conv (rows_out must equal the input's rows) into a new int8 tensor."""
    n, h, w, c = shape_in
    y = m.tensor(name, [n, rows_out, w, c_out], "int8", scale=0.1, zp=-3)
    weights = m.const(f"{name}_w", rng.integers(-127, 128, (c_out, 3, 3, c)), "int8", scale=[0.02] * c_out,
                      zp=[0] * c_out, axis=0)
    bias = m.const(f"{name}_b", rng.integers(-900, 900, c_out), "int32", scale=[0.001] * c_out, zp=[0] * c_out)
    m.op("CONV_2D", [x, weights, bias], [y], "Conv2DOptions", version=3, Padding="SAME", StrideH=1, StrideW=1)
    return y


def _concat_model(axis: int, shapes: list[tuple[int, int, int, int]], seed: int = 1, twice: bool = False
                  ) -> ModelSpec:
    """Each part a conv of its own input, then CONCATENATION on `axis`, then a RELU (the concatenation's reader)."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    parts, m.inputs = [], []
    for k, (n, h, w, c) in enumerate(shapes):
        m.inputs.append(m.tensor(f"x{k}", [n, h, w, 3], "int8", scale=0.05, zp=2))
        parts.append(_conv(m, rng, m.inputs[-1], (n, h, w, 3), h, c, f"part{k}"))
    if twice:
        parts.append(parts[0])
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes) + (shapes[0][axis] if twice else 0)
    joined = m.tensor("joined", out, "int8", scale=0.1, zp=-3)
    m.op("CONCATENATION", parts, [joined], "ConcatenationOptions", Axis=axis)
    y = m.tensor("y", out, "int8", scale=0.1, zp=-3)
    m.op("RELU", [joined], [y])
    m.outputs = [y]
    return m


def _slice_model(begin: list[int], end: list[int], shape=(1, 9, 4, 8), seed: int = 2) -> ModelSpec:
    """x -> conv -> STRIDED_SLICE(begin, end) -> conv: the slice's input is computed, its output read by a layer."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", list(shape), "int8", scale=0.05, zp=2)
    mid = _conv(m, rng, x, shape, shape[1], shape[3], "mid")
    size = [e - b for b, e in zip(begin, end)]
    cut = m.tensor("cut", size, "int8", scale=0.1, zp=-3)
    m.op("STRIDED_SLICE", [mid, m.const("begin", np.array(begin), "int32"), m.const("end", np.array(end), "int32"),
                           m.const("strides", np.ones(4, int), "int32")], [cut], "StridedSliceOptions")
    y = _conv(m, rng, cut, size, size[1], 5, "y")
    m.inputs, m.outputs = [x], [y]
    return m


def _compiled(tmp_path, m: ModelSpec):
    path = tmp_path / "m.tflite"
    path.write_bytes(m.build())
    return compile_model(path)


def _copies(g) -> list[str]:
    return [op.opcode for op in g.ops if op.opcode in ("CONCATENATION", "STRIDED_SLICE") and op.call is not None]


@pytest.mark.parametrize("case, axis, shapes", [
    ("rows", 1, [(1, 3, 4, 8), (1, 5, 4, 8)]),  # a patch-like split along the height
    ("three parts", 1, [(1, 2, 3, 4), (1, 1, 3, 4), (1, 3, 3, 4)]),
    ("channels of one pixel", 3, [(1, 1, 1, 8), (1, 1, 1, 4)]),
])
def test_a_concatenation_of_contiguous_parts_copies_nothing(tmp_path, case, axis, shapes):
    m = _concat_model(axis, shapes)
    g = _compiled(tmp_path, m)
    concat = next(op for op in g.ops if op.opcode == "CONCATENATION")
    assert concat.call is None and [a.tensor for a in concat.aliases] == list(concat.inputs)
    whole = g.tensors[concat.outputs[0]]
    offsets = [g.arena.offset(t) - g.arena.offset(whole.index) for t in concat.inputs]
    assert offsets == list(np.cumsum([0] + [g.tensors[t].nbytes for t in concat.inputs[:-1]]))
    parts = sum(g.tensors[t].nbytes for t in concat.inputs)
    inputs = sum(g.tensors[t].nbytes for t in g.inputs)
    assert g.arena.plan.size < inputs + parts + whole.nbytes  # the parts are the whole's bytes
    check(tmp_path / "host", m, 3, oracles=("tflm",))


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
def test_views_run_bit_exact_on_the_dsp_and_helium_kernels(tmp_path, board):
    bit_exact_on_board(tmp_path / "concat", _concat_model(1, [(1, 3, 5, 8), (1, 4, 5, 8)], seed=4), seed=4,
                       board=board)
    bit_exact_on_board(tmp_path / "slice", _slice_model([0, 2, 0, 0], [1, 7, 4, 8], seed=5), seed=5, board=board)
    bit_exact_on_board(tmp_path / "split", _split_model(1, 2), seed=6, board=board)


@pytest.mark.parametrize("begin, end, view", [
    ([0, 2, 0, 0], [1, 7, 4, 8], True),  # rows 2..6: contiguous, at a word
    ([0, 4, 2, 0], [1, 5, 4, 8], True),  # one row, its second half
    ([0, 2, 1, 0], [1, 7, 3, 8], False),  # part of each row: strided
    ([0, 2, 0, 2], [1, 4, 4, 6], False),  # part of each pixel's channels
])
def test_a_contiguous_slice_is_its_inputs_bytes(tmp_path, begin, end, view):
    m = _slice_model(begin, end)
    g = _compiled(tmp_path, m)
    cut = next(op for op in g.ops if op.opcode == "STRIDED_SLICE")
    assert (cut.call is None) == view
    if view:
        start = sum(b * s for b, s in zip(begin, (9 * 4 * 8, 4 * 8, 8, 1)))  # of the [1, 9, 4, 8] input
        assert g.arena.offset(cut.outputs[0]) - g.arena.offset(cut.inputs[0]) == start
    check(tmp_path / "host", m, 6, oracles=("tflm",))


@pytest.mark.parametrize("case", ["channels of an image", "an odd offset", "a part twice", "a graph input"])
def test_what_is_no_view_keeps_its_copy(tmp_path, case):
    """Channels of a 2-D image interleave; a part ending off a word would misalign the next (kernels load words);
    a part listed twice has two places; a graph input is the caller's buffer."""
    if case == "channels of an image":
        m = _concat_model(3, [(1, 2, 3, 4), (1, 2, 3, 8)])
    elif case == "an odd offset":
        m = _concat_model(1, [(1, 1, 1, 3), (1, 2, 1, 3)])
    elif case == "a part twice":
        m = _concat_model(1, [(1, 2, 3, 4), (1, 1, 3, 4)], twice=True)
    else:
        m = ModelSpec()
        a = m.tensor("a", [1, 2, 4], "int8", scale=0.1, zp=0)
        b = m.tensor("b", [1, 3, 4], "int8", scale=0.1, zp=0)
        y = m.tensor("y", [1, 5, 4], "int8", scale=0.1, zp=0)
        m.op("CONCATENATION", [a, b], [y], "ConcatenationOptions", Axis=1)
        m.inputs, m.outputs = [a, b], [y]
    assert _copies(_compiled(tmp_path, m)) == ["CONCATENATION"]
    check(tmp_path / "host", m, 7, oracles=("tflm",))


def _split_model(axis: int, parts: int, shape=(1, 8, 4, 4), seed: int = 8) -> ModelSpec:
    """x -> conv -> SPLIT(axis, parts) -> a conv of each part -> outputs."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", list(shape), "int8", scale=0.05, zp=2)
    mid = _conv(m, rng, x, shape, shape[1], shape[3], "mid")
    size = list(shape)
    size[axis] //= parts
    pieces = [m.tensor(f"piece{k}", size, "int8", scale=0.1, zp=-3) for k in range(parts)]
    m.op("SPLIT", [m.const("axis", np.array([axis]), "int32"), mid], pieces, "SplitOptions", NumSplits=parts)
    m.inputs, m.outputs = [x], [_conv(m, rng, p, size, size[1], 3, f"y{k}") for k, p in enumerate(pieces)]
    return m


@pytest.mark.parametrize("axis, view", [(1, True), (3, False)])
def test_a_split_along_the_rows_is_its_inputs_bytes(tmp_path, axis, view):
    """Halves along the height lie one after the other in the input; halves of each pixel's channels do not."""
    m = _split_model(axis, 2)
    g = _compiled(tmp_path, m)
    split = next(op for op in g.ops if op.opcode == "SPLIT")
    assert (split.call is None) == view
    if view:
        mid = split.inputs[1]
        assert [g.arena.offset(t) - g.arena.offset(mid) for t in split.outputs] == [0, 64]
    check(tmp_path / "host", m, 9, oracles=("tflm",))


def test_a_concatenation_of_parts_in_their_places_is_no_part_in_place_of_another(tmp_path):
    """conv, conv -> CONCATENATION on the width of one-row tensors (contiguous: its parts are written in their
    places) -> CONCATENATION on the height with a third conv's rows: the outer one's input is made by no call
    now, so it is copied (a view of a view would leave the outer output's rows unwritten); bit-exact."""
    rng = np.random.default_rng(7)
    m = ModelSpec()
    x = m.tensor("x", [1, 1, 4, 3], "int8", scale=0.05, zp=2)
    z = m.tensor("z", [1, 1, 8, 3], "int8", scale=0.05, zp=2)
    a = _conv(m, rng, x, (1, 1, 4, 3), 1, 8, "a")
    b = _conv(m, rng, x, (1, 1, 4, 3), 1, 8, "b")
    c = _conv(m, rng, z, (1, 1, 8, 3), 1, 8, "c")
    row = m.tensor("row", [1, 1, 8, 8], "int8", scale=0.1, zp=-3)
    m.op("CONCATENATION", [a, b], [row], "ConcatenationOptions", Axis=2)
    both = m.tensor("both", [1, 2, 8, 8], "int8", scale=0.1, zp=-3)
    m.op("CONCATENATION", [row, c], [both], "ConcatenationOptions", Axis=1)
    y = m.tensor("y", [1, 2, 8, 8], "int8", scale=0.1, zp=-3)
    m.op("RELU", [both], [y])
    m.inputs, m.outputs = [x, z], [y]
    g = _compiled(tmp_path, m)
    inner, outer = [op for op in g.ops if op.opcode == "CONCATENATION"]
    assert inner.call is None and outer.call is not None
    check(tmp_path / "host", m, 7, oracles=("tflm",))
