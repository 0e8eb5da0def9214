"""READ_VARIABLE and ASSIGN_VARIABLE: copies between a resource variable's bytes (Graph.variables,
made by passes/resolve_variables.py) and a tensor, raw, as TFLM's MicroResourceVariables does."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, State, Struct, copy, reads, writes
from mcugen.ops import OpDef, Outputs, register


@register("READ_VARIABLE", "ASSIGN_VARIABLE")
class Variables(OpDef):
    input_types = output_types = ("int8", "int16", "float32")  # bytes copied, whatever they hold
    # before resolve_variables, each also takes the VAR_HANDLE's resource tensor first
    arity = {"READ_VARIABLE": ((0, 1), (1, 1)), "ASSIGN_VARIABLE": ((1, 2), (0, 0))}
    stateful = True

    def check(self, g: Graph, op: Op) -> list[str]:
        if op.facts.variable is None:
            return ["its resource variable is not one mcugen can keep (a VAR_HANDLE of this subgraph, "
                    "initialised by constants in a CALL_ONCE before any read)"]
        return []

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        k = op.facts.variable
        assert k is not None  # check() refused it
        if op.opcode == "READ_VARIABLE":
            y = op.output(g)
            return np.frombuffer(state[k].tobytes(), np.dtype(y.dtype)).reshape(y.shape).copy()
        state[k] = np.frombuffer(np.ascontiguousarray(xs[0]).tobytes(), state[k].dtype).reshape(state[k].shape).copy()
        return []

    def lower(self, g: Graph, op: Op) -> Call | None:
        k = op.facts.variable
        assert k is not None  # check() refused it
        n = g.variables[k].nbytes
        params = Struct("mcu_copy_params", "params", copy([n], [1], [1]))
        name = g.variables[k].name
        if op.opcode == "READ_VARIABLE":
            return Call("mcu_copy_strided", (params, State(k), writes(op)), note=f"from variable '{name}'")
        return Call("mcu_copy_strided", (params, reads(op), State(k, writable=True)), note=f"into variable '{name}'")
