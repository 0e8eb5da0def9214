"""Give every constant bias one dimension: TFLM's conv, depthwise, FULLY_CONNECTED and TRANSPOSE_CONV
kernels read a bias's values whatever shape the file gives it ([C], [1, C], [C, 1] all run alike),
and mcugen's kernels then need not care. A bias tensor that something else also reads keeps its shape.
"""
from __future__ import annotations

import dataclasses
import math

from mcugen import ops
from mcugen.ir.graph import Graph


def flatten_biases(g: Graph) -> Graph:
    as_bias: set[int] = set()
    otherwise = set(g.outputs)
    for op in g.ops:
        opdef = ops.definition(g, op)
        bias = opdef.bias_input if opdef is not None else None
        for k, t in enumerate(op.inputs):
            (as_bias if k == bias else otherwise).add(t)
    flat = {t for t in as_bias - otherwise
            if t >= 0 and g.tensors[t].data is not None and len(g.tensors[t].shape) != 1}
    if not flat:
        return g
    tensors = tuple(dataclasses.replace(t, shape=(math.prod(t.shape),), data=t.data.reshape(-1))
                    if t.index in flat and t.data is not None else t for t in g.tensors)
    return dataclasses.replace(g, tensors=tensors)
