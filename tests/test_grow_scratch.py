"""passes/grow_scratch.py: a channel-at-a-time depthwise layer gets the scratch for four windows where the
planned arena has the bytes free at its step. Stated as IR before and after the pass, then run bit-exact on the
emulated Cortex-M4 against the golden model."""
from __future__ import annotations

import difflib

import numpy as np

from conftest import bit_exact_on_board
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import Budget
from tflite_writer import ModelSpec

DSP = frozenset({"dsp"})


def _pointwise_then_depthwise() -> ModelSpec:
    """x [1, 48, 48, 24] -> 3x3 CONV_2D (8 channels, SAME) -> h -> 3x3 DEPTHWISE_CONV_2D (SAME, in place) -> y:
    the arena's peak is the conv's step (x and h, 73,728 B and the conv's scratch), where the depthwise layer's
    18,432 B of h leave room for the 20,032 B of four 48 x 48 windows."""
    m = ModelSpec()
    x = m.tensor("x", [1, 48, 48, 24], "int8", scale=0.5, zp=-3)
    w = m.const("w", np.arange(8 * 9 * 24).reshape(8, 3, 3, 24) % 7 - 3, "int8", scale=0.05, zp=0)
    h = m.tensor("h", [1, 48, 48, 8], "int8", scale=0.5, zp=2)
    m.op("CONV_2D", [x, w, -1], [h], "Conv2DOptions", version=3, Padding="SAME", StrideH=1, StrideW=1,
         DilationHFactor=1, DilationWFactor=1)
    dw = m.const("dw", np.arange(9 * 8).reshape(1, 3, 3, 8) % 9 - 4, "int8", scale=0.05, zp=0)
    y = m.tensor("y", [1, 48, 48, 8], "int8", scale=1.0, zp=-1)
    m.op("DEPTHWISE_CONV_2D", [h, dw], [y], "DepthwiseConv2DOptions", version=3, Padding="SAME", StrideH=1,
         StrideW=1, DepthMultiplier=1, DilationHFactor=1, DilationWFactor=1)
    m.inputs, m.outputs = [x], [y]
    return m


def test_grow_scratch_gives_the_depthwise_layer_four_windows_where_the_arena_has_room(ir_of):
    ir = ir_of(_pointwise_then_depthwise(), features=DSP)
    changed = [(a[2:], b[2:]) for a, b in zip(*[[line for line in difflib.ndiff(ir["plan_memory"].splitlines(),
                                                                                 ir["grow_scratch"].splitlines())
                                                 if line.startswith(sign)] for sign in ("- ", "+ ")])]
    note = ("     call mcu_depthwise_conv2d_s8_x2 (kernel 3x3, stride 1x1, dilation 1x1, padding SAME (top 1, left 1), "
            "depth multiplier 1, a channel at a time from its widened window ({}), two outputs per load, int8 weights "
            "paired once a channel, input offset folded into the bias, in place)")
    assert changed == [(note.format("one filled at a time"), note.format("four channels' filled at once"))]
    assert "arena 76536 B" in ir["plan_memory"] and "arena 76536 B" in ir["grow_scratch"]


def test_four_windows_past_the_lowering_bound_run_bit_exact(tmp_path):
    """The same layer on the emulated M4, as its build compiles it (four windows): two samples bit-exact with
    the golden model."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_pointwise_then_depthwise().build())
    g = compile_model(path, features=DSP, budget=Budget(optimize="speed"))
    assert g.ops[1].call.kernel == "mcu_depthwise_conv2d_s8_x2" and g.ops[1].call.args[-1] == 4
    bit_exact_on_board(tmp_path / "run", _pointwise_then_depthwise(), seed=5)
