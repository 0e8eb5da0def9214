"""The layers a precision plan made fp16 (the file's `mcugen.fp16` metadata: Graph.fp16_layers) computed in
fp16 on a core with half-precision arithmetic (Helium's floating point: the Cortex-M55); on any other core they
stay what the file holds, float16 weights with float32 arithmetic.

Such a layer (FULLY_CONNECTED, an ungrouped CONV_2D, DEPTHWISE_CONV_2D, whose weights are float16 values) becomes
its float16 twin (ops/half_layers.py): weights and bias float16 constants, its input and output float16
tensors of half the bytes. A QUANTIZE float32 -> float16 makes its input (rounded to nearest even) unless an
fp16 layer before it already wrote it in float16, and a DEQUANTIZE float16 -> float32 gives its output back to
whatever else reads it (exact), so a run of fp16 layers passes float16 from one to the next, through the
RESHAPEs between them too (a RESHAPE copies values of any type).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.options import Options
from mcugen.ops.half_layers import HALF_OPS, SUFFIX



def computes_in_fp16(g: Graph, op: Op) -> bool:
    """Whether a layer the plan names fp16 is one mcugen computes in fp16 (where the core can)."""
    if op.opcode not in HALF_OPS or not op.outputs or g.tensors[op.outputs[0]].name not in g.fp16_layers or \
            len(op.inputs) < 2 or min(op.inputs[:2]) < 0:
        return False
    x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
    if x.dtype != "float32" or y.dtype != "float32" or w.dtype != "float32" or not w.is_const:
        return False
    if op.opcode == "CONV_2D" and w.shape[3] != x.shape[3]:
        return False  # grouped
    return bool(np.array_equal(w.values.astype(np.float16).astype(np.float32).view(np.uint32),
                               w.values.view(np.uint32)))


def compute_fp16(g: Graph, arithmetic: bool) -> Graph:
    if not arithmetic or not g.fp16_layers:
        return g
    chosen = {op.index for op in g.ops if computes_in_fp16(g, op)}
    if not chosen:
        return g
    readers = g.readers()
    half = set(chosen)  # the chosen layers and the RESHAPEs between them, which pass float16 on as it is
    for op in reversed(g.ops):
        y = op.outputs[0] if op.outputs else -1
        if op.opcode == "RESHAPE" and y not in g.outputs and readers.get(y) and \
                all(r.index in half and r.inputs[0] == y for r in readers[y]):
            half.add(op.index)
    tensors = list(g.tensors)

    def twin(t: int, data: np.ndarray | None = None) -> int:
        tensors.append(dataclasses.replace(tensors[t], index=len(tensors), name=tensors[t].name + SUFFIX,
                                           dtype="float16", quant=None, data=data, stored=None))
        return len(tensors) - 1

    halves: dict[int, int] = {}  # a float32 activation -> its float16 twin
    ops: list[Op] = []
    for op in g.ops:
        if op.index not in half:
            ops.append(op)
            continue
        x = op.inputs[0]
        if x not in halves:
            halves[x] = twin(x)
            ops.append(_convert("QUANTIZE", op, x, halves[x], "to_fp16"))
        rest = [t if t < 0 or op.index not in chosen else twin(t, tensors[t].values.astype(np.float16))
                for t in op.inputs[1:]]  # a layer's weights and bias in float16, a RESHAPE's shape as it is
        y = op.outputs[0]
        halves[y] = twin(y)
        ops.append(dataclasses.replace(op, inputs=(halves[x], *rest), outputs=(halves[y],)))
        if y in g.outputs or any(r.index not in half or r.inputs[0] != y for r in readers.get(y, [])):
            ops.append(_convert("DEQUANTIZE", op, halves[y], y, "from_fp16"))
    return dataclasses.replace(g, tensors=tuple(tensors)).renumber(ops)


def _convert(opcode: str, layer: Op, source: int, target: int, part: str) -> Op:
    return Op(index=layer.index, opcode=opcode, version=1, inputs=(source,), outputs=(target,), options=Options(),
              origin=layer.origin, part=part)
