"""Refuse a model whose layers compute with values TFLM leaves undefined.

Some TFLM kernels write only part of their output (SignalEnergy: the bins from start_index to end_index),
leaving the rest as the arena held it. A layer may drop those elements (a STRIDED_SLICE of the defined
bins, as micro_speech's front end does) or move them along (RESHAPE, CAST, CONCATENATION: OpDef.defined
follows them); a model output may hold them (comparisons skip them). A layer that computes with one gives
TFLM an answer made of whatever the arena held, which neither mcugen nor anyone can reproduce: refused,
naming the layer that leaves the values undefined and the one that reads them.
"""
from __future__ import annotations

import numpy as np

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph


def check_undefined_reads(g: Graph) -> Graph:
    defined_elements(g)
    return g


def defined_elements(g: Graph) -> dict[int, np.ndarray]:
    """Tensor -> the elements TFLM defines, for the tensors where it leaves some undefined; McugenError
    where a layer computes with one."""
    masks: dict[int, np.ndarray] = {}
    origins: dict[int, int] = {}  # tensor -> the op whose kernel left its undefined elements so
    for op in g.ops:
        given = [masks.get(t) for t in op.inputs]
        for k, out in enumerate(op.outputs):
            try:
                mask = ops.get(g, op).defined(g, op, k, given)
            except ops.UndefinedRead as read:
                source = g.ops[origins[read.tensor]]
                undefined = int(np.count_nonzero(~masks[read.tensor]))
                raise McugenError(
                    f"{g.name}: unsupported model: {op.opcode} at index {op.origin} computes with {undefined} "
                    f"value(s) of '{g.tensors[read.tensor].name}' that {source.opcode} at index {source.origin} "
                    "left undefined (TFLM leaves what its arena held there, so its answer is no one's to match)",
                    "make that layer write every value later layers read (an output no longer than what it "
                    "writes; SignalEnergy: start_index 0, end_index the bin count), or slice those values off "
                    "first") from None
            if mask is not None and not mask.all():
                masks[out] = mask
                carried = [origins[t] for t, m in zip(op.inputs, given) if m is not None]
                origins[out] = carried[0] if carried else op.index
    return masks
