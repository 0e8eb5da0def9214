"""UNIDIRECTIONAL_SEQUENCE_LSTM with int8 activations: TFLM's integer LSTM (lstm_eval.h), 8x8 -> 16.

The hidden state (input 18, int8, the activations' quantization) and the cell state (input 19,
int16, a power-of-two scale) are variable tensors the kernel updates in place. At each time step,
for each batch row, with x the step's input and h the hidden state before the step:
- each gate is FC(x) + FC(h), both int8 x int8 -> int16 at scale 2^-12 (the input FC adds the
  gate's int32 bias; the recurrent one has none), rescaled with the double rounding and clamped
  to int16, added with int16 saturation, then the int16 sigmoid (forget, input, output gates) or
  tanh (cell gate: the op's activation, which TFLM takes only as TANH), giving Q0.15
  (mcugen.numerics.sigmoid16);
- c = sat16(f * c >> 15 rescaled) + sat16(i * g rescaled to the cell scale), saturated, then clipped
  to +-cell_clip (quantized, when the option is positive);
- h = tanh(c) * o rescaled to the hidden state's scale plus its zero point, clamped to int8; it is
  also the step's output row.
Each rescale is TFLM's MultiplyByQuantizedMultiplier of a product of scales made in double. The
tanh of the cell state scales its input by 3 * 2^(15 + log2(cell scale) - 3) (TFLM's Tanh helper).
Peepholes, projection, layer norm and CIFG are not in TFLM's kernel: a model using them is refused,
as TFLM refuses it.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, State, Struct, reads, writes
from mcugen.ir.options import UnidirectionalSequenceLSTMOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import Multiplier, folded_bias
from mcugen.numerics.requant import requantize, wrap_int32
from mcugen.numerics.sigmoid16 import SIGMOID_TABLE, sigmoid_s16, tanh_s16

HIDDEN, CELL = 18, 19
GATES = ("input", "forget", "cell", "output")  # TFLM's order of the weights and biases
INPUT_WEIGHTS, RECURRENT_WEIGHTS, BIASES = 1, 5, 12
ABSENT = (9, 10, 11, 16, 17, 20, 21, 22, 23)  # peepholes, projection, layer norm
GATE_SCALE = 2.0 ** -12  # the FC outputs: Q3.12
UNIT = 2.0 ** -15  # the gates' outputs: Q0.15


# The cell state's tanh scales by 3 << (15 + p - 3) for a scale 2^p, or shifts right by -(15 + p - 3)
# with a multiplier of 3: no int32 overflow and no shift past 30 for these p.
MIN_CELL_POWER, MAX_CELL_POWER = -42, 2


def _cell_power(scale: float) -> int:
    """TFLM CheckedLog2: log2 of the scale, rounded (a scale that is no power of two is not refused)."""
    return int(round(math.log(float(scale)) / math.log(2.0)))


@dataclass(frozen=True)
class Gate:
    """One gate's rescales of its input and recurrent matmuls onto Q3.12."""

    input: Multiplier
    recurrent: Multiplier


@dataclass(frozen=True)
class LstmData:
    gates: tuple[Gate, ...]  # in GATES order
    input_zp: int
    hidden_zp: int
    forget_cell: Multiplier  # forget gate x cell -> cell
    input_cell: Multiplier  # input gate x cell gate -> cell
    hidden: Multiplier  # output gate x tanh(cell) -> hidden
    cell_tanh: tuple[int, int]  # tanh_s16's input multiplier and shift for the cell state's scale
    cell_clip: int  # 0: none


def lstm_sizes(g: Graph, op: Op) -> tuple[int, int, int, int, bool]:
    """batches, time steps, input size, units, time major."""
    x = op.input(g, 0)
    major = op.options_as(UnidirectionalSequenceLSTMOptions).time_major
    batches, steps = (x.shape[1], x.shape[0]) if major else (x.shape[0], x.shape[1])
    return batches, steps, x.shape[2], op.input(g, RECURRENT_WEIGHTS).shape[1], major


def _sat16(x: np.ndarray) -> np.ndarray:
    return np.clip(x, -32768, 32767)


def structure_problems(g: Graph, op: Op) -> list[str]:
    """What TFLM's LSTM (integer or float) takes: no peepholes, projection or layer norm, variable
    states, a tanh cell (of the activations a file can name, the one its kernel computes)."""
    problems = []
    used = [k for k in ABSENT if op.optional_input(g, k) is not None]
    if used:
        problems.append(f"uses inputs {used} (peepholes, projection or layer norm): TFLM's LSTM has none")
    missing = [k for k in (HIDDEN, CELL) if k not in op.facts.state]
    if missing:
        problems.append(f"input {missing[0]} is not a variable tensor: TFLM's Prepare requires one")
    if op.activation != "TANH":
        problems.append(f"cell activation {op.activation}: TFLM's LSTM takes TANH only")
    return problems


@register("UNIDIRECTIONAL_SEQUENCE_LSTM")
class Lstm(OpDef):
    arity = ((24, 24), (1, 1))
    parameters: Mapping[int, tuple[str, ...]] = {**{k: ("int8",) for k in range(1, 9)},
                                                 **{k: ("int32",) for k in range(12, 16)},
                                                 HIDDEN: ("int8",), CELL: ("int16",)}
    stateful = True
    state_inputs = (HIDDEN, CELL)
    optional_inputs = ABSENT

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x = op.input(g, 0)
        present = [op.optional_input(g, k) for k in (*range(1, 9), *range(12, 16), HIDDEN, CELL)]
        if len(x.shape) != 3 or any(t is None for t in present):
            raise ValueError("the LSTM takes a 3-D input, eight weights, four biases and two states")
        batches, _, size, state, _ = lstm_sizes(g, op)
        hidden = op.input(g, HIDDEN).shape
        if len(hidden) < 2 or hidden[1] != state:  # TFLM takes the units from the hidden state's dimension 1
            raise ValueError(f"hidden state {list(hidden)}: TFLM reads its {state} units from dimension 1")
        for k in range(INPUT_WEIGHTS, INPUT_WEIGHTS + 4):
            if op.input(g, k).shape != (state, size):
                raise ValueError(f"input weights {list(op.input(g, k).shape)}, expected {[state, size]}")
        for k in range(RECURRENT_WEIGHTS, RECURRENT_WEIGHTS + 4):
            if op.input(g, k).shape != (state, state):
                raise ValueError(f"recurrent weights {list(op.input(g, k).shape)}, expected {[state, state]}")
        for k in range(BIASES, BIASES + 4):
            if op.input(g, k).shape != (state,):
                raise ValueError(f"bias {list(op.input(g, k).shape)}, expected {[state]}")
        for k in (HIDDEN, CELL):
            if math.prod(op.input(g, k).shape) != batches * state:
                raise ValueError(f"state {list(op.input(g, k).shape)} holds not {batches} x {state} values")
        return (*x.shape[:2], state)

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = structure_problems(g, op)
        weights = [op.input(g, k) for k in range(1, 9)]
        if any(w.quant is None or w.q.per_channel or w.q.zp != 0 for w in weights):
            problems.append("weights must be quantized per tensor with zero point 0")
        cell = op.input(g, CELL)
        if cell.quant is not None and not MIN_CELL_POWER <= _cell_power(cell.q.s) <= MAX_CELL_POWER:
            problems.append(f"cell state scale {cell.q.s:g}: TFLM's tanh of the cell state shifts or overflows "
                            f"int32 beyond what C defines (2^{MIN_CELL_POWER} to 2^{MAX_CELL_POWER} works)")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        x, h, c = op.input(g, 0), op.input(g, HIDDEN), op.input(g, CELL)
        s_cell = float(np.float32(c.q.s))
        gates = tuple(Gate(Multiplier.of(float(x.q.s) * float(op.input(g, INPUT_WEIGHTS + k).q.s) / GATE_SCALE),
                           Multiplier.of(float(h.q.s) * float(op.input(g, RECURRENT_WEIGHTS + k).q.s) / GATE_SCALE))
                      for k in range(len(GATES)))
        shift = 15 + _cell_power(s_cell) - 3
        clip = float(np.float32(op.options_as(UnidirectionalSequenceLSTMOptions).cell_clip))
        return LstmData(gates, x.q.zp, h.q.zp, Multiplier.of(UNIT * s_cell / s_cell),
                        Multiplier.of(UNIT * UNIT / s_cell), Multiplier.of(UNIT * UNIT / float(h.q.s)),
                        (0, shift) if shift >= 0 else (3, -shift),
                        int(min(max(clip / s_cell, -32768.0), 32767.0)) if clip > 0 else 0)

    def _gate(self, p: LstmData, k: int, name: str, x: np.ndarray, h: np.ndarray,
              weights: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> np.ndarray:
        wx, wh, b = weights[k]
        gate = p.gates[k]
        a = _sat16(requantize(wrap_int32((x - p.input_zp) @ wx.T + b), gate.input.multiplier, gate.input.shift))
        r = _sat16(requantize(wrap_int32((h - p.hidden_zp) @ wh.T), gate.recurrent.multiplier, gate.recurrent.shift))
        s = _sat16(a + r)
        if name == "cell":
            return tanh_s16(s).astype(np.int64)
        return sigmoid_s16(s).astype(np.int64)

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        p = op.prepared(LstmData)
        batches, steps, size, units, major = lstm_sizes(g, op)
        weights = [(xs[INPUT_WEIGHTS + k].astype(np.int64), xs[RECURRENT_WEIGHTS + k].astype(np.int64),
                    xs[BIASES + k].astype(np.int64)) for k in range(4)]
        hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]
        h = state[hk].reshape(batches, units).astype(np.int64)
        c = state[ck].reshape(batches, units).astype(np.int64)
        x = xs[0].astype(np.int64)
        sequence = x if major else x.transpose(1, 0, 2)  # [steps, batches, size]
        rows = []
        for t in range(steps):
            f, i, cg = (self._gate(p, GATES.index(n), n, sequence[t], h, weights) for n in ("forget", "input", "cell"))
            c = _sat16(_sat16(requantize(f * c, p.forget_cell.multiplier, p.forget_cell.shift))
                       + _sat16(requantize(i * cg, p.input_cell.multiplier, p.input_cell.shift)))
            if p.cell_clip:
                c = np.clip(c, -p.cell_clip, p.cell_clip)
            o = self._gate(p, 3, "output", sequence[t], h, weights)
            h = np.clip(requantize(tanh_s16(c, *p.cell_tanh).astype(np.int64) * o, p.hidden.multiplier, p.hidden.shift)
                        + p.hidden_zp, -128, 127)
            rows.append(h)
        state[hk] = h.astype(np.int8).reshape(state[hk].shape)
        state[ck] = c.astype(np.int16).reshape(state[ck].shape)
        out = np.stack(rows)  # [steps, batches, units]
        return (out if major else out.transpose(1, 0, 2)).astype(np.int8)

    def macs(self, g: Graph, op: Op) -> int:
        batches, steps, size, units, _ = lstm_sizes(g, op)
        return batches * steps * 4 * units * (size + units)

    def lower(self, g: Graph, op: Op) -> Call | None:
        hk, ck = op.facts.state[HIDDEN], op.facts.state[CELL]
        return Call("mcu_lstm_s8", (lstm_params(g, op, lambda w: w), reads(op), State(hk, writable=True),
                                    State(ck, writable=True), writes(op)), note=lstm_note(g, op))


def lstm_note(g: Graph, op: Op) -> str:
    batches, steps, size, units, major = lstm_sizes(g, op)
    return (f"{steps} steps of {batches} x {size} -> {units} units, {'time' if major else 'batch'} major, "
            f"cell clip {op.prepared(LstmData).cell_clip}")


def lstm_params(g: Graph, op: Op, layout: Callable[[np.ndarray], np.ndarray], units_of: int = 1) -> Struct:
    """mcu_lstm_params: each gate's weights laid out by `layout`, its biases with the offsets folded in
    (padded with zeros to a multiple of `units_of` units)."""
    p = op.prepared(LstmData)
    batches, steps, size, units, major = lstm_sizes(g, op)

    def gate(k: int, name: str) -> dict[str, object]:
        wx, wh = op.input(g, INPUT_WEIGHTS + k).values, op.input(g, RECURRENT_WEIGHTS + k).values
        pad = (0, -units % units_of)
        return dict(input_weights=Const(f"{name}_input_weights", layout(wx)),
                    recurrent_weights=Const(f"{name}_recurrent_weights", layout(wh)),
                    input_bias=Const(f"{name}_input_bias", np.pad(folded_bias(wx, op.input(g, BIASES + k).values,
                                                                              p.input_zp), pad)),
                    recurrent_bias=Const(f"{name}_recurrent_bias", np.pad(folded_bias(wh, None, p.hidden_zp), pad)),
                    input=p.gates[k].input.fields(), recurrent=p.gates[k].recurrent.fields())

    return Struct("mcu_lstm_params", "params", dict(
        batches=batches, time_steps=steps, input_size=size, state_size=units, time_major=int(major),
        input_offset=-p.input_zp, hidden_offset=-p.hidden_zp,
        **{f"{name}_gate": gate(k, name) for k, name in enumerate(GATES)},
        forget_cell=p.forget_cell.fields(), input_cell=p.input_cell.fields(), hidden=p.hidden.fields(),
        cell_tanh_multiplier=p.cell_tanh[0], cell_tanh_shift=p.cell_tanh[1], cell_clip=p.cell_clip,
        sigmoid_table=Const("sigmoid_table", SIGMOID_TABLE.astype(np.uint16).view(np.int16)),
        short_requantize=int(_short_requantize(g, op))))


def _short_requantize(g: Graph, op: Op) -> bool:
    """Whether every accumulator the step requantizes is within mcu_requantize_short's bound, |x| <
    2^(30 - max(shift, 0)): a gate's FC sums are within |bias| + depth x 255 x 128 (offset inputs times
    int8 weights), the unit's three products of a Q0.15 gate and an int16 within 32767 x 32768 < 2^30."""
    p = op.prepared(LstmData)
    size, units = lstm_sizes(g, op)[2:4]

    def short(bound: int, m: Multiplier) -> bool:
        return bound < 2 ** (30 - max(m.shift, 0))

    gates = all(short(int(np.abs(op.input(g, BIASES + k).values.astype(np.int64)).max(initial=0)) + size * 255 * 128,
                      gate.input) and short(units * 255 * 128, gate.recurrent) for k, gate in enumerate(p.gates))
    return gates and all(short(32767 * 32768, m) for m in (p.forget_cell, p.input_cell, p.hidden))


