"""SVDF in float32: TFLM's EvalFloatSvdfReference (svdf_common.cc).

Each step the state [batch, filters * memory] moves one place to the left (the whole buffer); each
filter's newest slot takes the float dot product of the input with its feature weights (from 0.0f in
input order); each filter's state is dotted with its time weights the same way; a unit's output is its
bias plus its `rank` filters' sums in order, then the fused activation as TFLM's
ActivationValFloat spells it (std::max(0.0f, x) for RELU, so a NaN becomes 0; tanh; the sign bit).

With int8 feature weights (a dynamic-range model) it is LiteRT's EvalHybridSVDF: each filter's newest
slot is set to 0.0f; unless the input is all zeros, each batch row is quantized as a hybrid
FULLY_CONNECTED's (ops/_hybrid.py; its factor times the feature weights' scale) and the slot gets
0.0f + (float)(dot - row sum x zero point) x factor; the int8 time weights are dequantized as int8 x scale
in float32; each filter's state is dotted with them and a unit's `rank` filters' sums are summed as
LiteRT's x86 build sums (_lanes_sum: four lanes, then the rest), the unit's output its bias plus that sum,
then ApplyActivationToVector's activation; last, each
filter's memory moves one place to the left and its newest slot takes 0.0f (per filter, not the whole
buffer: the state between steps is LiteRT's).
"""
from __future__ import annotations

from collections.abc import Callable
import dataclasses
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Scratch, State, Struct, reads, writes
from mcugen.ir.options import SVDFOptions
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, tanhf
from mcugen.ops._hybrid import ACTIVATIONS as HYBRID_ACTIVATIONS, HybridQuant
from mcugen.ops.float_fully_connected import dense, hybrid_dense
from mcugen.ops.svdf import STATE, Svdf, svdf_shape

ZERO, ONE, SIX = F32(0.0), F32(1.0), F32(6.0)


def _max(a: np.ndarray | np.float32, b: np.ndarray | np.float32) -> np.ndarray:
    return np.where(a < b, b, a)  # std::max(a, b)


def _min(a: np.ndarray | np.float32, b: np.ndarray | np.float32) -> np.ndarray:
    return np.where(b < a, b, a)  # std::min(a, b)


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {  # ActivationValFloat, in its operand order
    "NONE": lambda x: x,
    "RELU": lambda x: _max(ZERO, x),
    "RELU_N1_TO_1": lambda x: _max(-ONE, _min(x, ONE)),
    "RELU6": lambda x: _max(ZERO, _min(x, SIX)),
    "TANH": tanhf,
    "SIGN_BIT": lambda x: np.signbit(x).astype(F32),
}


@dataclass(frozen=True)
class FloatSvdfData:
    rank: int
    memory: int
    activation: str


@dataclass(frozen=True)
class HybridSvdfData:
    rank: int
    memory: int
    quant: HybridQuant  # the feature weights' scale and row sums, the rows' quantization, the activation
    time_scale: float  # the int8 time weights' scale (float32)


@register("SVDF", dtype="float32")
class FloatSvdf(Svdf):
    parameters = {1: ("float32", "int8"), 2: ("float32", "int8"), 3: ("float32",), STATE: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        if STATE not in op.facts.state:
            return ["its state (input 4) is not a variable tensor: TFLM's Prepare requires one"]
        wf, wt = op.input(g, 1), op.input(g, 2)
        if wf.dtype != wt.dtype:
            return [f"feature weights {wf.dtype} and time weights {wt.dtype}: LiteRT's dynamic-range SVDF reads "
                    "both as int8, a float32 one as both"]
        if wf.dtype == "float32":
            return []
        if wf.quant is None or wf.q.per_channel or wt.quant is None or wt.q.per_channel:
            return ["a dynamic-range SVDF's int8 weights need one scale each (LiteRT's kernel reads one)"]
        activation = op.activation
        if activation not in HYBRID_ACTIVATIONS:
            return [f"a dynamic-range layer with fused activation {activation}: mcugen computes "
                    f"{', '.join(HYBRID_ACTIVATIONS)}"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        wf, wt = op.input(g, 1), op.input(g, 2)
        if wf.dtype == "int8":
            return HybridSvdfData(op.options_as(SVDFOptions).rank, wt.shape[1], HybridQuant.of(op, wf.q.scale, wf.values),
                                  float(np.float32(wt.q.s)))
        return FloatSvdfData(op.options_as(SVDFOptions).rank, op.input(g, 2).shape[1],
                             op.activation)

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        if xs[1].dtype == np.int8:
            return _hybrid(op, xs, state)
        p = op.prepared(FloatSvdfData)
        x, wf, wt, b = xs[:4]
        k = op.facts.state[STATE]
        batch, filters = x.shape[0], wf.shape[0]
        with np.errstate(all="ignore"):
            shifted = np.roll(state[k].reshape(-1), -1).reshape(batch, filters, p.memory)
            shifted[:, :, -1] = dense(x, wf, None)
            state[k] = shifted.reshape(state[k].shape)
            products = shifted * wt[None]
            start = np.zeros((batch, filters, 1), F32)
            sums = np.add.accumulate(np.concatenate([start, products], axis=2), axis=2)[:, :, -1]
            out = np.broadcast_to(b.astype(F32), (batch, filters // p.rank))
            for r in range(p.rank):
                out = out + sums.reshape(batch, -1, p.rank)[:, :, r]
            return ACTIVATIONS[p.activation](out).astype(F32)

    def lower(self, g: Graph, op: Op) -> Call | None:
        if op.input(g, 1).dtype == "int8":
            return _hybrid_call(g, op)
        p = op.prepared(FloatSvdfData)
        wf, wt, b = (op.input(g, k) for k in range(1, 4))
        params = Struct("mcu_svdf_f32_params", "params", dict(
            shape=svdf_shape(g, op, p.memory, p.rank), activation=f"MCU_F32_ACT_{p.activation}"))
        return Call("mcu_svdf_f32", (params, reads(op), Const("weights_feature", wf.values),
                                     Const("weights_time", wt.values), Const("bias", b.values),
                                     State(op.facts.state[STATE], writable=True), writes(op)),
                    note=f"rank {p.rank}, memory {p.memory}, {p.activation}", extra_kernels=("mcu_expm1f", "mcu_tanhf"))


def _lanes_sum(v: np.ndarray) -> np.ndarray:
    """The float32 sum over the last axis as LiteRT's x86 build takes it (its NEON code through the
    NEON_2_SSE translator): the first n - n % 4 values into four lanes from 0.0f, the lanes added in order,
    then the rest one by one."""
    n = v.shape[-1]
    lanes = np.zeros((*v.shape[:-1], 4), F32)
    for k in range(0, n - n % 4, 4):
        lanes = lanes + v[..., k:k + 4]
    total = ((lanes[..., 0] + lanes[..., 1]) + lanes[..., 2]) + lanes[..., 3]
    for k in range(n - n % 4, n):
        total = total + v[..., k]
    return total.astype(F32)


def _hybrid(op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> np.ndarray:
    """LiteRT's EvalHybridSVDF, one step (the module's docstring)."""
    p = op.prepared(HybridSvdfData)
    x, wf, wt, b = xs[:4]
    k = op.facts.state[STATE]
    batch, filters = x.shape[0], wf.shape[0]
    s = state[k].reshape(batch, filters, p.memory).copy()
    # the newest slots: 0.0f, plus the feature weights' hybrid product unless the input is all zeros
    s[:, :, -1] = hybrid_dense(dataclasses.replace(p.quant, activation="NONE"), x, wf, None)
    with np.errstate(all="ignore"):
        weights = wt.astype(F32) * F32(p.time_scale)
        sums = _lanes_sum(weights[None] * s)  # [batch, filters]
        out = b.astype(F32) + _lanes_sum(sums.reshape(batch, -1, p.rank))
        s = np.concatenate([s[:, :, 1:], np.zeros((batch, filters, 1), F32)], axis=2)
    state[k] = s.reshape(state[k].shape)
    return p.quant.activate(out.astype(F32))


def _hybrid_call(g: Graph, op: Op) -> Call:
    p = op.prepared(HybridSvdfData)
    x, wf, wt, b = (op.input(g, k) for k in range(4))
    params = Struct("mcu_svdf_hybrid_params", "params", dict(
        shape=svdf_shape(g, op, p.memory, p.rank), asymmetric=int(p.quant.asymmetric),
        activation=HYBRID_ACTIVATIONS[p.quant.activation], feature_scale=float(p.quant.scales[0]),
        time_scale=p.time_scale))
    return Call("mcu_svdf_hybrid_s8", (
        params, reads(op), Const("weights_feature", wf.values),
        Const("row_sums", p.quant.row_sums) if p.quant.asymmetric else None, Const("weights_time", wt.values),
        Const("bias", b.values), State(op.facts.state[STATE], writable=True), Scratch(x.shape[1], "int8_t"),
        writes(op)), extra_kernels=("mcu_hybrid_quantize_row",),
        note=f"rank {p.rank}, memory {p.memory}, {p.quant.activation}, int8 weights, inputs quantized "
             + ("asymmetrically" if p.quant.asymmetric else "symmetrically") + " per batch")
