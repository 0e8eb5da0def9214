"""SVDF in float32: TFLM's EvalFloatSvdfReference (svdf_common.cc).

Each step the state [batch, filters * memory] moves one place to the left (the whole buffer); each
filter's newest slot takes the float dot product of the input with its feature weights (from 0.0f in
input order); each filter's state is dotted with its time weights the same way; a unit's output is its
bias plus its `rank` filters' sums in order, then the fused activation as TFLM's
ActivationValFloat spells it (std::max(0.0f, x) for RELU, so a NaN becomes 0; tanh; the sign bit).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, State, Struct, reads, writes
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, tanhf
from mcugen.ops.float_fully_connected import dense
from mcugen.ops.svdf import STATE, Svdf

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


@register("SVDF", dtype="float32")
class FloatSvdf(Svdf):
    parameters = {1: ("float32",), 2: ("float32",), 3: ("float32",), STATE: ("float32",)}

    def check(self, g: Graph, op: Op) -> list[str]:
        if STATE not in op.attrs.get("state", {}):
            return ["its state (input 4) is not a variable tensor: TFLM's Prepare requires one"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return FloatSvdfData(op.attrs["rank"], op.input(g, 2).shape[1],
                             op.attrs.get("fused_activation_function", "NONE"))

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        p = op.prepared(FloatSvdfData)
        x, wf, wt, b = xs[:4]
        k = op.attrs["state"][STATE]
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
        p = op.prepared(FloatSvdfData)
        x, wf, wt, b = (op.input(g, k) for k in range(4))
        params = Struct("mcu_svdf_f32_params", "params", dict(
            batches=x.shape[0], input_size=x.shape[1], filters=wf.shape[0], memory=p.memory, rank=p.rank,
            activation=f"MCU_F32_ACT_{p.activation}"))
        return Call("mcu_svdf_f32", (params, reads(op), Const("weights_feature", wf.values),
                                     Const("weights_time", wt.values), Const("bias", b.values),
                                     State(op.attrs["state"][STATE], writable=True), writes(op)),
                    note=f"rank {p.rank}, memory {p.memory}, {p.activation}", extra_kernels=("mcu_expm1f", "mcu_tanhf"))
