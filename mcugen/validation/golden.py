"""The host golden model: run a prepared Graph op by op with the numpy kernels."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph


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
            fix = (f"reshape it to {list(t.shape)}" if x.dtype == np.dtype(t.dtype) else
                   f"give {t.dtype} values" + (" (float data is quantized with the input's scale and zero point "
                                               "where it is given as a file)" if t.quant is not None else ""))
            raise McugenError(f"input {k} ('{t.name}') expects {describe(t.dtype, t.shape)}, "
                              f"got {describe(str(x.dtype), x.shape)}", fix)


class Runner:
    """A Graph made ready to run many times, like an interpreter after AllocateTensors:
    each op's kernel and operand slots are looked up once, so a call costs the kernels."""

    def __init__(self, g: Graph):
        self.g = g
        # one slot per tensor plus a last one that stays None: an omitted input (-1) reads it
        self.slots = [t.data for t in g.tensors] + [None]
        self.steps = [(self._kernel(ops.definition(g, op)), op, op.inputs, op.outputs,
                       [g.tensors[t].shape for t in op.outputs]) for op in g.ops]
        self.reset()

    def _kernel(self, opdef):
        if opdef.stateful:
            return lambda g, op, xs: opdef.run_state(g, op, xs, self.state)
        return opdef.run

    def reset(self) -> None:
        """The variables as on a freshly booted target: a run continues from the previous one's state."""
        self.state = [v.initial.copy() for v in self.g.variables]

    def run(self, inputs: Sequence[np.ndarray],
            on_tensor: Callable[[int, np.ndarray], None] | None = None) -> list[np.ndarray]:
        """Outputs in model order; on_tensor(index, value) sees every activation written."""
        g = self.g
        check_inputs(g, inputs)
        values = self.slots.copy()
        for idx, x in zip(g.inputs, inputs):
            values[idx] = np.asarray(x)
        for kernel, op, sources, outs, expected in self.steps:
            ys = kernel(g, op, [values[i] for i in sources])
            for out, y, shape in zip(outs, ys if isinstance(ys, list) else [ys], expected):
                if y.shape != shape:
                    raise McugenError(f"op {op.origin} {op.opcode} produced shape {list(y.shape)}, "
                                      f"model says {list(shape)}", "the model file is inconsistent")
                values[out] = y
                if on_tensor:
                    on_tensor(out, y)
        return [values[i] for i in g.outputs]  # type: ignore[misc]  # every output was written (verify)


def model_inputs(g: Graph, xs) -> list[np.ndarray]:
    """Float inputs as the model takes them: quantized with each input's scale and zero point as
    TFLM's QUANTIZE does, where the input is an integer."""
    from mcugen.ops.quantize import affine_quantize

    converted = []
    for idx, x in zip(g.inputs, xs):
        t = g.tensors[idx]
        x = np.asarray(x, dtype=np.float32).reshape(t.shape)
        converted.append(x if t.dtype == "float32" else affine_quantize(x, t.q.s, t.q.zp, t.dtype))
    return converted


def real_values(g: Graph, idx: int, values: np.ndarray) -> np.ndarray:
    t = g.tensors[idx]
    v = values.astype(np.float64)
    return v if t.dtype == "float32" or t.quant is None else t.quant.s * (v - t.quant.zp)


def run(g: Graph, inputs: Sequence[np.ndarray],
        on_tensor: Callable[[int, np.ndarray], None] | None = None) -> list[np.ndarray]:
    """Run once: Runner(g).run(inputs, on_tensor)."""
    return Runner(g).run(inputs, on_tensor)
