"""passes/fold_slices.py: a STRIDED_SLICE that is no view, read by a TRANSPOSE alone, runs inside the transpose's
strided copy: the IR before and after the pass, and the model bit-exact with TFLM on the host and on QEMU (the
M4, the M55); a slice another layer reads too keeps its copy."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import bit_exact_on_board
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


def _ops(ir: str) -> list[str]:
    return ir[ir.index("ops\n"):].splitlines()


def test_a_slice_only_a_transpose_reads_runs_inside_its_copy(ir_of):
    ir = ir_of(_sliced_transpose())
    assert _ops(ir["place_views"]) == [
        "ops",
        "  0: t1 = STRIDED_SLICE(t0, t2, t3, t4) -> [1x3x4x4]",
        "     call mcu_copy_strided",
        "  1: t5 = TRANSPOSE(t1, t6) -> [1x4x4x3]",
        "     call mcu_copy_strided (permutation [0, 2, 3, 1])"]
    assert _ops(ir["fold_slices"]) == [
        "ops",
        "  0: t1 = STRIDED_SLICE(t0, t2, t3, t4) -> [1x3x4x4]",
        "     runs inside op 1's call",
        "  1: t5 = TRANSPOSE(t1, t6) -> [1x4x4x3]",
        "     call mcu_copy_strided (permutation [0, 2, 3, 1] of t0's elements from [0, 0, 2, 1], a slice folded in)"]
    # the slice's output has no place in the arena
    assert [line for line in ir["plan_memory"].splitlines() if line.startswith("  t1 ")] == [
        "  t1 int8[1, 3, 4, 4] scale 0.05 zp 2 'cut'"]


def test_a_slice_another_layer_reads_keeps_its_copy(ir_of):
    ir = ir_of(_sliced_transpose(shared=True))
    assert ir["fold_slices"] == ir["place_views"]


@pytest.mark.parametrize("shared", [False, True])
def test_folded_and_kept_slices_are_bit_exact_with_tflm_on_the_host(tmp_path, shared):
    check(tmp_path, _sliced_transpose(shared), seed=3)


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
def test_a_folded_slice_is_bit_exact_on_qemu(tmp_path, board):
    bit_exact_on_board(tmp_path, _sliced_transpose(), seed=4, board=board)
