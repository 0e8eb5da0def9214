"""Run a grouped CONV_2D (filter depth a divisor of the input depth, TFLM's groups = input depth /
filter depth) as the plain convolution it equals: each output channel's filter widened to the whole
input depth with zeros outside its group's channels. Zeros add nothing to a sum (nor to the weight
sums the zero points fold into), so every kernel, reference and optimized, gives TFLM's answer; the
cost is groups times the weights and MACs, and Facts.groups keeps the file's count (for MACs).

Only what TFLM defines is widened: groups dividing the output channels too (TFLM only DCHECKs both),
and a filter no other op reads; check() refuses the rest. A float32 conv is left grouped: its
kernel takes groups as TFLM's does, and a widened float filter's zeros could add products TFLM never
makes (0 * inf).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.graph import Graph


def expand_groups(g: Graph) -> Graph:
    tensors = list(g.tensors)
    ops = []
    readers: dict[int, int] = {}
    for op in g.ops:
        for t in op.inputs:
            readers[t] = readers.get(t, 0) + 1
    for op in g.ops:
        if op.opcode == "CONV_2D" and len(op.inputs) >= 2 and min(op.inputs[:2]) >= 0:
            x, w = tensors[op.inputs[0]], tensors[op.inputs[1]]
            if (len(x.shape) == 4 and len(w.shape) == 4 and w.data is not None and readers[w.index] == 1
                    and x.dtype != "float32"):  # the float kernel runs groups as they are
                depth, cout = x.shape[3], w.shape[0]
                if w.shape[3] < depth and depth % w.shape[3] == 0 and cout % (depth // w.shape[3]) == 0:
                    groups = depth // w.shape[3]
                    tensors[w.index] = dataclasses.replace(w, shape=(*w.shape[:3], depth), data=_widened(w.data, groups))
                    op = dataclasses.replace(op, facts=dataclasses.replace(op.facts, groups=groups))
        ops.append(op)
    if all(op.facts.groups is None for op in ops):
        return g
    return dataclasses.replace(g.replace_ops(ops), tensors=tuple(tensors))


def _widened(filters: np.ndarray, groups: int) -> np.ndarray:
    """[OC, KH, KW, IC / groups] -> [OC, KH, KW, IC], output channel c reading group c // (OC / groups)."""
    cout, kh, kw, part = filters.shape
    full = np.zeros((cout, kh, kw, part * groups), filters.dtype)
    for c in range(cout):
        group = c // (cout // groups)
        full[c, :, :, group * part:(group + 1) * part] = filters[c]
    return full
