"""passes/fold_slices.py: a STRIDED_SLICE that is no view, read by a TRANSPOSE alone, runs inside the transpose's
strided copy: the IR before and after the pass, and the model bit-exact with TFLM on the host and on QEMU (the
M4, the M55); a slice another layer reads too keeps its copy."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import bit_exact_on_board, lowered
from mcugen.ir.graph import Graph
from mcugen.passes.fold_slices import fold_slices
from mcugen.passes.place_views import place_views
from mcugen.passes.plan_memory import plan_memory
from single_op import check
from tflite_writer import ModelSpec


def _sliced_transpose(shared: bool = False) -> ModelSpec:
    """x [1, 3, 8, 6] (channels first) -> STRIDED_SLICE rows 2..6, columns 1..5 -> TRANSPOSE to channels last;
    `shared`: a RELU reads the slice too."""
    m = ModelSpec()
    x = m.tensor("x", [1, 3, 8, 6], "int8", scale=0.05, zp=2)
    cut = m.tensor("cut", [1, 3, 4, 4], "int8", scale=0.05, zp=2)
    m.op("STRIDED_SLICE", [x, m.const("begin", [0, 0, 2, 1], "int32"), m.const("end", [1, 3, 6, 5], "int32"),
                           m.const("strides", [1, 1, 1, 1], "int32")], [cut], "StridedSliceOptions")
    y = m.tensor("y", [1, 4, 4, 3], "int8", scale=0.05, zp=2)
    m.op("TRANSPOSE", [cut, m.const("perm", [0, 2, 3, 1], "int32")], [y], "TransposeOptions")
    m.inputs, m.outputs = [x], [y]
    if shared:
        r = m.tensor("r", [1, 3, 4, 4], "int8", scale=0.05, zp=2)
        m.op("RELU", [cut], [r])
        m.outputs = [y, r]
    return m


SLICED = ["graph m inputs=(t0) outputs=(t5)",  # _sliced_transpose's IR
          "tensors",
          "  t0 int8[1, 3, 8, 6] scale 0.05 zp 2 input 'x'",
          "  t1 int8[1, 3, 4, 4] scale 0.05 zp 2 'cut'",
          "  t2 int32[4] const 'begin' = [0, 0, 2, 1]",
          "  t3 int32[4] const 'end' = [1, 3, 6, 5]",
          "  t4 int32[4] const 'strides' = [1, 1, 1, 1]",
          "  t5 int8[1, 4, 4, 3] scale 0.05 zp 2 output 'y'",
          "  t6 int32[4] const 'perm' = [0, 2, 3, 1]",
          "ops",
          "  0: t1 = STRIDED_SLICE(t0, t2, t3, t4) -> [1x3x4x4]",
          "  1: t5 = TRANSPOSE(t1, t6) -> [1x4x4x3]"]


def _ops(g: Graph) -> list[str]:
    text = g.text()
    return text[text.index("ops\n"):].splitlines()


def test_a_slice_only_a_transpose_reads_runs_inside_its_copy():
    viewed = place_views(lowered("\n".join(SLICED)))
    assert _ops(viewed) == [
        "ops",
        "  0: t1 = STRIDED_SLICE(t0, t2, t3, t4) -> [1x3x4x4]",
        "     call mcu_copy_strided",
        "  1: t5 = TRANSPOSE(t1, t6) -> [1x4x4x3]",
        "     call mcu_copy_strided (permutation [0, 2, 3, 1])"]
    folded = fold_slices(viewed)
    assert _ops(folded) == [
        "ops",
        "  0: t1 = STRIDED_SLICE(t0, t2, t3, t4) -> [1x3x4x4]",
        "     runs inside op 1's call",
        "  1: t5 = TRANSPOSE(t1, t6) -> [1x4x4x3]",
        "     call mcu_copy_strided (permutation [0, 2, 3, 1] of t0's elements from [0, 0, 2, 1], a slice folded in)"]
    # the slice's output has no place in the arena
    assert [line for line in plan_memory(folded).text().splitlines() if line.startswith("  t1 ")] == [
        "  t1 int8[1, 3, 4, 4] scale 0.05 zp 2 'cut'"]


def test_a_slice_another_layer_reads_keeps_its_copy():
    shared = [SLICED[0].replace("outputs=(t5)", "outputs=(t5, t7)"), *SLICED[1:9],
              "  t7 int8[1, 3, 4, 4] scale 0.05 zp 2 output 'r'", *SLICED[9:], "  2: t7 = RELU(t1) -> [1x3x4x4]"]
    viewed = place_views(lowered("\n".join(shared)))
    assert fold_slices(viewed).text() == viewed.text()


@pytest.mark.parametrize("shared", [False, True])
def test_folded_and_kept_slices_are_bit_exact_with_tflm_on_the_host(tmp_path, shared):
    check(tmp_path, _sliced_transpose(shared), seed=3)


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
def test_a_folded_slice_is_bit_exact_on_qemu(tmp_path, board):
    bit_exact_on_board(tmp_path, _sliced_transpose(), seed=4, board=board)
