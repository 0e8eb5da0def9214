"""The host golden model: run a prepared Graph op by op with the numpy kernels."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir import Graph


def describe(dtype: str, shape) -> str:
    return f"{dtype}[{', '.join(map(str, shape))}]"


def check_inputs(g: Graph, inputs: Sequence[np.ndarray]) -> None:
    if len(inputs) != len(g.inputs):
        raise McugenError(f"{g.name} has {len(g.inputs)} input(s), got {len(inputs)}",
                          "pass one --input per model input, in order")
    for k, (idx, x) in enumerate(zip(g.inputs, inputs)):
        t = g.tensors[idx]
        x = np.asarray(x)
        if x.dtype != np.dtype(t.dtype) or tuple(x.shape) != t.shape:
            raise McugenError(f"input {k} ('{t.name}') expects {describe(t.dtype, t.shape)}, "
                              f"got {describe(str(x.dtype), x.shape)}",
                              "quantize with the input's scale and zero point and reshape to match")


def run(g: Graph, inputs: Sequence[np.ndarray],
        on_tensor: Callable[[int, np.ndarray], None] | None = None) -> list[np.ndarray]:
    """Outputs in model order; on_tensor(index, value) sees every activation written."""
    check_inputs(g, inputs)
    values = {idx: np.asarray(x) for idx, x in zip(g.inputs, inputs)}
    for op in g.ops:
        xs = [None if i < 0 else (values[i] if i in values else g.tensors[i].data) for i in op.inputs]
        y = ops.lookup(op.opcode).run(g, op, xs)
        expected = op.output(g).shape
        if tuple(y.shape) != expected:
            raise McugenError(f"op {op.index} {op.opcode} produced shape {list(y.shape)}, "
                              f"model says {list(expected)}", "the model file is inconsistent")
        values[op.outputs[0]] = y
        if on_tensor:
            on_tensor(op.outputs[0], y)
    return [values[i] if i in values else g.tensors[i].data for i in g.outputs]
