"""Each pass stated in the IR's text form (Graph.text(), what --dump-ir writes): the IR before the pass, read
back by Graph.parse, and the IR the pass is expected to leave, both literal and checked by hand. A pass of
the back end starts from lower_ops on a literal front-end IR (prepare_ops, TFLM's Prepare, adds no line),
each step's text stated on the way."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from conftest import MODELS, lowered
from mcugen.codegen.emit_c import emit_c
from mcugen.codegen.pipeline import compile_model
from mcugen.frontend.read_tflite import read_tflite
from mcugen.ir.budget import Budget
from mcugen.ir.dump import passes
from mcugen.ir.graph import Compiled, Graph
from mcugen.ir.lowering import layers_const_bytes
from mcugen.ir.tuning import Tuning
from mcugen.passes.check_support import check_support
from mcugen.passes.check_undefined_reads import check_undefined_reads
from mcugen.passes.compute_fp16 import compute_fp16
from mcugen.passes.cut_outputs import cut_outputs
from mcugen.passes.expand_groups import expand_groups
from mcugen.passes.flatten_biases import flatten_biases
from mcugen.passes.fold_constants import fold_constants
from mcugen.passes.fold_pads import fold_pads
from mcugen.passes.fold_quantizes import fold_quantizes
from mcugen.passes.fuse_strips import fuse_strips
from mcugen.passes.lower_ops import lower_ops
from mcugen.passes.pack_float16 import pack_float16
from mcugen.passes.pack_int4 import pack_int4
from mcugen.passes.place_views import place_views
from mcugen.passes.place_weights import place_weights
from mcugen.passes.plan_memory import plan_memory
from mcugen.passes.prepare_ops import prepare_ops
from mcugen.passes.resolve_variables import resolve_variables
from mcugen.passes.split_patches import Stage, split_patches
from mcugen.passes.validate_model import validate_model
from tflite_writer import ModelSpec


def _text(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def _ir(g: Graph) -> str:
    return g.text() + "\n"


FC_RELU = _text(  # x [1, 4] -> FULLY_CONNECTED (3 units, no bias) -> h -> RELU -> y
    "graph model inputs=(t0) outputs=(t3)",
    "tensors",
    "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
    "  t1 int8[3, 4] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
    "  t2 int8[1, 3] scale 1 zp 0 'h'",
    "  t3 int8[1, 3] scale 1 zp 0 output 'y'",
    "ops",
    "  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x3]",
    "  1: t3 = RELU(t2) -> [1x3]")
LOWERED = [  # FC_RELU's ops after lower_ops on a core without extensions
    "  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x3]",
    "     call mcu_fully_connected_s8 (1 row(s) of 4 -> 3 units)",
    "  1: t3 = RELU(t2) -> [1x3]",
    "     call mcu_lut (tabulated at build time for all 256 inputs)"]


def test_the_reader_writes_a_model_as_the_text_form(tmp_path):
    m = ModelSpec()
    x = m.tensor("x", [1, 4], "int8", scale=0.5, zp=0)
    w = m.const("w", np.ones((3, 4), np.int8), "int8", scale=0.25, zp=0)
    h = m.tensor("h", [1, 3], "int8", scale=1.0, zp=0)
    m.op("FULLY_CONNECTED", [x, w, -1], [h], "FullyConnectedOptions")
    y = m.tensor("y", [1, 3], "int8", scale=1.0, zp=0)
    m.op("RELU", [h], [y])
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "model.tflite"
    path.write_bytes(m.build())
    assert _ir(read_tflite(path)) == FC_RELU


def test_the_checking_and_preparing_passes_leave_a_plain_model_as_it_is():
    """verify, resolve_variables (no state), validate_model, flatten_biases (a bias is already its values),
    expand_groups (no grouped conv), fold_constants (nothing to fold), cut_outputs (no --outputs),
    check_support, fold_pads and fold_quantizes (nothing to fold), compute_fp16 (no fp16 layer), prepare_ops (its
    records are not text: tests/test_ir.py reads them) and check_undefined_reads change no line."""
    front = {"verify": Graph.verify, "resolve_variables": resolve_variables, "validate_model": validate_model,
             "flatten_biases": flatten_biases, "expand_groups": expand_groups, "fold_constants": fold_constants,
             "cut_outputs": lambda g: cut_outputs(g, ()), "check_support": check_support, "fold_pads": fold_pads,
             "fold_quantizes": fold_quantizes, "compute_fp16": lambda g: compute_fp16(g, True),
             "prepare_ops": prepare_ops,
             "check_undefined_reads": check_undefined_reads}
    assert tuple(front) == passes()[1:passes().index("split_patches")]
    for name, run in front.items():
        assert _ir(run(Graph.parse(FC_RELU))) == FC_RELU, name


def test_resolve_variables_makes_an_svdf_state_tensor_a_variable():
    before = ["graph model inputs=(t0) outputs=(t5)",
              "tensors",
              "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
              "  t1 int8[2, 4] scale 0.25 zp 0 const 'wf' = [1, 1, 1, 1, 1, 1, 1, 1]",
              "  t2 int16[2, 3] scale 0.125 zp 0 const 'wt' = [1, 1, 1, 1, 1, 1]",
              "  t3 int32[2] scale 0.015625 zp 0 const 'b' = [0, 0]",  # state x time weights
              "  t4 int16[1, 6] scale 0.125 zp 0 variable 'state'",
              "  t5 int8[1, 2] scale 1 zp 0 output 'y'",
              "ops",
              "  0: t5 = SVDF(t0, t1, t2, t3, t4) -> [1x2] with rank=1"]
    assert _ir(resolve_variables(Graph.parse(_text(*before)))) == _text(
        *before, "     input 4 is variable 0", "variable 0 'state' int16[1, 6] = [0, 0, 0, 0, 0, 0]")


def test_flatten_biases_makes_a_bias_its_values():
    lines = ["graph model inputs=(t0) outputs=(t3)",
             "tensors",
             "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
             "  t1 int8[3, 4] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
             "  t2 int32[1, 1, 3] scale 0.125 zp 0 const 'b' = [1, 2, 3]",
             "  t3 int8[1, 3] scale 1 zp 0 output 'y'",
             "ops",
             "  0: t3 = FULLY_CONNECTED(t0, t1, t2) -> [1x3]"]
    after = flatten_biases(Graph.parse(_text(*lines)))
    lines[4] = "  t2 int32[3] scale 0.125 zp 0 const 'b' = [1, 2, 3]"
    assert _ir(after) == _text(*lines)


def test_expand_groups_widens_each_filter_to_the_whole_input_depth():
    """Two groups of two input channels: output channels 0 and 1 read inputs 0 and 1, 2 and 3 read 2 and 3."""
    lines = ["graph model inputs=(t0) outputs=(t3)",
             "tensors",
             "  t0 int8[1, 3, 3, 4] scale 0.5 zp 0 input 'x'",
             "  t1 int8[4, 1, 1, 2] scale 0.25 zp 0 const 'w' = [1, 2, 3, 4, 5, 6, 7, 8]",
             "  t2 int32[4] scale 0.125 zp 0 const 'b' = [0, 0, 0, 0]",
             "  t3 int8[1, 3, 3, 4] scale 1 zp 0 output 'y'",
             "ops",
             "  0: t3 = CONV_2D(t0, t1, t2) -> [1x3x3x4] with padding='VALID'"]
    after = expand_groups(Graph.parse(_text(*lines)))
    lines[3] = "  t1 int8[4, 1, 1, 4] scale 0.25 zp 0 const 'w' = [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 5, 6, 0, 0, 7, 8]"
    assert _ir(after) == _text(*lines, "     a grouped conv of 2 groups in the file")


def test_fold_constants_computes_a_shape_at_build_time():
    before = _text("graph model inputs=(t0) outputs=(t2)",
                   "tensors",
                   "  t0 int8[1, 2, 3] scale 0.5 zp 0 input 'x'",
                   "  t1 int32[3] 's'",
                   "  t2 int8[1, 2, 3] scale 0.5 zp 0 output 'y'",
                   "ops",
                   "  0: t1 = SHAPE(t0) -> [3]",
                   "  1: t2 = RESHAPE(t0, t1) -> [1x2x3]")
    assert _ir(fold_constants(Graph.parse(before))) == _text(
        "graph model inputs=(t0) outputs=(t2)",
        "tensors",
        "  t0 int8[1, 2, 3] scale 0.5 zp 0 input 'x'",
        "  t1 int32[3] const 's' = [1, 2, 3]",
        "  t2 int8[1, 2, 3] scale 0.5 zp 0 output 'y'",
        "ops",
        "  0: t2 = RESHAPE(t0, t1) -> [1x2x3]")


def test_cut_outputs_keeps_the_layers_up_to_the_asked_output():
    assert _ir(cut_outputs(Graph.parse(FC_RELU), ("h",))) == _text(
        "graph model inputs=(t0) outputs=(t2)",
        "tensors",
        "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
        "  t1 int8[3, 4] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
        "  t2 int8[1, 3] scale 1 zp 0 output 'h'",
        "  t3 int8[1, 3] scale 1 zp 0 'y'",
        "ops",
        "  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x3]")


def test_fold_pads_makes_a_pad_the_convs_own_padding():
    """PAD 1 on each side of a 3x3 image, then a VALID 3x3 conv: the conv pads the image itself."""
    tensors = ["graph model inputs=(t0) outputs=(t4)",
               "tensors",
               "  t0 int8[1, 3, 3, 1] scale 0.5 zp -1 input 'x'",
               "  t1 int8[1, 5, 5, 1] scale 0.5 zp -1 'p'",
               "  t2 int32[4, 2] const 'paddings' = [0, 0, 1, 1, 1, 1, 0, 0]",
               "  t3 int8[1, 3, 3, 1] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1, 1]",
               "  t4 int8[1, 3, 3, 1] scale 1 zp 0 output 'y'",
               "ops"]
    before = _text(*tensors,
                   "  0: t1 = PAD(t0, t2) -> [1x5x5x1]",
                   "  1: t4 = CONV_2D(t1, t3, -) -> [1x3x3x1] with padding='VALID'")
    assert _ir(fold_pads(Graph.parse(before))) == _text(
        *tensors,
        "  0: t4 = CONV_2D(t0, t3, -) -> [1x3x3x1] with padding='VALID'",
        "     pads [[top, bottom], [left, right]] [[1, 1], [1, 1]] (a PAD's or a band's)")


def test_fold_pads_makes_a_padv2_of_the_least_value_the_max_pools_own_padding():
    """PADV2 filling -128 above and right of a 4x4 image, then a VALID 2x2 stride-2 max pool: -128 never wins a
    max, so the pool pads for itself, unevenly."""
    tensors = ["graph model inputs=(t0) outputs=(t4)",
               "tensors",
               "  t0 int8[1, 4, 4, 2] scale 0.25 zp 2 input 'x'",
               "  t1 int8[1, 5, 5, 2] scale 0.25 zp 2 'p'",
               "  t2 int32[4, 2] const 'amounts' = [0, 0, 1, 0, 0, 1, 0, 0]",
               "  t3 int8[1] scale 0.25 zp 2 const 'least' = [-128]",
               "  t4 int8[1, 2, 2, 2] scale 0.25 zp 2 output 'y'",
               "ops"]
    pool = ("MAX_POOL_2D({}) -> [1x2x2x2] with padding='VALID', stride_h=2, stride_w=2, filter_height=2, "
            "filter_width=2")
    before = _text(*tensors, "  0: t1 = PADV2(t0, t2, t3) -> [1x5x5x2]", "  1: t4 = " + pool.format("t1"))
    assert _ir(fold_pads(Graph.parse(before))) == _text(
        *tensors, "  0: t4 = " + pool.format("t0"),
        "     pads [[top, bottom], [left, right]] [[1, 0], [0, 1]] (a PAD's or a band's)")


def test_fold_quantizes_moves_a_zero_point_into_the_layer_that_writes_it():
    """A RELU FULLY_CONNECTED writing zero point -1, then a QUANTIZE to zero point 5 of the same scale: the FC
    writes y itself, its clamp [-1, 127] moved by 6 to [5, 127]."""
    tensors = ["graph model inputs=(t0) outputs=(t3)",
               "tensors",
               "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
               "  t1 int8[2, 4] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1]",
               "  t2 int8[1, 2] scale 1 zp -1 'mid'",
               "  t3 int8[1, 2] scale 1 zp 5 output 'y'",
               "ops"]
    fc = "FULLY_CONNECTED(t0, t1, -) -> [1x2] with fused_activation_function='RELU'"
    before = _text(*tensors, "  0: t2 = " + fc, "  1: t3 = QUANTIZE(t2) -> [1x2]")
    assert _ir(fold_quantizes(Graph.parse(before))) == _text(
        *tensors, "  0: t3 = " + fc, "     clamp [5, 127] (a folded QUANTIZE's zero point)")


def test_lower_ops_gives_each_op_its_kernel_call():
    low = lowered(FC_RELU)
    assert _ir(low) == FC_RELU.replace("\n".join(LOWERED[0::2]), "\n".join(LOWERED))
    assert _ir(pack_int4(fuse_strips(low))) == _ir(low)  # nothing to fuse on the host, no INT4


@pytest.mark.parametrize("optimize, kernel, how", [
    ("speed", "mcu_fully_connected_s8_w16", "filter widened to int16 pairs by 4 units"),
    ("balanced", "mcu_fully_connected_s8_x4", "filter interleaved by 4 units"),
    ("size", "mcu_fully_connected_s8_x4", "filter interleaved by 4 units")])
def test_lower_ops_widens_weights_only_as_optimize_allows(optimize, kernel, how):
    """On a DSP core, weights widened to int16 (twice their flash) are --optimize speed's; balanced widens only
    within 1.1x the model's weights and 8 B an output channel (here 12 B of weights: 1.1 x 12 + 3 x 8 = 37 B,
    less than the RELU's table alone), size never. (A filter offset: without one the layer runs on twin words in
    every mode, below.)"""
    before = FC_RELU.replace("zp 0 const 'w'", "zp 1 const 'w'")
    low = lowered(before, frozenset({"dsp"}), Budget(optimize=optimize))
    assert _ir(low) == before.replace(
        "  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x3]\n",
        f"  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x3]\n     call {kernel} (1 row(s) of 4 -> 3 units, {how}, input "
        "offset folded into the bias)\n").replace("  1: t3 = RELU(t2) -> [1x3]\n",
                                                  f"  1: t3 = RELU(t2) -> [1x3]\n{LOWERED[3]}\n")


@pytest.mark.parametrize("optimize", ["speed", "balanced", "size"])
def test_lower_ops_keeps_a_fully_connected_layers_weights_int8_in_every_mode(optimize):
    """Without a filter offset, in a model with 8 KB of FULLY_CONNECTED weights or more (TWIN_WORTH: worth the twin
    kernel's code), a layer runs on twin words on a DSP core, its int8 weights two units a halfword: at the weights'
    flash and as fast as their int16-widened copy, whatever --optimize says. (The 12 B layer above is not worth it:
    test_lower_ops_widens_weights_only_as_optimize_allows without its filter offset runs the same kernels.)"""
    lines = ["graph model inputs=(t0) outputs=(t2)",
             "tensors",
             "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
             "  t1 int8[2048, 4] scale 0.25 zp 0 const 'w'",
             "  t2 int8[1, 2048] scale 1 zp 0 output 'y'",
             "ops",
             "  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x2048]"]
    low = lowered(_text(*lines), frozenset({"dsp"}), Budget(optimize=optimize),
                       consts={"w": np.ones((2048, 4), np.int8)})
    assert _ir(low) == _text(
        *lines, "     call mcu_fully_connected_s8_twin (1 row(s) of 4 -> 2048 units, two units a halfword by 4 units, "
        "input offset folded into the bias)")


def test_plan_memory_places_each_activation_and_sizes_the_arena():
    """x takes bytes 0-3; h starts at the next aligned offset, 4; RELU writes y over h (in place)."""
    assert _ir(plan_memory(lowered(FC_RELU))) == _text(
        "graph model inputs=(t0) outputs=(t3)",
        "tensors",
        "  t0 int8[1, 4] scale 0.5 zp 0 @0 input 'x'",
        "  t1 int8[3, 4] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
        "  t2 int8[1, 3] scale 1 zp 0 @4 'h'",
        "  t3 int8[1, 3] scale 1 zp 0 @4 output 'y'",
        "ops",
        *LOWERED,
        "arena 8 B (earliest)")


def test_plan_memory_leaves_an_external_input_where_the_caller_keeps_it():
    """--external-input: x has no place in the arena (the layers read it where the caller keeps it), so h and y
    (in place) start at 0 and the arena is 4 B, not 8."""
    assert _ir(plan_memory(lowered(FC_RELU), external_inputs=True)) == _text(
        "graph model inputs=(t0) outputs=(t3)",
        "tensors",
        "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
        "  t1 int8[3, 4] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
        "  t2 int8[1, 3] scale 1 zp 0 @0 'h'",
        "  t3 int8[1, 3] scale 1 zp 0 @0 output 'y'",
        "ops",
        *LOWERED,
        "arena 4 B (earliest)")


def test_fuse_strips_runs_a_conv_inside_the_fc_that_reads_it():
    """On a DSP core the 3x3 conv's 512-byte output never exists whole: the FC's call runs the conv three
    output rows at a time and accumulates each strip into its four units."""
    tensors = ["graph model inputs=(t0) outputs=(t5)",
               "tensors",
               "  t0 int8[1, 8, 8, 2] scale 0.5 zp 0 input 'x'",
               "  t1 int8[8, 3, 3, 2] scale 0.25 zp 0 const 'w'",
               "  t2 int32[8] scale 0.125 zp 0 const 'b' = [0, 0, 0, 0, 0, 0, 0, 0]",
               "  t3 int8[1, 8, 8, 8] scale 1 zp 0 'h'",
               "  t4 int8[4, 512] scale 0.25 zp 0 const 'w2'",
               "  t5 int8[1, 4] scale 1 zp 0 output 'y'",
               "ops"]
    conv, fc = "  0: t3 = CONV_2D(t0, t1, t2) -> [1x8x8x8]", "  1: t5 = FULLY_CONNECTED(t3, t4, -) -> [1x4]"
    speed = Budget(optimize="speed")
    low = lowered(_text(*tensors, conv, fc), frozenset({"dsp"}), speed,
                       consts={"w": np.ones((8, 3, 3, 2), np.int8), "w2": np.ones((4, 512), np.int8)})
    assert _ir(low) == _text(
        *tensors, conv,
        "     call mcu_conv2d_split_s8_w16 (kernel 3x3, stride 1x1, dilation 1x1, padding SAME (top 1, left 1), "
        "kernel rows split into whole words and tails, six positions at a time, weights widened to int16 pairs)",
        fc,
        "     call mcu_fully_connected_s8_w16 (1 row(s) of 512 -> 4 units, filter widened to int16 pairs by 4 "
        "units, input offset folded into the bias)")
    assert _ir(fuse_strips(low, speed)) == _text(
        *tensors, conv,
        "     runs inside op 1's call",
        fc,
        "     call mcu_conv2d_fc_s8_x6 (with layer 0 (CONV_2D) run 3 rows at a time, each strip's 192 values "
        "accumulated into the 4 units; input offset folded into the bias)")


def test_pack_int4_keeps_an_int8_kernels_int4_weights_packed_until_the_call():
    """An INT4 filter on the int8 kernel (the second candidate, as --tune may choose): its widened weights,
    four units by four values, are kept two to a byte and unpacked into scratch before the call."""
    tuning = Tuning("mps2-an386", "estimated cycles", {}, round=1)
    before = FC_RELU.replace("int8[3, 4] scale 0.25 zp 0 const 'w'", "int4[3, 4] scale 0.25 zp 0 const 'w'")
    speed = Budget(optimize="speed")
    fused = fuse_strips(lowered(before, frozenset({"dsp"}), speed, tuning), speed, tuning)
    call = ("     call mcu_fully_connected_s8_w16 (1 row(s) of 4 -> 3 units, filter widened to int16 pairs by 4 units, "
            "input offset folded into the bias)")
    expected = before.replace("-> [1x3]\n  1:", f"-> [1x3]\n{call}\n  1:").replace(
        "RELU(t2) -> [1x3]\n", f"RELU(t2) -> [1x3]\n{LOWERED[3]}\n")
    assert _ir(fused) == expected
    assert _ir(pack_int4(fused)) == expected.replace(f"{call}\n", f"{call}\n     unpacks filter_pairs: 16 int16 from "
                                                                "8 B (mcu_unpack_s4_s16)\n")


FLOAT16_FC = _text(  # x [1, 2] float32 -> FULLY_CONNECTED (64 units) on float16 weights behind a DEQUANTIZE
    "graph model inputs=(t0) outputs=(t3)",
    "tensors",
    "  t0 float32[1, 2] input 'x'",
    "  t1 float32[64, 2] 'w'",
    "  t2 float16[64, 2] const 'w16'",
    "  t3 float32[1, 64] output 'y'",
    "ops",
    "  0: t1 = DEQUANTIZE(t2) -> [64x2]",
    "  1: t3 = FULLY_CONNECTED(t0, t1, -) -> [1x64]")
W16 = {"w16": np.arange(-64, 64).reshape(64, 2).astype(np.float16) / 4}


def test_fold_constants_widens_float16_weights_at_build_time():
    """The DEQUANTIZE of a float16 constant runs once, at build time: its output is a float32 constant
    that remembers the file's float16 (the model's weights stay counted at that size)."""
    assert _ir(fold_constants(Graph.parse(FLOAT16_FC, W16))) == FLOAT16_FC.replace(
        "  t1 float32[64, 2] 'w'", "  t1 float32[64, 2] const (float16 in the file) 'w'").replace(
        "  0: t1 = DEQUANTIZE(t2) -> [64x2]\n  1:", "  0:")


@pytest.mark.parametrize("optimize", ["balanced", "speed"])
def test_pack_float16_keeps_them_float16_until_the_call(optimize):
    """By default the 512 B of float32 weights are 256 B of float16 in flash, widened into the call's
    scratch just before it; --optimize speed keeps them float32 (no widening)."""
    folded = fold_constants(Graph.parse(FLOAT16_FC, W16))
    low = lower_ops(prepare_ops(folded), optimize=optimize)
    call = "     call mcu_fully_connected_f32 (1 x 2 -> 64 units)\n"
    assert call in _ir(low)
    unpack = "     unpacks filter: 128 float32 from 256 B (mcu_unpack_f16)\n"
    assert _ir(pack_float16(low, optimize)) == (_ir(low).replace(call, call + unpack)
                                                    if optimize == "balanced" else _ir(low))


TWO_FCS = _text(  # 64 -> 32 -> 128 units on the reference kernel
    "graph model inputs=(t0) outputs=(t2)",
    "tensors",
    "  t0 int8[1, 64] scale 0.5 zp 0 input 'x'",
    "  t1 int8[1, 32] scale 1 zp 0 'h'",
    "  t2 int8[1, 128] scale 1 zp 0 output 'y'",
    "  t3 int8[32, 64] scale 0.25 zp 0 const 'w1'",
    "  t4 int8[128, 32] scale 0.25 zp 0 const 'w2'",
    "ops",
    "  0: t1 = FULLY_CONNECTED(t0, t3, -) -> [1x32]",
    "  1: t2 = FULLY_CONNECTED(t1, t4, -) -> [1x128]")


def _planned_fcs(budget: Budget) -> Compiled:
    consts = {"w1": np.ones((32, 64), np.int8), "w2": np.ones((128, 32), np.int8)}
    return plan_memory(lowered(TWO_FCS, budget=budget, consts=consts))


def test_place_weights_moves_the_least_read_weights_out_until_the_rest_fits():
    """Two FCs on the reference kernel, their constants 2,048 + 256 bytes (weights, then each of 32 units'
    multiplier and shift) and 4,096 + 1,024 (128 units), 3,000 bytes of the chip's flash for constants: op 1's
    4,096 MACs read 0.8 per byte, op 0's 2,048 read 0.89, so op 1 goes out first, and then the 2,304 left fit.
    `internal` keeps both in; `external` moves both."""
    room = Budget(internal_room=3000, weights_region="QSPI")
    planned = _ir(_planned_fcs(room))
    assert _ir(place_weights(_planned_fcs(room), room)) == planned + "weights of ops 1 in QSPI\n"
    inside = dataclasses.replace(room, weights="internal")
    assert _ir(place_weights(_planned_fcs(inside), inside)) == planned
    out = dataclasses.replace(room, weights="external")
    assert _ir(place_weights(_planned_fcs(out), out)) == planned + "weights of ops 0, 1 in QSPI\n"


def test_place_weights_copies_the_most_read_weights_into_ram_while_they_fit():
    """--weights ram, the same two FCs: op 0's weights (0.89 reads per byte) before op 1's (0.8); with room
    for 3,000 bytes beside the arena only op 0's 2,304 go, with no limit both, with 1,000 none (and the
    record says so)."""
    everywhere = Budget(weights_region="RAM", weights="ram")
    planned = _planned_fcs(everywhere)
    assert _ir(place_weights(planned, everywhere)) == _ir(planned) + "weights of ops 0, 1 in RAM\n"
    arena = planned.arena.plan.size
    some = dataclasses.replace(everywhere, ram_room=arena + 3000)
    assert _ir(place_weights(planned, some)) == _ir(planned) + "weights of ops 0 in RAM\n"
    none = dataclasses.replace(everywhere, ram_room=arena + 1000)
    assert _ir(place_weights(planned, none)) == _ir(planned) + \
        "weights of no op in RAM (none fits the room the arena and variables leave)\n"


@pytest.mark.parametrize("model, features", [
    ("mlperf_kws_dscnn.tflite", frozenset()), ("mlperf_ic_resnet8.tflite", frozenset({"dsp"})),
    ("mlperf_vww_mobilenet.tflite", frozenset({"mve"})), ("tflm_micro_speech.tflite", frozenset({"dsp"})),
    ("mlperf_ad_autoencoder.tflite", frozenset({"dsp"}))])
def test_place_weights_counts_each_layers_constants_as_the_c_holds_them(model, features):
    """The pass decides before any C exists: its count of a layer's constant bytes is the emitted one."""
    g = compile_model(MODELS / model, features=features)
    assert layers_const_bytes(g) == list(emit_c(g, model).layer_const_bytes)


def test_place_views_writes_a_concatenations_inputs_in_their_places():
    """Two RELUs of [1, 2, 4] concatenated on axis 1: each writes its 8 bytes where the [1, 4, 4] output
    holds them, and the concatenation loses its copy."""
    tensors = ["graph model inputs=(t0) outputs=(t3)",
               "tensors",
               "  t0 int8[1, 2, 4] scale 0.5 zp 0 input 'x'",
               "  t1 int8[1, 2, 4] scale 0.5 zp 0 'a'",
               "  t2 int8[1, 2, 4] scale 0.5 zp 0 'b'",
               "  t3 int8[1, 4, 4] scale 0.5 zp 0 output 'y'",
               "ops"]
    relus = ["  0: t1 = RELU(t0) -> [1x2x4]",
             "     call mcu_lut (tabulated at build time for all 256 inputs)",
             "  1: t2 = RELU6(t0) -> [1x2x4]",
             "     call mcu_lut (tabulated at build time for all 256 inputs)",
             "  2: t3 = CONCATENATION(t1, t2) -> [1x4x4] with axis=1"]
    low = lowered(_text(*tensors, *relus[0::2]))
    assert _ir(low) == _text(*tensors, *relus, "     call mcu_concatenation (axis 1)")
    assert _ir(place_views(low)) == _text(*tensors, *relus, "     t1 is t3's bytes from 0",
                                              "     t2 is t3's bytes from 8")


def test_split_patches_runs_a_layer_in_two_bands_of_rows():
    """A 3x1 SAME depthwise over 4 rows in 2 bands: each band reads the 3 rows its 2 output rows need (a
    STRIDED_SLICE), pads only at the image's edge, and a CONCATENATION joins the bands."""
    tensors = ["graph model inputs=(t0) outputs=(t2)",
               "tensors",
               "  t0 int8[1, 4, 1, 2] scale 0.5 zp 0 input 'x'",
               "  t1 int8[1, 3, 1, 2] scales [0.25, 0.25] zps [0, 0] on axis 3 const 'w' = [1, 1, 1, 1, 1, 1]",
               "  t2 int8[1, 4, 1, 2] scale 1 zp 0 output 'y'"]
    before = _text(*tensors, "ops", "  0: t2 = DEPTHWISE_CONV_2D(t0, t1) -> [1x4x1x2] with depth_multiplier=1")
    assert _ir(split_patches(prepare_ops(Graph.parse(before)), Stage(end=0, bands=2))) == _text(
        *tensors,
        "  t3 int8[1, 3, 1, 2] scale 0.5 zp 0 'x_rows0_3'",
        "  t4 int32[4] const 'x_rows0_3_begin' = [0, 0, 0, 0]",
        "  t5 int32[4] const 'x_rows0_3_end' = [1, 3, 1, 2]",
        "  t6 int32[4] const 'x_rows0_3_strides' = [1, 1, 1, 1]",
        "  t7 int8[1, 2, 1, 2] scale 1 zp 0 'y_band0'",
        "  t8 int8[1, 3, 1, 2] scale 0.5 zp 0 'x_rows1_4'",
        "  t9 int32[4] const 'x_rows1_4_begin' = [0, 1, 0, 0]",
        "  t10 int32[4] const 'x_rows1_4_end' = [1, 4, 1, 2]",
        "  t11 int32[4] const 'x_rows1_4_strides' = [1, 1, 1, 1]",
        "  t12 int8[1, 2, 1, 2] scale 1 zp 0 'y_band1'",
        "ops",
        "  0: t3 = STRIDED_SLICE(t0, t4, t5, t6) -> [1x3x1x2]",
        "  1: t7 = DEPTHWISE_CONV_2D(t3, t1) -> [1x2x1x2] with padding='VALID', depth_multiplier=1",
        "     pads [[top, bottom], [left, right]] [[1, 0], [0, 0]] (a PAD's or a band's)",
        "  2: t8 = STRIDED_SLICE(t0, t9, t10, t11) -> [1x3x1x2]",
        "  3: t12 = DEPTHWISE_CONV_2D(t8, t1) -> [1x2x1x2] with padding='VALID', depth_multiplier=1",
        "     pads [[top, bottom], [left, right]] [[0, 1], [0, 0]] (a PAD's or a band's)",
        "  4: t2 = CONCATENATION(t7, t12) -> [1x4x1x2] with axis=1")


def test_compute_fp16_computes_a_plans_fp16_layers_in_float16_where_the_core_can():
    """Two FULLY_CONNECTED layers the file marks fp16 with a RESHAPE between them: on a core with half-precision
    arithmetic each reads and writes float16 twins, the weights and bias float16 constants, the input converted
    once (QUANTIZE float32 -> float16), float16 passed on through the RESHAPE, the output converted back
    (DEQUANTIZE) where the graph gives it out. Elsewhere nothing changes."""
    head = ["graph model inputs=(t0) outputs=(t7)",
            "tensors",
            "  t0 float32[1, 4] input 'x'",
            "  t1 float32[2, 4] const 'w' = [0.5, -1.0, 0.25, 2.0, 1.5, 0.125, -0.75, 3.0]",
            "  t2 float32[2] const 'b' = [0.5, -0.5]",
            "  t3 float32[1, 2] 'h'",
            "  t4 int32[2] const 'shape' = [2, 1]",
            "  t5 float32[2, 1] 'r'",
            "  t6 float32[3, 1] const 'w2' = [1.0, -2.0, 0.5]",
            "  t7 float32[2, 3] output 'y'"]
    before = _text(*head, "ops",
                   "  0: t3 = FULLY_CONNECTED(t0, t1, t2) -> [1x2]",
                   "  1: t5 = RESHAPE(t3, t4) -> [2x1]",
                   "  2: t7 = FULLY_CONNECTED(t5, t6, -) -> [2x3]",
                   "fp16 layers ['h', 'y']")
    assert _ir(compute_fp16(Graph.parse(before), arithmetic=False)) == before
    assert _ir(compute_fp16(Graph.parse(before), arithmetic=True)) == _text(
        *head,
        "  t8 float16[1, 4] 'x/fp16'",
        "  t9 float16[2, 4] const 'w/fp16' = [0.5, -1.0, 0.25, 2.0, 1.5, 0.125, -0.75, 3.0]",
        "  t10 float16[2] const 'b/fp16' = [0.5, -0.5]",
        "  t11 float16[1, 2] 'h/fp16'",
        "  t12 float16[2, 1] 'r/fp16'",
        "  t13 float16[3, 1] const 'w2/fp16' = [1.0, -2.0, 0.5]",
        "  t14 float16[2, 3] 'y/fp16'",
        "ops",
        "  0: t8 = QUANTIZE(t0) -> [1x4]",
        "  1: t11 = FULLY_CONNECTED(t8, t9, t10) -> [1x2]",
        "  2: t12 = RESHAPE(t11, t4) -> [2x1]",
        "  3: t14 = FULLY_CONNECTED(t12, t13, -) -> [2x3]",
        "  4: t7 = DEQUANTIZE(t14) -> [2x3]",
        "fp16 layers ['h', 'y']")
