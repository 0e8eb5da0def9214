"""The DSP FULLY_CONNECTED kernels (runtime_c/dsp/mcu_fully_connected_*): twin words, int16-widened and int8
weights, bit-exact on QEMU over drawn shapes, and how their flash gives way to the board's."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import DSP, argument, bit_exact_on_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import Budget
from mcugen.kernels.conv import TWIN_WORTH
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import build_board
from mcugen.targets.target import Target
from mcugen.validation.compare import random_inputs
from mcugen.validation.validate import run_on_target
from tflite_writer import ModelSpec


def _fc_model(depth, units, filter_zp, seed, batch=2, act="NONE", per_channel=False, worth_twins=False):
    """x [batch, depth] -> FULLY_CONNECTED -> y [batch, units]; `worth_twins`: then a second FULLY_CONNECTED with
    TWIN_WORTH bytes of weights, the least a model needs for the first to run on twin words."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [batch, depth], "int8", scale=0.05, zp=-3)
    y = m.tensor("y", [batch, units], "int8", scale=0.2, zp=5)
    quant = dict(scale=[0.01 + 0.001 * u for u in range(units)], zp=[0] * units, axis=0) if per_channel else \
        dict(scale=0.01, zp=filter_zp)
    w = m.const("w", rng.integers(-128, 128, (units, depth)), "int8", **quant)
    b = m.const("b", rng.integers(-3000, 3000, units), "int32", scale=0.0005, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", version=4, FusedActivationFunction=act)
    if worth_twins:
        more = -(-TWIN_WORTH // units)
        z = m.tensor("z", [batch, more], "int8", scale=0.5, zp=1)
        w2 = m.const("w2", rng.integers(-128, 128, (more, units)), "int8", scale=0.01, zp=0)
        m.op("FULLY_CONNECTED", [y, w2, -1], [z], "FullyConnectedOptions", version=4)
        m.outputs = [z]
    return m


def test_a_per_tensor_fully_connected_keeps_one_group_of_channel_rows(tmp_path):
    """Every unit requantized alike (one weight scale, as most FULLY_CONNECTED layers have): the DSP kernels read
    one group of four channel rows for every group (mcu_fc_params.per_tensor), not a row a unit; a per-channel
    layer keeps a row a unit. The drawn cases below run both on QEMU."""
    for scales, shared in ((0.01, True), ([0.01 + 0.001 * u for u in range(13)], False)):
        rng = np.random.default_rng(1)
        m = ModelSpec()
        x = m.tensor("x", [1, 24], "int8", scale=0.05, zp=-3)
        y = m.tensor("y", [1, 13], "int8", scale=0.2, zp=5)
        quant = dict(scale=scales, zp=0) if shared else dict(scale=scales, zp=[0] * 13, axis=0)
        w = m.const("w", rng.integers(-128, 128, (13, 24)), "int8", **quant)
        m.inputs, m.outputs = [x], [y]
        m.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions", version=4)
        path = tmp_path / "fc.tflite"
        path.write_bytes(m.build())
        call = compile_model(path, features=DSP).ops[0].call
        params, channels = argument(call, "fc"), argument(call, "channels")
        assert (params.fields.get("per_tensor") == 1, len(channels.data)) == ((True, 4) if shared else (False, 13))


@pytest.mark.parametrize("kernel", ["mcu_fully_connected_s8_twin", "mcu_fully_connected_s8_w16",
                                    "mcu_fully_connected_s8_x4"])
@settings(max_examples=8, deadline=None)
@given(st.integers(1, 3), st.integers(1, 41), st.integers(1, 13), st.sampled_from([0, 0, 3]),
       st.sampled_from(["NONE", "RELU", "RELU6"]), st.booleans(), st.integers(0, 999))
@example(2, 63, 9, 0, "RELU", False, 1)  # 15 whole words: every remainder of the twin loop's turns, and a tail
@example(1, 64, 8, 0, "NONE", True, 2)  # 16 whole words: two of its turns of eight blocks
def test_dsp_fully_connected_on_qemu_for_drawn_shapes(tmp_path_factory, kernel, batch, depth, units, filter_zp, act,
                                                      per_channel, seed):
    """The DSP FULLY_CONNECTED kernels, on twin words (the default in a model with TWIN_WORTH bytes of them: a
    second layer brings them), int16-widened weights and int8 ones, bit-exact on QEMU: depths off the fours and
    eights (an odd number of words, a last partial word, the twin loop's blocks before its turns of eight), units
    off the fours, batches, filter offsets (which the twin kernel does not take),
    per-channel scales (its general loop), int8 weights to -128, clamping activations."""
    twin = kernel == "mcu_fully_connected_s8_twin"
    filter_zp = 0 if per_channel or twin else filter_zp
    bit_exact_on_board(tmp_path_factory.mktemp("fc"), _fc_model(depth, units, filter_zp, seed, batch, act, per_channel,
                                                                worth_twins=twin),
                       seed, samples=3, kernel=kernel, force=not twin)


def test_twin_words_hold_two_units_exactly_up_to_their_bound(tmp_path):
    """The twin kernel's high byte holds the odd unit's sum times 256 apart from the even unit's only while
    128 * sum |w| < 2^23: a filter at -128 everywhere against inputs at -128 on 511 values (sums of 8,372,224,
    which the input offset's share in the bias cancels; 17 units, 8 KB of weights: worth the kernel's code) runs on
    twin words, bit-exact on QEMU at the edge; on 512 (2^23 exactly) the layer is not taken and runs on the next
    kernel, still bit-exact."""
    board = load_board("mps2-an386")
    for depth, kernel in ((511, "mcu_fully_connected_s8_twin"), (512, "mcu_fully_connected_s8_w16")):
        m = ModelSpec()
        x = m.tensor("x", [1, depth], "int8", scale=0.05, zp=-128)
        y = m.tensor("y", [1, 17], "int8", scale=0.2, zp=0)
        w = m.const("w", np.full((17, depth), -128), "int8", scale=0.01, zp=0)
        m.inputs, m.outputs = [x], [y]
        m.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions", version=4)
        path = tmp_path / f"fc{depth}.tflite"
        path.write_bytes(m.build())
        g = compile_model(path, features=board.features, budget=Budget(optimize="speed"))
        assert g.ops[0].call.kernel == kernel
        program = build_board(g, board, OutDir(tmp_path / f"fw{depth}"), path.name).program
        inputs = [[np.full((1, depth), -128, dtype=np.int8)], *random_inputs(g, 2, seed=depth)]
        _, results = run_on_target(Target.of(board.id), program, g, inputs)
        assert all(r.passed for r in results), [r.outputs for r in results]


def test_widened_weights_give_way_where_the_flash_is_short(tmp_path):
    """A layer's int16-widened weights (mcu_fully_connected_s8_w16) are taken only while the constants
    fit the flash: short of room, the layer with the most constant bytes goes back to int8 weights
    first, then the next; a board's room is its flash less the code's allowance. (Filter offsets: without
    them the layers run on twin words, at their weights' size.)"""
    from mcugen.targets.boards import CODE_ALLOWANCE
    from mcugen.ir.lowering import const_bytes

    m = ModelSpec()
    rng = np.random.default_rng(3)
    x = m.tensor("x", [1, 96], "int8", scale=0.05, zp=-3)
    h = m.tensor("h", [1, 64], "int8", scale=0.2, zp=5)
    y = m.tensor("y", [1, 40], "int8", scale=0.2, zp=5)
    for a, b, n, depth, units in ((x, h, 0, 96, 64), (h, y, 1, 64, 40)):
        w = m.const(f"w{n}", rng.integers(-128, 128, (units, depth)), "int8", scale=0.01, zp=2)
        bias = m.const(f"b{n}", rng.integers(-3000, 3000, units), "int32", scale=0.0005, zp=0)
        m.op("FULLY_CONNECTED", [a, w, bias], [b], "FullyConnectedOptions", FusedActivationFunction="NONE")
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "fc2.tflite"
    path.write_bytes(m.build())

    def kernels(room):
        g = compile_model(path, features=DSP, budget=Budget(const_room=room, optimize="speed"))
        return [op.call.kernel for op in g.ops], sum(const_bytes(op.call) for op in g.ops)

    wide, everything = kernels(None)
    assert wide == ["mcu_fully_connected_s8_w16"] * 2
    # the first layer's weights (96 x 64) are the larger: it narrows first, and that is enough here
    assert kernels(everything - 1)[0] == ["mcu_fully_connected_s8_x4", "mcu_fully_connected_s8_w16"]
    narrow, least = kernels(0)
    assert narrow == ["mcu_fully_connected_s8_x4"] * 2 and least < everything - (96 * 64 + 64 * 40) + 1024
    nano = load_board("nano33")
    assert nano.budget().const_room == nano.flash.bytes - CODE_ALLOWANCE
