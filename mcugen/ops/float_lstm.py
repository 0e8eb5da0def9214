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

With int8 weights (a dynamic-range model) it is LiteRT's LstmStepHybrid (TFLM runs none): each step, unless
all of it is zero, the input's batch rows and then the hidden state's are quantized as a hybrid
FULLY_CONNECTED's (ops/_hybrid.py); each gate is its bias, plus the input's and then the hidden state's
products (float(dot - row sum x zero point) x (factor x scale), one float32 product and one sum each); the
logistic and tanh are Eigen's (ops/_eigen.py: LiteRT's vectorized ones, which it applies a gate at a time
over aligned whole packets only where the units are a multiple of 8, the case mcugen takes); c = f * c, then
c + g * i, clipped as above; h = o * tanh(c).
"""
from __future__ import annotations

from collections.abc import Mapping

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, State, Struct, reads, writes
from mcugen.ir.options import UnidirectionalSequenceLSTMOptions
from mcugen.ops import Outputs, register
from mcugen.ops._eigen import eigen_logistic, eigen_tanh
from mcugen.ops._float import F32, FLT_MAX
from mcugen.ops._hybrid import HybridQuant, quantize_rows
from mcugen.ops.float_fully_connected import dense
from mcugen.ops.float_unary import FUNCTIONS
from mcugen.ops.lstm import (BIASES, CELL, GATES, HIDDEN, INPUT_WEIGHTS, RECURRENT_WEIGHTS, Lstm, lstm_sizes,
                              structure_problems)

SIGMOID, TANH = FUNCTIONS["LOGISTIC"], FUNCTIONS["TANH"]
WEIGHT_TYPES: tuple[str, ...] = ("float32", "int8")  # float weights, or int8 ones (dynamic range)


@dataclass(frozen=True)
class FloatLstmData:
    cell_clip: float  # as float32; 0: none


@dataclass(frozen=True)
class HybridLstmData:
    cell_clip: float  # as float32; 0: none
    inputs: tuple[HybridQuant, ...]  # each gate's input weights' scale and row sums, GATES order
    recurrents: tuple[HybridQuant, ...]  # its recurrent weights'


def _clamp(x: np.ndarray) -> np.ndarray:
    """TFLM's ActivationFunctionWithMinMax over [lowest, max]: infinities to the largest floats."""
    return np.where(x < F32(-FLT_MAX), F32(-FLT_MAX), np.where(F32(FLT_MAX) < x, F32(FLT_MAX), x))


@register("UNIDIRECTIONAL_SEQUENCE_LSTM", dtype="float32")
class FloatLstm(Lstm):
    parameters: Mapping[int, tuple[str, ...]] = {
        **{k: WEIGHT_TYPES for k in range(1, 9)}, **{k: ("float32",) for k in range(12, 16)},
        HIDDEN: ("float32",), CELL: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = structure_problems(g, op)
        weights = [op.input(g, k) for k in range(INPUT_WEIGHTS, RECURRENT_WEIGHTS + 4)]
        if len({w.dtype for w in weights}) > 1:
            return [*problems, "weights of two types: LiteRT's LSTM reads all eight as float32 or all as int8"]
        if weights[0].dtype == "float32":
            return problems
        if any(w.quant is None or w.q.per_channel or w.q.zp != 0 for w in weights):
            problems.append("a dynamic-range LSTM's int8 weights need one scale each and zero point 0 (LiteRT's "
                            "kernel reads one scale)")
        units = lstm_sizes(g, op)[3]
        if units % 8:
            problems.append(f"a dynamic-range LSTM of {units} units: LiteRT's logistic and tanh take Eigen's "
                            "packet or scalar path by where its buffers lie, which mcugen reproduces for a "
                            "multiple of 8 units only")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        clip = float(F32(op.options_as(UnidirectionalSequenceLSTMOptions).cell_clip))
        if op.input(g, INPUT_WEIGHTS).dtype != "int8":
            return FloatLstmData(clip)

        def quant(k: int) -> HybridQuant:
            w = op.input(g, k)
            return HybridQuant.of(op, w.q.scale, w.values)
        return HybridLstmData(clip, tuple(quant(INPUT_WEIGHTS + k) for k in range(4)),
                              tuple(quant(RECURRENT_WEIGHTS + k) for k in range(4)))

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        if xs[INPUT_WEIGHTS].dtype == np.int8:
            return _hybrid(g, op, xs, state)
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
        if op.input(g, INPUT_WEIGHTS).dtype == "int8":
            return _hybrid_call(g, op)
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


def _clip(c: np.ndarray, clip: float) -> np.ndarray:
    """std::max(std::min(clip, c), -clip) (a NaN becomes +clip)."""
    low = np.where(c < F32(clip), c, F32(clip))
    return np.where(low < -F32(clip), -F32(clip), low).astype(F32)


def _hybrid(g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> np.ndarray:
    """LiteRT's LstmStepHybrid, step by step (the module's docstring)."""
    p = op.prepared(HybridLstmData)
    batches, steps, _, units, major = lstm_sizes(g, op)
    hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]
    h, c = state[hk].reshape(batches, units), state[ck].reshape(batches, units)
    sequence = xs[0] if major else xs[0].transpose(1, 0, 2)  # [steps, batches, size]
    asymmetric = p.inputs[0].asymmetric
    rows = []
    with np.errstate(all="ignore"):
        for t in range(steps):
            # each operand unless all of it is zero: (its weights' quantization, the rows, factors, offsets)
            operands = [(quants, w, quantize_rows(v, asymmetric)) for quants, w, v in
                        ((p.inputs, INPUT_WEIGHTS, sequence[t]), (p.recurrents, RECURRENT_WEIGHTS, h)) if v.any()]
            gates = []
            for k in range(4):
                gate = np.broadcast_to(xs[BIASES + k].astype(F32), (batches, units)).astype(F32)
                for quants, w, (values, factors, offsets) in operands:
                    dots = values.astype(np.int64) @ xs[w + k].astype(np.int64).T
                    gate = quants[k].accumulate(gate, dots, factors, offsets)
                gates.append(gate)
            i, f, cell, o = (eigen_tanh(v) if name == "cell" else eigen_logistic(v) for name, v in zip(GATES, gates))
            c = ((f * c).astype(F32) + (cell * i).astype(F32)).astype(F32)
            if p.cell_clip > 0:
                c = _clip(c, p.cell_clip)
            h = (o * eigen_tanh(c)).astype(F32)
            rows.append(h)
    state[hk], state[ck] = h.reshape(state[hk].shape), c.reshape(state[ck].shape)
    out = np.stack(rows)
    return out if major else out.transpose(1, 0, 2)


def _hybrid_call(g: Graph, op: Op) -> Call:
    p = op.prepared(HybridLstmData)
    batches, steps, size, units, major = lstm_sizes(g, op)
    asymmetric = p.inputs[0].asymmetric

    def gate(k: int, name: str) -> dict[str, object]:
        w, r = op.input(g, INPUT_WEIGHTS + k), op.input(g, RECURRENT_WEIGHTS + k)
        sums = (dict(input_row_sums=Const(f"{name}_input_row_sums", p.inputs[k].row_sums),
                     recurrent_row_sums=Const(f"{name}_recurrent_row_sums", p.recurrents[k].row_sums))
                if asymmetric else dict(input_row_sums=None, recurrent_row_sums=None))
        return dict(input_weights=Const(f"{name}_input_weights", w.values),
                    recurrent_weights=Const(f"{name}_recurrent_weights", r.values), **sums,
                    bias=Const(f"{name}_bias", op.input(g, BIASES + k).values),
                    input_scale=float(p.inputs[k].scales[0]), recurrent_scale=float(p.recurrents[k].scales[0]))

    params = Struct("mcu_lstm_hybrid_params", "params", dict(
        batches=batches, time_steps=steps, input_size=size, state_size=units, time_major=int(major),
        asymmetric=int(asymmetric), **{f"{name}_gate": gate(k, name) for k, name in enumerate(GATES)},
        cell_clip=p.cell_clip))
    hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]
    return Call("mcu_lstm_hybrid_s8", (params, reads(op), State(hk, writable=True), State(ck, writable=True),
                                       Scratch(16 * batches + batches * (size + units), "int8_t"), writes(op)),
                note=f"{steps} steps of {batches} x {size} -> {units} units, {'time' if major else 'batch'} major, "
                     f"cell clip {p.cell_clip:g}, int8 weights, inputs quantized "
                     + ("asymmetrically" if asymmetric else "symmetrically") + " per batch",
                extra_kernels=("mcu_hybrid_quantize_row", "mcu_logistic_eigen_f32", "mcu_tanh_eigen_f32"))
