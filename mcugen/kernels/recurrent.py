"""The recurrent kernels: an LSTM's gates and an SVDF's feature FC four units (filters) at a time, on the DSP
extension or Helium. UNIDIRECTIONAL_SEQUENCE_LSTM's and SVDF's tables."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, State, reads, writes
from mcugen.kernels.layouts import interleave4, widen4
from mcugen.kernels.variant import Build, Variant, always, when
from mcugen.ops._quant import fold_input_offset, folded_bias
from mcugen.ops.lstm import CELL, HIDDEN, lstm_note, lstm_params, lstm_sizes
from mcugen.ops.svdf import STATE, SvdfData, svdf_note, svdf_params


def rows4(w: np.ndarray) -> np.ndarray:
    """Rows padded with zeros to a multiple of 4 (Helium's four units or filters per vector)."""
    return np.pad(w, ((0, -len(w) % 4), (0, 0)))


def lstm_dsp(kernel: str, layout: Callable[[np.ndarray], np.ndarray], how: str) -> Build:
    def build(g: Graph, op: Op) -> Call:
        units = lstm_sizes(g, op)[3]
        hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]
        return Call(kernel, (lstm_params(g, op, layout, units_of=4), reads(op), State(hk, writable=True),
                             State(ck, writable=True), writes(op), Scratch(4 * ((units + 3) // 4 * 4) * 2)),
                    note=lstm_note(g, op) + ", gates four units at a time" + how)
    return build


def lstm_mve(g: Graph, op: Op) -> Call:
    hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]
    return Call("mcu_lstm_s8_mve", (lstm_params(g, op, rows4, units_of=4), reads(op), State(hk, writable=True),
                                    State(ck, writable=True), writes(op)),
                note=lstm_note(g, op) + ", Helium: four units per vector")


def svdf_folded(kernel: str, layout: Callable[[np.ndarray], np.ndarray], how: str) -> Build:
    """int8 state on an optimized kernel: the feature weights as `layout` lays them out (four filters at a
    time), the offsets folded into biases."""
    def build(g: Graph, op: Op) -> Call:
        p = op.prepared(SvdfData)
        wf, wt, b = (op.input(g, k) for k in range(1, 4))
        filters = wf.shape[0]
        time_sums = wt.values.astype(np.int64).sum(axis=1).reshape(-1, p.rank).sum(axis=1)  # per unit
        return Call(kernel, (
            svdf_params(g, op), reads(op), Const("weights_feature", layout(wf.values)),
            Const("feature_bias", np.pad(folded_bias(wf.values, None, p.input_zp), (0, -filters % 4))),
            Const("weights_time", wt.values), Const("bias_folded", fold_input_offset(b.values, time_sums, p.state_zp)),
            State(op.facts.state[STATE], writable=True), writes(op)),
            note=svdf_note(g, op) + f", {how}, offsets folded into the biases")
    return build


@when
def int8_state(g: Graph, op: Op) -> bool:
    return op.input(g, STATE).dtype == "int8"


TABLES = {
    "UNIDIRECTIONAL_SEQUENCE_LSTM": (
        Variant("mcu_lstm_s8_mve", "mve", always, lstm_mve),
        Variant("mcu_lstm_s8_w16", "dsp", always,
                lstm_dsp("mcu_lstm_s8_w16", widen4, ", weights widened to int16 pairs"), widens=True),
        Variant("mcu_lstm_s8_x4", "dsp", always, lstm_dsp("mcu_lstm_s8_x4", interleave4, "")),
    ),
    "SVDF": (
        Variant("mcu_svdf_s8_mve", "mve", int8_state,
                svdf_folded("mcu_svdf_s8_mve", rows4,
                            "Helium: the feature FC four filters at a time, 16 products per instruction")),
        Variant("mcu_svdf_s8_x4", "dsp", int8_state,
                svdf_folded("mcu_svdf_s8_x4", interleave4, "the feature FC four filters at a time")),
    ),
}
