"""passes/grow_scratch.py: a channel-at-a-time depthwise layer gets the scratch for four windows where the
planned arena has the bytes free at its step. Stated as IR before and after the pass, then run bit-exact on the
emulated Cortex-M4 against the golden model."""
from __future__ import annotations

import numpy as np

from conftest import argument, bit_exact_on_board, lowered
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import Budget
from mcugen.passes.grow_scratch import grow_scratch
from mcugen.passes.plan_memory import plan_memory
from tflite_writer import ModelSpec

DSP = frozenset({"dsp"})
CONSTS = {"w": np.arange(8 * 9 * 24).reshape(8, 3, 3, 24) % 7 - 3, "dw": np.arange(9 * 8).reshape(1, 3, 3, 8) % 9 - 4}


def _pointwise_then_depthwise() -> ModelSpec:
    """x [1, 48, 48, 24] -> 3x3 CONV_2D (8 channels, SAME) -> h -> 3x3 DEPTHWISE_CONV_2D (SAME, in place) -> y:
    the arena's peak is the conv's step (x and h, 73,728 B and the conv's scratch), where the depthwise layer's
    18,432 B of h leave room for the 20,032 B of four 48 x 48 windows."""
    m = ModelSpec()
    x = m.tensor("x", [1, 48, 48, 24], "int8", scale=0.5, zp=-3)
    w = m.const("w", CONSTS["w"], "int8", scale=0.05, zp=0)
    h = m.tensor("h", [1, 48, 48, 8], "int8", scale=0.5, zp=2)
    m.op("CONV_2D", [x, w, -1], [h], "Conv2DOptions", version=3, Padding="SAME", StrideH=1, StrideW=1,
         DilationHFactor=1, DilationWFactor=1)
    dw = m.const("dw", CONSTS["dw"], "int8", scale=0.05, zp=0)
    y = m.tensor("y", [1, 48, 48, 8], "int8", scale=1.0, zp=-1)
    m.op("DEPTHWISE_CONV_2D", [h, dw], [y], "DepthwiseConv2DOptions", version=3, Padding="SAME", StrideH=1,
         StrideW=1, DepthMultiplier=1, DilationHFactor=1, DilationWFactor=1)
    m.inputs, m.outputs = [x], [y]
    return m


TENSORS = ["graph m inputs=(t0) outputs=(t4)",  # _pointwise_then_depthwise's IR, {} where the arena puts tensors
           "tensors",
           "  t0 int8[1, 48, 48, 24] scale 0.5 zp -3{} input 'x'",
           "  t1 int8[8, 3, 3, 24] scale 0.05 zp 0 const 'w'",
           "  t2 int8[1, 48, 48, 8] scale 0.5 zp 2{} 'h'",
           "  t3 int8[1, 3, 3, 8] scale 0.05 zp 0 const 'dw'",
           "  t4 int8[1, 48, 48, 8] scale 1 zp -1{} output 'y'",
           "ops"]
CONV = "  0: t2 = CONV_2D(t0, t1, -) -> [1x48x48x8]"
DEPTHWISE = "  1: t4 = DEPTHWISE_CONV_2D(t2, t3) -> [1x48x48x8] with depth_multiplier=1"


def _planned(windows: str) -> str:
    return "\n".join([
        *TENSORS, CONV,
        "     call mcu_conv2d_s8_twin (kernel 3x3, stride 1x1, dilation 1x1, padding SAME (top 1, left 1), six "
        "positions at a time, a channel pair's int8 weights in a halfword a tap)",
        DEPTHWISE,
        "     call mcu_depthwise_conv2d_s8_x2 (kernel 3x3, stride 1x1, dilation 1x1, padding SAME (top 1, left 1), "
        f"depth multiplier 1, a channel at a time from its widened window ({windows}), two outputs per load, int8 "
        "weights paired once a channel, input offset folded into the bias, in place)",
        "arena 76536 B (largest first)"]).format(" @0", " @55296", " @55296")


def test_grow_scratch_gives_the_depthwise_layer_four_windows_where_the_arena_has_room():
    planned = plan_memory(lowered("\n".join([*TENSORS, CONV, DEPTHWISE]).format("", "", ""), DSP, consts=CONSTS))
    assert planned.text() == _planned("one filled at a time")
    assert grow_scratch(planned).text() == _planned("four channels' filled at once")


def test_four_windows_past_the_lowering_bound_run_bit_exact(tmp_path):
    """The same layer on the emulated M4, as its build compiles it (four windows): two samples bit-exact with
    the golden model."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_pointwise_then_depthwise().build())
    g = compile_model(path, features=DSP, budget=Budget(optimize="speed"))
    assert g.ops[1].call.kernel == "mcu_depthwise_conv2d_s8_x2" and argument(g.ops[1].call, "windows") == 4
    bit_exact_on_board(tmp_path / "run", _pointwise_then_depthwise(), seed=5)
