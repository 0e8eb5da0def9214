"""A QUANTIZE that only moves the zero point, folded into the layer that writes its input.

Converters leave int8 -> int8 (and int16 -> int16) QUANTIZE ops where two parts of a graph were quantized
apart (a concatenation's inputs, a model's ends, QAT graphs). Where the scales are equal TFLM's requantize
is exact, output = clamp(x - zp_in + zp_out) (a multiplier of one: 2^30 shifted left once), so the writer
may add zp_out itself: its output becomes the QUANTIZE's, and its clamp [lo, hi] becomes
[max(lo - zp_in + zp_out, type min), min(hi - zp_in + zp_out, type max)] (`Facts.clamp`, which
ops/_quant.py fused_range honours). Only for a writer that adds its output zero point to requantized sums and
clamps to fused_range (conv, depthwise, FULLY_CONNECTED, ADD, SUB, MUL; a pool's output is its input's
values, a MEAN of equal quantizations takes another path), whose output nothing else reads and no graph
output is (the moved range is never empty: an activation's range holds the zero point, so the moved one
holds zp_out). Scales that differ round twice in TFLM and stay a QUANTIZE.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ops._quant import fused_range

# the writers whose output is requant(sums) + zero point, clamped to fused_range
WRITERS = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL")


def fold_quantizes(g: Graph) -> Graph:
    readers = g.readers()
    folded: dict[int, Op] = {}
    dropped = set()
    for op in g.ops:
        writer = _folds_into(g, op, readers)
        if writer is None:
            continue
        x, y = op.input(g, 0), op.output(g)
        lo, hi = fused_range(g, writer)
        shift = int(y.q.zp) - int(x.q.zp)
        info = np.iinfo(y.dtype)
        clamp = (max(lo + shift, int(info.min)), min(hi + shift, int(info.max)))
        folded[writer.index] = dataclasses.replace(writer, outputs=op.outputs,
                                                   facts=dataclasses.replace(writer.facts, clamp=clamp))
        dropped.add(op.index)
    if not dropped:
        return g
    return g.renumber(folded.get(op.index, op) for op in g.ops if op.index not in dropped)


def _folds_into(g: Graph, op: Op, readers: dict[int, list[Op]]) -> Op | None:
    """The layer writing the input of `op`, a QUANTIZE that only moves the zero point, where it can take it."""
    if op.opcode != "QUANTIZE" or op.inputs[0] in g.outputs or op.inputs[0] in g.inputs:
        return None
    x, y = op.input(g, 0), op.output(g)
    if x.dtype != y.dtype or x.dtype not in ("int8", "int16") or x.quant is None or y.quant is None or \
            x.quant.per_channel or y.quant.per_channel or float(x.q.s) != float(y.q.s) or x.shape != y.shape:
        return None
    writer = next((w for w in g.ops if op.inputs[0] in w.outputs), None)
    if writer is None or writer.opcode not in WRITERS or len(writer.outputs) != 1 or \
            readers.get(op.inputs[0], []) != [op]:
        return None
    return writer
