"""UNIDIRECTIONAL_SEQUENCE_LSTM in float32: TFLM's lstm_eval with float activations, weights and
states (LstmStep<float, float, float, float>).

At each time step, for each batch row, with x the step's input and h the hidden state before it:
- each gate is FC(x, its weights, its bias) + FC(h, its recurrent weights, no bias): TFLM's float
  FULLY_CONNECTED sums (from 0.0f in input order, the bias or 0.0f added, clamped to +-FLT_MAX),
  added, then the logistic (forget, input, output gates) or tanh (the cell gate: the op's activation,
  which a file can only give as TANH of those TFLM takes), as TFLM's float LOGISTIC and TANH compute them;
- c = clamp(f * c) + clamp(i * g) (each product clamped to +-FLT_MAX as TFLM's float MUL does), then,
  with a positive cell_clip, max(min(clip, c), -clip) in std::min/std::max's order (a NaN becomes +clip);
- h = clamp(tanh(c) * o), also the step's output row.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, State, Struct, reads, writes
from mcugen.ir.options import UnidirectionalSequenceLSTMOptions
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FLT_MAX
from mcugen.ops.float_fully_connected import dense
from mcugen.ops.float_unary import FUNCTIONS
from mcugen.ops.lstm import (BIASES, CELL, GATES, HIDDEN, INPUT_WEIGHTS, RECURRENT_WEIGHTS, Lstm, lstm_sizes,
                              structure_problems)

SIGMOID, TANH = FUNCTIONS["LOGISTIC"], FUNCTIONS["TANH"]


@dataclass(frozen=True)
class FloatLstmData:
    cell_clip: float  # as float32; 0: none


def _clamp(x: np.ndarray) -> np.ndarray:
    """TFLM's ActivationFunctionWithMinMax over [lowest, max]: infinities to the largest floats."""
    return np.where(x < F32(-FLT_MAX), F32(-FLT_MAX), np.where(F32(FLT_MAX) < x, F32(FLT_MAX), x))


@register("UNIDIRECTIONAL_SEQUENCE_LSTM", dtype="float32")
class FloatLstm(Lstm):
    parameters = {**{k: ("float32",) for k in range(1, 9)}, **{k: ("float32",) for k in range(12, 16)},
                  HIDDEN: ("float32",), CELL: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        return structure_problems(g, op)

    def prepare(self, g: Graph, op: Op) -> object:
        return FloatLstmData(float(F32(op.options_as(UnidirectionalSequenceLSTMOptions).cell_clip)))

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        p = op.prepared(FloatLstmData)
        batches, steps, _, units, major = lstm_sizes(g, op)
        hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]
        h, c = state[hk].reshape(batches, units), state[ck].reshape(batches, units)
        sequence = xs[0] if major else xs[0].transpose(1, 0, 2)  # [steps, batches, size]
        clip = F32(p.cell_clip)
        rows = []
        with np.errstate(all="ignore"):
            for t in range(steps):
                def gate(name: str) -> np.ndarray:
                    k = GATES.index(name)
                    total = (_clamp(dense(sequence[t], xs[INPUT_WEIGHTS + k], xs[BIASES + k]))
                             + _clamp(dense(h, xs[RECURRENT_WEIGHTS + k], None)))
                    return (TANH if name == "cell" else SIGMOID)(total, 0.0).astype(F32)

                f, i, cell = gate("forget"), gate("input"), gate("cell")
                c = (_clamp(f * c) + _clamp(i * cell)).astype(F32)
                if p.cell_clip > 0:
                    low = np.where(c < clip, c, clip)  # std::min(clip, c)
                    c = np.where(low < -clip, -clip, low)  # std::max(that, -clip)
                h = _clamp(TANH(c, 0.0) * gate("output")).astype(F32)
                rows.append(h)
        state[hk], state[ck] = h.reshape(state[hk].shape), c.reshape(state[ck].shape)
        out = np.stack(rows)  # [steps, batches, units]
        return out if major else out.transpose(1, 0, 2)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(FloatLstmData)
        batches, steps, size, units, major = lstm_sizes(g, op)
        hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]

        def gate(k: int, name: str) -> dict[str, object]:
            return dict(input_weights=Const(f"{name}_input_weights", op.input(g, INPUT_WEIGHTS + k).values),
                        recurrent_weights=Const(f"{name}_recurrent_weights", op.input(g, RECURRENT_WEIGHTS + k).values),
                        bias=Const(f"{name}_bias", op.input(g, BIASES + k).values))

        params = Struct("mcu_lstm_f32_params", "params", dict(
            batches=batches, time_steps=steps, input_size=size, state_size=units, time_major=int(major),
            **{f"{name}_gate": gate(k, name) for k, name in enumerate(GATES)},
            cell_clip=p.cell_clip))
        return Call("mcu_lstm_f32", (params, reads(op), State(hk, writable=True), State(ck, writable=True),
                                     writes(op)),
                    note=f"{steps} steps of {batches} x {size} -> {units} units, {'time' if major else 'batch'} "
                         f"major, cell clip {p.cell_clip:g}",
                    extra_kernels=("mcu_expf", "mcu_expm1f", "mcu_tanhf"))
