"""Evaluate at build time what needs no input: shape arithmetic on static shapes.

Keras exports `tf.shape(x)` arithmetic (SHAPE, then int32 STRIDED_SLICE / PACK / CONCATENATION /
GATHER / RESHAPE) to build the shape a RESHAPE takes. With every shape static, SHAPE is a constant,
and so is every op all of whose inputs are constants: each such op is run once with its golden
kernel (ops opt in, `OpDef.foldable`; SHAPE has its own `fold`), its outputs become constant tensors
and the op disappears. Graph outputs are never folded away: the C code must still write them.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen import ops
from mcugen.ir.graph import Graph


def fold_constants(g: Graph) -> Graph:
    tensors = list(g.tensors)
    current = g
    kept = []
    for op in g.ops:
        opdef = ops.definition(g, op)
        values = None
        if opdef is not None and op.outputs and not set(op.outputs) & set(g.outputs):
            try:
                values = opdef.fold(current, op)
            except (ValueError, IndexError, TypeError, KeyError, AttributeError):
                values = None  # a malformed op: check_support will say what is wrong with it
        if values is None or any(v.size != np.prod(tensors[t].shape) for t, v in zip(op.outputs, values)):
            kept.append(op)
            continue
        # the file's float16 weights stay the model's weights at their size, widened or moved
        half = any("float16" in (g.tensors[t].dtype, g.tensors[t].stored) for t in op.inputs if t >= 0)
        for t, v in zip(op.outputs, values):
            data = np.asarray(v).astype(tensors[t].dtype).reshape(tensors[t].shape)
            tensors[t] = dataclasses.replace(tensors[t], data=data, stored="float16" if half else None)
        current = dataclasses.replace(g, tensors=tuple(tensors))
    if len(kept) == len(g.ops):
        return g
    return current.renumber(kept)
