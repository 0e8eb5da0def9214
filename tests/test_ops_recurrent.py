"""Randomized one-op models that keep state: SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM over consecutive steps."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import argument, bit_exact_on_board
from single_op import ZP, check_steps, scale
from tflite_writer import ModelSpec


def _svdf(batch, size, rank, units, memory, state_type, s_in, z_in, s_wf, s_state, z_state, s_wt, s_out, z_out,
          seed) -> ModelSpec:
    rng = np.random.default_rng(seed)
    filters = units * rank
    z_state = z_state if state_type == "int8" else 0
    if state_type == "int16":
        s_state /= 256
    info = np.iinfo(state_type)
    m = ModelSpec()
    x = m.tensor("x", [batch, size], "int8", scale=s_in, zp=z_in)
    wf = m.const("weights_feature", rng.integers(-127, 128, (filters, size)), "int8", scale=s_wf, zp=0)
    wt = m.const("weights_time", rng.integers(info.min + 1, info.max + 1, (filters, memory)), state_type,
                 scale=s_wt, zp=0)
    bias_scale = float(np.float32(s_state) * np.float32(s_wt))
    b = m.const("bias", rng.integers(-5000, 5000, units), "int32", scale=bias_scale, zp=0)
    state = m.tensor("state", [batch, filters * memory], state_type, scale=s_state, zp=z_state, variable=True)
    y = m.tensor("y", [batch, units], "int8", scale=s_out, zp=z_out)
    m.inputs, m.outputs = [x], [y]
    m.op("SVDF", [x, wf, wt, b, state], [y], "SVDFOptions", Rank=rank, FusedActivationFunction="NONE")
    return m


SVDF_CASES = (st.integers(1, 2), st.integers(1, 12), st.integers(1, 3), st.integers(1, 4), st.integers(1, 6),
              st.sampled_from(["int8", "int16"]), scale(1e-3, 1.0), ZP, scale(1e-3, 0.1), scale(1e-3, 1.0), ZP,
              scale(1e-3, 0.1), scale(1e-3, 1.0), ZP, st.integers(0, 999))


@given(*SVDF_CASES)
def test_svdf(tmp_path_factory, batch, size, rank, units, memory, state_type, s_in, z_in, s_wf, s_state, z_state,
              s_wt, s_out, z_out, seed):
    """Six consecutive steps, so that the state (int8 or int16, like the time weights) is shifted and used."""
    m = _svdf(batch, size, rank, units, memory, state_type, s_in, z_in, s_wf, s_state, z_state, s_wt, s_out, z_out,
              seed)
    check_steps(tmp_path_factory.mktemp("svdf"), m, seed)


@settings(max_examples=8, deadline=None)
@given(*SVDF_CASES)
def test_svdf_dsp_kernel_on_qemu(tmp_path_factory, batch, size, rank, units, memory, state_type, s_in, z_in, s_wf,
                                 s_state, z_state, s_wt, s_out, z_out, seed):
    """mcu_svdf_s8_x4 (int8 state; filters and input sizes not multiples of 4) bit-exact with the golden
    model on the emulated Cortex-M4 over six invocations; int16 states keep the reference kernel."""
    m = _svdf(batch, size, rank, units, memory, state_type, s_in, z_in, s_wf, s_state, z_state, s_wt, s_out, z_out,
              seed)
    bit_exact_on_board(tmp_path_factory.mktemp("svdf_dsp"), m, seed, samples=6,
                        kernel="mcu_svdf_s8_x4" if state_type == "int8" else "mcu_svdf_s8")


@settings(max_examples=6, deadline=None)
@given(*SVDF_CASES)
def test_svdf_helium_kernel_on_qemu(tmp_path_factory, batch, size, rank, units, memory, state_type, s_in, z_in, s_wf,
                                    s_state, z_state, s_wt, s_out, z_out, seed):
    """mcu_svdf_s8_mve (int8 state) bit-exact with the golden model on the emulated Cortex-M55 over six
    invocations; int16 states keep the reference kernel."""
    m = _svdf(batch, size, rank, units, memory, state_type, s_in, z_in, s_wf, s_state, z_state, s_wt, s_out, z_out,
              seed)
    bit_exact_on_board(tmp_path_factory.mktemp("svdf_mve"), m, seed, samples=6, board="mps3-an547",
                        kernel="mcu_svdf_s8_mve" if state_type == "int8" else "mcu_svdf_s8")


def _lstm(batch, steps, size, units, time_major, clip, cell_power, s_in, z_in, s_h, z_h, s_w, seed) -> ModelSpec:
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    major = [steps, batch] if time_major else [batch, steps]
    x = m.tensor("x", [*major, size], "int8", scale=s_in, zp=z_in)
    weights = [m.const(f"w{k}", rng.integers(-127, 128, (units, size if k < 4 else units)), "int8",
                       scale=s_w * (1 + k / 8), zp=0) for k in range(8)]
    biases = [m.const(f"b{k}", rng.integers(-20000, 20000, units), "int32", scale=s_in * s_w, zp=0) for k in range(4)]
    hidden = m.tensor("hidden", [batch, units], "int8", scale=s_h, zp=z_h, variable=True)
    cell = m.tensor("cell", [batch, units], "int16", scale=2.0 ** cell_power, zp=0, variable=True)
    y = m.tensor("y", [*major, units], "int8", scale=s_h, zp=z_h)
    m.inputs, m.outputs = [x], [y]
    m.op("UNIDIRECTIONAL_SEQUENCE_LSTM", [x, *weights, -1, -1, -1, *biases, -1, -1, hidden, cell, -1, -1, -1, -1],
         [y], "UnidirectionalSequenceLSTMOptions", FusedActivationFunction="TANH", CellClip=clip,
         TimeMajor=time_major)
    return m


LSTM_CASES = (st.integers(1, 2), st.integers(1, 4), st.integers(1, 8), st.integers(1, 6), st.booleans(),
              st.sampled_from([0.0, 0.5, 3.0]), st.integers(-15, -9),
              scale(1e-3, 0.1), ZP, scale(1e-3, 0.1), ZP, scale(1e-3, 0.05), st.integers(0, 999))


@given(*LSTM_CASES)
def test_unidirectional_sequence_lstm(tmp_path_factory, batch, steps, size, units, time_major, clip,
                                      cell_power, s_in, z_in, s_h, z_h, s_w, seed):
    """TFLM's integer LSTM cell (8x8 -> 16) over four invocations of `steps` time steps each, so that
    both states carry over; power-of-two cell scales from 2^-15 to 2^-9 (all tanh input scalings)."""
    m = _lstm(batch, steps, size, units, time_major, clip, cell_power, s_in, z_in, s_h, z_h, s_w, seed)
    check_steps(tmp_path_factory.mktemp("lstm"), m, seed, steps=4)


@pytest.mark.parametrize("kernel", ["mcu_lstm_s8_w16", "mcu_lstm_s8_x4"])
@settings(max_examples=6, deadline=None)
@given(*LSTM_CASES)
def test_lstm_dsp_kernel_on_qemu(tmp_path_factory, kernel, batch, steps, size, units, time_major, clip, cell_power,
                                 s_in, z_in, s_h, z_h, s_w, seed):
    """The DSP LSTMs (gates four units at a time on int16-widened weights, the default, or int8 ones;
    units and input sizes not multiples of 4) bit-exact with the golden model on the emulated Cortex-M4
    over four invocations, both states carried over."""
    m = _lstm(batch, steps, size, units, time_major, clip, cell_power, s_in, z_in, s_h, z_h, s_w, seed)
    bit_exact_on_board(tmp_path_factory.mktemp("lstm_dsp"), m, seed, samples=4, kernel=kernel,
                       force=kernel != "mcu_lstm_s8_w16")


@pytest.mark.parametrize("kernel", ["mcu_lstm_s8_w16", "mcu_lstm_s8_x4"])
def test_lstm_dsp_kernel_where_the_short_requantization_is_not_exact(tmp_path_factory, kernel):
    """Gates whose rescale is a left shift of 2^16 and more (large input and weight scales): the short
    requantization could overflow, so mcugen does not choose it, and the general form is bit-exact too."""
    from mcugen.codegen.pipeline import compile_model

    m = _lstm(2, 3, 7, 5, False, 0.0, -11, 40.0, 3, 0.05, -2, 30.0, 7)
    tmp = tmp_path_factory.mktemp("lstm_long")
    (tmp / "m.tflite").write_bytes(m.build())
    params = argument(compile_model(tmp / "m.tflite", features=frozenset({"dsp"})).ops[0].call, "lstm")
    assert params.fields["short_requantize"] == 0
    bit_exact_on_board(tmp, m, 7, samples=4, kernel=kernel, force=kernel != "mcu_lstm_s8_w16")


@settings(max_examples=8, deadline=None)
@given(*LSTM_CASES)
def test_lstm_mve_kernel_on_qemu(tmp_path_factory, batch, steps, size, units, time_major, clip, cell_power, s_in,
                                 z_in, s_h, z_h, s_w, seed):
    """mcu_lstm_s8_mve (four units per vector: gates, table lookups by gathers, state updates; units and
    input sizes off the fours and sixteens) bit-exact on the emulated Cortex-M55, both states carried over."""
    m = _lstm(batch, steps, size, units, time_major, clip, cell_power, s_in, z_in, s_h, z_h, s_w, seed)
    bit_exact_on_board(tmp_path_factory.mktemp("lstm_mve"), m, seed, samples=4, kernel="mcu_lstm_s8_mve",
                       board="mps3-an547")
