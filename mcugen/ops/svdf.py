"""SVDF with int8 input and output: TFLM's EvalIntegerSvdfReference (svdf_common.cc).

The state is a variable tensor [batch, filters * memory], int8 or int16 like the time weights
(TFLM picks the kernel by the time weights' type and reads the state as that type). Each step:
1. the state moves one place to the left (the whole buffer, as TFLM's loop moves it);
2. each filter's dot product of the input (minus its zero point) with its feature weights is
   requantized by s_in * s_wf / s_state, clamped to the state type and stored, plus the state zero
   point, in that filter's newest (last) memory slot;
3. each filter's state (minus its zero point) dotted with its time weights, summed over the `rank`
   filters of a unit, plus the unit's bias, is requantized by s_state * s_wt / s_out, plus the output
   zero point, clamped to int8. The fused activation is not applied: TFLM's integer kernel ignores it.
Sums are int32 and wrap as TFLM's do. Both scales are products of float32 scales in float32, as in
TFLM's Prepare.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, State, Struct, reads, writes
from mcugen.ir.options import SVDFOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import Multiplier
from mcugen.numerics.requant import requantize, wrap_int32

STATE = 4


@dataclass(frozen=True)
class SvdfData:
    rank: int
    memory: int
    feature: Multiplier  # input x feature weights -> state
    time: Multiplier  # state x time weights -> output
    input_zp: int
    state_zp: int
    output_zp: int


@register("SVDF")
class Svdf(OpDef):
    arity = ((5, 5), (1, 1))
    parameters = {1: ("int8",), 2: ("int8", "int16"), 3: ("int32",), STATE: ("int8", "int16")}
    stateful = True
    state_inputs = (STATE,)

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x, wf, wt = (op.input(g, k) for k in (0, 1, 2))
        s = op.optional_input(g, STATE)
        rank = op.options_as(SVDFOptions).rank
        if len(x.shape) != 2 or len(wf.shape) != 2 or len(wt.shape) != 2 or s is None or len(s.shape) != 2:
            raise ValueError("SVDF takes a 2-D input, feature and time weights and state")
        filters, memory = wf.shape[0], wt.shape[1]
        if rank < 1 or filters % rank or wf.shape[1] != x.shape[1] or wt.shape[0] != filters \
                or s.shape != (x.shape[0], filters * memory):
            raise ValueError(f"input {list(x.shape)}, feature weights {list(wf.shape)}, time weights "
                             f"{list(wt.shape)}, state {list(s.shape)} and rank {rank} do not fit")
        b = op.optional_input(g, 3)
        if b is not None and b.shape[0] != filters // rank:
            raise ValueError(f"bias of {b.shape[0]} for {filters // rank} units")
        return (x.shape[0], filters // rank)

    def check(self, g: Graph, op: Op) -> list[str]:
        wt, b, s = op.input(g, 2), op.optional_input(g, 3), op.input(g, STATE)
        if STATE not in op.facts.state:
            return ["its state (input 4) is not a variable tensor: TFLM's Prepare requires one"]
        if b is None:
            return ["has no bias: TFLM's Prepare reads the bias's scale (and would crash)"]
        if wt.dtype != s.dtype:
            return [f"time weights are {wt.dtype} but the state is {s.dtype}: TFLM reads the state as the "
                    "time weights' type"]
        product = np.float32(s.q.s) * np.float32(wt.q.s)
        if not abs(float(b.q.s if b.quant else 0.0) - float(product)) < 1e-5:
            return ["the bias scale is not state scale x time weight scale: TFLM refuses it"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        x, wf, wt, b, s = (op.input(g, k) for k in range(5))
        y = op.output(g)
        f32 = np.float32
        return SvdfData(op.options_as(SVDFOptions).rank, wt.shape[1], Multiplier.of(float(f32(x.q.s) * f32(wf.q.s) / f32(s.q.s))),
                        Multiplier.of(float(f32(s.q.s) * f32(wt.q.s) / f32(y.q.s))),
                        x.q.zp, s.q.zp, y.q.zp)

    def macs(self, g: Graph, op: Op) -> int:
        x, wf, wt = (op.input(g, k) for k in range(3))
        return x.shape[0] * wf.shape[0] * (wf.shape[1] + wt.shape[1])

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        p = op.prepared(SvdfData)
        x, wf, wt, b = (np.asarray(a, np.int64) for a in xs[:4])
        k = op.facts.state[STATE]
        batch, filters, memory = x.shape[0], wf.shape[0], p.memory
        info = np.iinfo(state[k].dtype)
        shifted = np.roll(state[k].reshape(-1), -1).reshape(batch, filters, memory).astype(np.int64)
        newest = wrap_int32(requantize(wrap_int32((x - p.input_zp) @ wf.T), p.feature.multiplier, p.feature.shift))
        shifted[:, :, -1] = np.clip(newest, info.min, info.max) + p.state_zp
        state[k] = shifted.astype(state[k].dtype).reshape(state[k].shape)  # narrowing wraps, as C stores
        stored = state[k].reshape(batch, filters, memory).astype(np.int64)
        per_filter = wrap_int32(((stored - p.state_zp) * wt).sum(axis=2))
        units = wrap_int32(per_filter.reshape(batch, -1, p.rank).sum(axis=2) + b)
        out = requantize(units, p.time.multiplier, p.time.shift) + p.output_zp
        return np.clip(out, -128, 127).astype(np.int8)

    def lower(self, g: Graph, op: Op) -> Call | None:
        wf, wt, b = (op.input(g, k) for k in range(1, 4))
        return Call("mcu_svdf_s8", (svdf_params(g, op), reads(op), Const("weights_feature", wf.values),
                                    Const("weights_time", wt.values), Const("bias", b.values.astype(np.int32)),
                                    State(op.facts.state[STATE], writable=True), writes(op)),
                    note=svdf_note(g, op))


def svdf_params(g: Graph, op: Op) -> Struct:
    p = op.prepared(SvdfData)
    return Struct("mcu_svdf_params", "params", dict(
        shape=svdf_shape(g, op, p.memory, p.rank), state_bits=np.iinfo(op.input(g, STATE).dtype).bits,
        input_offset=-p.input_zp, state_zero_point=p.state_zp, output_offset=p.output_zp, feature=p.feature.fields(),
        time=p.time.fields()))


def svdf_shape(g: Graph, op: Op, memory: int, rank: int) -> dict[str, int]:
    """mcu_svdf_shape: the layer's geometry, every SVDF kernel's."""
    x, wf = op.input(g, 0), op.input(g, 1)
    return dict(batches=x.shape[0], input_size=x.shape[1], filters=wf.shape[0], memory=memory, rank=rank)


def svdf_note(g: Graph, op: Op) -> str:
    p = op.prepared(SvdfData)
    return f"rank {p.rank}, memory {p.memory}, {op.input(g, STATE).dtype} state"


