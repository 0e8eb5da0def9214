"""The arena planner on lifetimes small enough to check by hand, and plan_memory on literal graphs."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import DSP, MODELS, argument
from mcugen.passes.fuse_strips import fuse_all
from mcugen.passes.lower_ops import lower_ops
from mcugen.passes.plan_memory import plan_memory
from mcugen.codegen.pipeline import compile_model, lower
from mcugen.ir.budget import Budget
from mcugen.ir.planner import Buffer, PlacementError, Plan, Region, place, plan
from test_dsp_kernels import _conv_then_add, _conv_then_fc
from tflite_writer import ModelSpec


def test_buffers_apart_in_time_share_bytes():
    # A lives 0..1, B 1..2, C 2..3. A and C never meet, so C reuses A's bytes; B sits above A.
    p = plan([Buffer("A", 100, 0, 1), Buffer("B", 50, 1, 2), Buffer("C", 100, 2, 3)])
    assert dict(zip("ABC", p.offsets)) == {"A": 0, "B": 100, "C": 0}
    assert p.size == 152  # 150 rounded up to the 4-byte alignment
    assert p.conflicts() == []


def test_a_buffer_lies_in_another_ones_hole_while_it_holds_nothing():
    # S (a patch stage's input and output, 100 B, steps 0..4) holds nothing in bytes 0..40 over steps 1..2: T
    # (40 B, steps 1..2) lies there; U (40 B, steps 2..3) outlives the hole and goes above S.
    buffers = [Buffer("S", 100, 0, 4, holes=((1, 2, 0, 40),)), Buffer("T", 40, 1, 2), Buffer("U", 40, 2, 3)]
    p = plan(buffers)
    assert dict(zip("STU", p.offsets)) == {"S": 0, "T": 0, "U": 100}
    assert p.size == 140 and p.conflicts() == []
    assert Plan(p.buffers, (0, 0, 40), 140).conflicts() == [("S", "U")]


def test_offsets_are_word_aligned():
    p = plan([Buffer("a", 3, 0, 2), Buffer("b", 5, 0, 2), Buffer("c", 1, 1, 1)])
    assert all(o % 4 == 0 for o in p.offsets)
    assert sorted(p.offsets) == [0, 8, 12]  # b (largest) at 0, then a at 8, c at 12


def test_several_orders_tried_and_the_smallest_kept():
    # Largest-first puts the long-lived 60 B buffer L at 0 and X (70 B, 0..0) at 60;
    # Y (70 B, 2..2) reuses 60..130; arena 132 whichever order; S (10 B, 0..2) rides along.
    buffers = [Buffer("X", 70, 0, 0), Buffer("L", 60, 0, 2), Buffer("Y", 70, 2, 2), Buffer("S", 10, 1, 1)]
    p = plan(buffers)
    assert p.conflicts() == []
    assert p.size == 132
    live = [sum(b.size for b in buffers if b.first <= s <= b.last) for s in range(3)]
    assert p.size >= max(live)


def test_empty_plan():
    p = plan([])
    assert p.size == 0 and p.timeline() == "(empty arena)"


def test_timeline_marks_live_buffers():
    p = plan([Buffer("A", 100, 0, 1), Buffer("B", 50, 1, 2), Buffer("C", 100, 2, 3)])
    rows = p.timeline(width=19).splitlines()
    assert rows[1] == "   0 |" + "A" * 12 + "." * 7 + "|      100 B live"
    assert rows[2] == "   1 |" + "A" * 12 + "B" * 6 + ".|      150 B live"  # 8 B per column
    assert "C: 100 B at 0, steps 2..3" in rows[-1]


# -- across memory regions ----------------------------------------------------------------------------------
# Three buffers: A 100 B (steps 0..1), B 60 B (1..2), C 100 B (2..3). At step 1 A and B are live (160 B), at
# step 2 B and C (160 B): one 100 B region cannot hold either step, two can.
ABC = [Buffer("A", 100, 0, 1), Buffer("B", 60, 1, 2), Buffer("C", 100, 2, 3)]


def test_a_plan_that_fits_no_region_alone_is_split_between_two():
    """RAM 120 B (main, A pinned there as a graph input) and SRAM2 100 B, equally fast: A in RAM; B, the
    most accessed per byte, to the first region that holds it at steps 1..2 (RAM: 100 + 60 > 120, so
    SRAM2); C to RAM at A's offset (A is dead by step 2). No buffer straddles, none overlaps a live one."""
    p = place(ABC, (Region("RAM", 120, 1), Region("SRAM2", 100, 1)), [200, 180, 200], {0: 0})
    assert p.region_of == ("RAM", "SRAM2", "RAM") and p.offsets == (0, 0, 0)
    assert p.region_sizes == (("RAM", 100), ("SRAM2", 60)) and p.size == 100
    assert p.conflicts() == []


def test_the_most_accessed_bytes_go_to_the_fastest_region():
    """TCM 64 B (rank 0) takes B, the buffer with most accesses per byte (3 per byte against A's 1 and
    C's 2), though RAM could hold everything; A and C share RAM's bytes."""
    p = place(ABC, (Region("RAM", 400, 1), Region("TCM", 64, 0)), [100, 180, 200], {})
    assert p.region_of == ("RAM", "TCM", "RAM") and p.region_sizes == (("RAM", 100), ("TCM", 60))
    slow = place(ABC, (Region("RAM", 400, 1), Region("TCM", 64, 2)), [100, 180, 200], {})
    assert slow.region_of == ("RAM", "RAM", "RAM")  # ranked slower, the small region is not used


def test_when_no_split_fits_the_step_with_most_live_bytes_is_named():
    with pytest.raises(PlacementError) as error:
        place(ABC, (Region("RAM", 100, 1), Region("SRAM2", 50, 1)), [1, 1, 1], {})
    assert (error.value.step, error.value.live) == (1, 160)


def test_each_region_is_planned_on_its_own_and_drawn_so():
    p = place(ABC, (Region("RAM", 120, 1), Region("SRAM2", 100, 1)), [200, 180, 200], {0: 0})
    assert p.in_region("SRAM2").buffers == (ABC[1],)
    text = p.timeline(width=10)
    assert text.startswith("one region per buffer: the inputs and outputs in RAM")
    assert "\n\nregion RAM: arena 100 B" in text and "region SRAM2: arena 60 B" in text


def _chain_model(tmp_path, middle: str):
    """x -> FULLY_CONNECTED -> t -> <middle> -> u -> FULLY_CONNECTED -> y, with 8-element tensors (a QUANTIZE
    rescales: one that only moved the zero point would fold into the FC)."""
    m = ModelSpec()
    q = dict(scale=0.05, zp=0)
    x = m.tensor("x", [1, 8], "int8", **q)
    w1 = m.const("w1", np.ones((8, 8)), "int8", scale=0.01, zp=0)
    t = m.tensor("t", [1, 8], "int8", **q)
    u_shape = [1, 2, 4] if middle == "RESHAPE" else [1, 8]
    u = m.tensor("u", u_shape, "int8", scale=0.1 if middle == "QUANTIZE" else 0.05, zp=0)
    w2 = m.const("w2", np.ones((8, 8)), "int8", scale=0.01, zp=0)
    y = m.tensor("y", [1, 8], "int8", **q)
    m.op("FULLY_CONNECTED", [x, w1, -1], [t], "FullyConnectedOptions")
    if middle == "RESHAPE":
        shape = m.const("shape", np.array(u_shape), "int32")
        m.op("RESHAPE", [t, shape], [u], "ReshapeOptions", NewShape=u_shape)
    else:
        m.op(middle, [t], [u])
    m.op("FULLY_CONNECTED", [u, w2, -1], [y], "FullyConnectedOptions")
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "chain.tflite"
    path.write_bytes(m.build())
    return compile_model(path)


def test_reshape_aliases_its_input(tmp_path):
    g = _chain_model(tmp_path, "RESHAPE")
    buffers = {b.name: (b.first, b.last) for b in g.arena.plan.buffers}
    # t is written at step 0 and read (as u) at step 2; u has no buffer of its own; y lives to the end
    assert buffers == {"input_0": (0, 0), "fully_connected_0_out": (0, 2), "fully_connected_2_out": (2, 3)}
    assert g.arena.buffer_of[g.ops[1].outputs[0]] == g.arena.buffer_of[g.ops[1].inputs[0]]


def test_elementwise_op_runs_in_place_when_its_input_dies(tmp_path):
    g = _chain_model(tmp_path, "QUANTIZE")
    buffers = {b.name: (b.first, b.last) for b in g.arena.plan.buffers}
    assert buffers == {"input_0": (0, 0), "fully_connected_0_out": (0, 2), "fully_connected_2_out": (2, 3)}
    assert g.arena.plan.conflicts() == []


def test_kernel_scratch_lives_at_its_own_step_only(tmp_path):
    """x [1,4,4,8] -> CONV_2D 3x3 (8 -> 8) -> y: for DSP cores the conv's scratch is a buffer of
    6 patches x 72 int16 + 72 bytes = 936 B, live at step 0 only; the reference build has none."""
    m = ModelSpec()
    x = m.tensor("x", [1, 4, 4, 8], "int8", scale=0.05, zp=0)
    w = m.const("w", np.ones((8, 3, 3, 8)), "int8", scale=[0.01] * 8, zp=[0] * 8, axis=0)
    y = m.tensor("y", [1, 4, 4, 8], "int8", scale=0.1, zp=0)
    m.op("CONV_2D", [x, w, -1], [y], "Conv2DOptions", Padding="SAME", StrideW=1, StrideH=1)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "conv.tflite"
    path.write_bytes(m.build())
    g = compile_model(path, features=DSP)
    buffers = {b.name: (b.first, b.last, b.size) for b in g.arena.plan.buffers}
    assert buffers == {"input_0": (0, 0, 128), "conv_2d_0_out": (0, 1, 128), "conv_2d_0_scratch": (0, 0, 936)}
    assert g.arena.plan.conflicts() == [] and g.arena.plan.size == 128 + 128 + 936
    assert [b.name for b in compile_model(path).arena.plan.buffers] == ["input_0", "conv_2d_0_out"]


def _pointwise_then_depthwise(tmp_path, x_shape, conv_out: int, dw_stride: int):
    """x -> CONV_2D 1x1 (C -> conv_out) -> t -> DEPTHWISE 3x3 (stride dw_stride) -> y."""
    m = ModelSpec()
    c = x_shape[3]
    x = m.tensor("x", x_shape, "int8", scale=0.05, zp=0)
    w = m.const("w", np.ones((conv_out, 1, 1, c)), "int8", scale=[0.01] * conv_out, zp=[0] * conv_out, axis=0)
    t = m.tensor("t", [*x_shape[:3], conv_out], "int8", scale=0.1, zp=0)
    m.op("CONV_2D", [x, w, -1], [t], "Conv2DOptions", Padding="VALID", StrideW=1, StrideH=1)
    dw = m.const("dw", np.ones((1, 3, 3, conv_out)), "int8", scale=[0.01] * conv_out, zp=[0] * conv_out, axis=3)
    oh, ow = (-(-n // dw_stride) for n in x_shape[1:3])
    y = m.tensor("y", [1, oh, ow, conv_out], "int8", scale=0.1, zp=0)
    m.op("DEPTHWISE_CONV_2D", [t, dw], [y], "DepthwiseConv2DOptions", Padding="SAME", StrideW=dw_stride,
         StrideH=dw_stride, DepthMultiplier=1)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "pw_dw.tflite"
    path.write_bytes(m.build())
    return path


def test_dsp_pointwise_and_depthwise_run_in_place(tmp_path):
    """x [1,6,5,8] -> 1x1 conv (8 -> 8) -> DEPTHWISE 3x3 stride 2 -> y [1,3,3,8]. On DSP cores both
    kernels may overwrite their dying input (the 1x1 widens each block of positions before writing
    it; the depthwise copies each group of channels out first): one 240 B buffer holds x, then t,
    then y, beside the two scratch buffers. The reference kernels are not in-place safe: three buffers."""
    path = _pointwise_then_depthwise(tmp_path, [1, 6, 5, 8], 8, 2)
    g = compile_model(path, features=DSP)
    x, t, y = g.inputs[0], g.ops[0].outputs[0], g.ops[1].outputs[0]
    assert g.arena.buffer_of[x] == g.arena.buffer_of[t] == g.arena.buffer_of[y]
    buffers = {b.name: (b.first, b.last, b.size) for b in g.arena.plan.buffers}
    # the depthwise window: (3-1)*2 + 3 = 7 rows, (3-1)*2 + 3 = 7 columns, 4 channels
    assert buffers == {"input_0": (0, 2, 240), "conv_2d_0_scratch": (0, 0, 6 * 8 * 2 + 8),
                       "depthwise_conv_2d_1_scratch": (1, 1, 7 * 7 * 4)}
    assert g.arena.plan.conflicts() == []
    reference = compile_model(path)
    assert len({reference.arena.buffer_of[k] for k in (x, t, y)}) == 3 and reference.arena.plan.conflicts() == []


def test_pointwise_conv_that_widens_its_input_gets_its_own_buffer(tmp_path):
    """A 1x1 conv with more outputs than inputs (8 -> 12) would write past the positions it has read."""
    g = compile_model(_pointwise_then_depthwise(tmp_path, [1, 6, 5, 8], 12, 1), features=DSP)
    x, t, y = g.inputs[0], g.ops[0].outputs[0], g.ops[1].outputs[0]
    assert g.arena.buffer_of[x] != g.arena.buffer_of[t] == g.arena.buffer_of[y]
    assert g.arena.plan.conflicts() == []


def test_a_conv_fused_into_its_fc_has_no_buffer_and_its_input_lives_until_the_fc(tmp_path):
    """x [1,7,5,3] -> CONV 3x3 (3 -> 8) -> t [1,7,5,8] (280 B) -> FC (5 units). On DSP cores the FC's
    call runs the conv 6 rows at a time (6 x 5 positions fill 5 blocks of 6) into a 240 B tile: t
    has no buffer, x lives until step 1, and the FC's scratch holds the conv's (6 x 32 int16 + 32 B:
    27 taps rounded up to 32, two groups of four values per pass of its loop), the tile and 5 int32
    accumulators. Unfused, step 0 holds x, t and the conv's scratch: 105 + 280 + 416 = 801 B; fused,
    step 1 holds 105 + 5 + 676 = 786 B."""
    path = tmp_path / "conv_fc.tflite"
    path.write_bytes(_conv_then_fc(7, 5, 3, 3, 1, 8, 5).build())
    g = compile_model(path, features=DSP)
    assert [op.fused_into for op in g.ops] == [1, None]
    buffers = {b.name: (b.first, b.last, b.size) for b in g.arena.plan.buffers}
    assert buffers == {"input_0": (0, 1, 105), "fully_connected_1_out": (1, 2, 5),
                       "fully_connected_1_scratch": (1, 1, 416 + 240 + 20)}
    assert g.arena.plan.conflicts() == [] and g.arena.plan.size == 792  # 105 -> 108, + 8, + 676
    reference = compile_model(path)  # the reference kernels don't fuse
    assert reference.ops[0].fused_into is None and reference.arena.plan.size == 280 + 108  # y where x was


def test_a_fusion_that_would_cost_ram_is_not_made(tmp_path):
    """ADD(conv(z), z): the residual is the conv's input, so the output can't overwrite it, and the
    tile and scratch outweigh the intermediate. The pass keeps the plain plan; forced, it is bigger."""
    path = tmp_path / "conv_add.tflite"
    path.write_bytes(_conv_then_add(6, 5, 4, 1, True, True).build())
    g = compile_model(path, features=DSP)
    assert all(op.fused_into is None for op in g.ops)
    forced = plan_memory(fuse_all(g))
    assert forced.ops[0].fused_into == 1 and forced.arena.plan.conflicts() == []
    add_out = forced.arena.buffer_of[forced.ops[1].outputs[0]]
    assert add_out != forced.arena.buffer_of[forced.inputs[0]]  # not in place: the conv still reads z
    assert forced.arena.plan.size > g.arena.plan.size


def test_a_pointwise_conv_runs_into_its_depthwise_where_the_peak_needs_it():
    """person_detect: the 48x48x8 -> 48x48x16 pointwise conv (layer 2) and its stride-2 depthwise (layer 3)
    peaked at 18,432 + 36,864 B. Fused, the 36,864 B output is three rows (3 * 48 * 16 = 2,304 B) for the
    depthwise's next output row; that step holds the conv's input, those rows, the depthwise's window for
    one row ((24 - 1) * 2 + 3 = 49 columns * 3 rows * 4 B: the four-channel kernel, not the channel-at-a-time
    one the layer alone takes), the conv's scratch (6 * 8 int16 + 8 B) and the 24x24x16 output. Every other
    pair fuses too (fuse_all), but the peak does not need them: undone."""
    path = MODELS / "tflm_person_detect.tflite"
    g = compile_model(path, features=DSP)
    assert [(op.index, op.fused_into) for op in g.ops if op.fused_into is not None] == [(2, 3)]
    assert g.ops[3].call.kernel == "mcu_conv2d_depthwise_s8_x4"
    assert g.arena.plan.size == 48 * 48 * 8 + 3 * 48 * 16 + 49 * 3 * 4 + (6 * 8 * 2 + 8) + 24 * 24 * 16
    assert g.arena.plan.conflicts() == []
    every = plan_memory(fuse_all(lower_ops(lower(path), DSP, None, None)))
    assert len([op for op in every.ops if op.fused_into is not None]) > 1
    assert every.arena.plan.size == g.arena.plan.size


def test_a_resnet_block_runs_whole_inside_its_add_where_the_peak_needs_it():
    """MLPerf Tiny's ResNet-8: its first two blocks (layers 1, 2 -> ADD 3 and 4, 5 -> ADD 7) are chains
    of two convs and a residual. With only the second conv of each fused, the first block held its
    input and the first conv's output (2 * 32 * 32 * 16 B). As chains, the first conv's output is the
    rows a strip of the second reads: three output rows (48 positions, whole blocks of 6) read five.
    Block 1's ADD writes over its input, which the first conv has read past by then. Block 2's residual is
    a 1x1 stride-2 conv of its input (layer 6): it runs strip by strip in the same call, and the block's
    16x16x32 output goes over its 32x32x16 input behind both convs' reads, so the peak, ADD 7's step, is
    that input and the call's scratch alone: the larger conv scratch (layer 5's: 6 * 288 int16 + 288 B),
    five rows of layer 4's output and three output rows of each of layer 5 and layer 6. The buffer those
    outputs share holds 8 KB from step 8 on (Buffer.shrinks): block 3, whose peak is no higher, stays
    unfused, its layers in the freed half."""
    g = compile_model(MODELS / "mlperf_ic_resnet8.tflite", features=DSP)
    assert [(op.index, op.fused_into) for op in g.ops if op.fused_into is not None] == [
        (1, 3), (2, 3), (4, 7), (5, 7), (6, 7)]
    assert g.ops[3].call.kernel == "mcu_conv2d_conv2d_add_s8_x6"
    assert g.ops[7].call.kernel == "mcu_conv2d_conv2d_add_shortcut_s8_x6"
    assert argument(g.ops[3].call, "residual") is None  # the first conv's input: passed once
    assert g.arena.buffer_of[g.ops[3].outputs[0]] == g.arena.buffer_of[g.ops[1].inputs[0]]
    assert g.arena.buffer_of[g.ops[7].outputs[0]] == g.arena.buffer_of[g.ops[4].inputs[0]]
    assert g.arena.buffer(g.ops[7].outputs[0]).shrinks == ((8, 16 * 16 * 32),)
    assert g.arena.plan.size == 32 * 32 * 16 + (6 * 288 * 2 + 288) + 5 * 16 * 32 + 2 * 3 * 16 * 32
    assert g.arena.plan.conflicts() == []


def test_where_the_flash_waits_a_fusion_gives_way_to_the_weights_copied_into_its_bytes():
    """ResNet-8 for the NUCLEO-L4R5ZI (5 wait states): its fused blocks' 25,760 B arena leaves no room at their
    steps for the weights stage_weights copies out of flash, so with the board's RAM to spare every block runs
    unfused and more copies save more waits; under --max-arena 40000 the first block stays fused, under
    30000 all the fusions the M4's build takes."""
    import dataclasses

    from mcugen.passes.fuse_strips import _plan
    from mcugen.targets.boards import load_board

    l4r5 = load_board("nucleo-l4r5zi")
    budget = l4r5.budget()

    def fused(room: int | None) -> list[int]:
        b = budget if room is None else dataclasses.replace(budget, arena_room=room, max_arena=room)
        g = compile_model(MODELS / "mlperf_ic_resnet8.tflite", features=l4r5.features, budget=b)
        return sorted({op.fused_into for op in g.ops if op.fused_into is not None})

    assert fused(None) == [] and fused(40_000) == [3] and fused(30_000) == [3, 7]
    g = lower_ops(lower(MODELS / "mlperf_ic_resnet8.tflite"), l4r5.features, None, budget.const_room, budget.optimize)
    assert _plan(g, budget)[1] > _plan(fuse_all(g), budget)[1] > 0
    assert _plan(g, dataclasses.replace(budget, flash=type(budget.flash)()))[1] == 0


def test_a_buffer_that_shrinks_lends_its_tail():
    """A smaller tensor written in place over a larger one leaves the buffer's tail free once the larger dies:
    first fit places a buffer there, and the plan's conflicts are judged with the bytes each holds while both
    are live."""
    big = Buffer("big", 1000, 0, 9, ((5, 400),))
    late, early = Buffer("late", 600, 6, 8), Buffer("early", 600, 2, 6)
    p = plan([big, late, early])
    assert dict(zip((b.name for b in p.buffers), p.offsets)) == {"big": 0, "late": 400, "early": 1000}
    assert p.size == 1600 and p.conflicts() == []
    assert big.size_at(4) == 1000 and big.size_at(5) == big.size_at(9) == 400
    clash = Plan((big, early), (0, 400), 1000)
    assert clash.conflicts() == [("big", "early")]  # early lives at step 2, while big holds 1000 B


def test_fusion_is_judged_in_the_regions_the_arena_will_be_placed_in():
    """person_detect's fused pointwise conv (above) on RAM of two regions: where the main region holds the fused
    peak but no placement of the unfused graph fits, the fusion is kept; where both fit, what fuse_strips keeps
    is never larger, placed in the regions, than the unfused graph."""
    from mcugen.passes.fuse_strips import _plan, fuse_strips

    g = lower_ops(lower(MODELS / "tflm_person_detect.tflite"), DSP, None, None)
    unfused, fused = plan_memory(g).arena.plan.size, compile_model(MODELS / "tflm_person_detect.tflite",
                                                                  features=DSP).arena.plan.size
    assert fused < unfused
    # no buffer of the peak fits SLOW in the tight one
    tight = Budget(regions=(Region("SRAM", fused + 64, 0), Region("SLOW", 1024, 1)))
    roomy = Budget(regions=(Region("SRAM", 2 * unfused, 0), Region("SLOW", 1024, 1)))
    assert [op.fused_into for op in fuse_strips(g, tight).ops if op.fused_into is not None] == [3]
    assert _plan(g, tight)[0] == float("inf") and _plan(fuse_strips(g, tight), tight)[0] <= fused + 64
    kept = fuse_strips(g, roomy)
    assert _plan(kept, roomy)[0] <= _plan(g, roomy)[0]
