"""A STRIDED_SLICE whose only reader is a TRANSPOSE runs inside the transpose's copy.

Both are strided copies (mcu_copy_strided): the transpose can read the slice's elements where they lie in the
slice's input, its strides the slice's steps permuted and its start the slice's first element, so the slice's
output never exists (Op.fused_into: no call, no bytes in the arena) and its copy is not made. What makes it
common: a patch of a channels-first image (passes/split_patches.py) is a slice of the image's rows and
columns in each channel plane, then transposed; place_views cannot make that slice a view (its bytes are not
one run), this pass makes it no buffer at all.

The slice is folded where it is not a view already (place_views: no call), is no graph output, and its output
is read by the transpose alone.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Slice, Struct, copy, strides_of, writes
from mcugen.ops.strided_slice import Indices
from mcugen.ops.transpose import Permutation


def fold_slices(g: Graph) -> Graph:
    readers = g.readers()
    made_by = {op.outputs[0]: op for op in g.ops if op.outputs}
    folded: dict[int, Op] = {}
    for op in g.ops:
        if op.opcode != "TRANSPOSE" or op.call is None or op.fused_into is not None:
            continue
        source = made_by.get(op.inputs[0])
        if (source is None or source.opcode != "STRIDED_SLICE" or source.call is None or source.fused_into is not None
                or op.inputs[0] in g.outputs or [r.index for r in readers.get(op.inputs[0], [])] != [op.index]):
            continue
        folded[source.index] = dataclasses.replace(source, call=None, fused_into=op.index)
        folded[op.index] = dataclasses.replace(op, call=_transposed_slice(g, source, op))
    return g.replace_ops(folded.get(op.index, op) for op in g.ops) if folded else g


def _transposed_slice(g: Graph, cut: Op, transpose: Op) -> Call:
    """The transpose's copy reading the slice's elements in the slice's input."""
    x = cut.input(g, 0)
    stride = strides_of(x.shape)
    idx = cut.prepared(Indices).per_axis
    step = [(i[1] - i[0]) * s if len(i) > 1 else s for i, s in zip(idx, stride)]
    start = sum(i[0] * s for i, s in zip(idx, stride) if i)
    perm = transpose.prepared(Permutation).perm
    shape = [len(idx[k]) for k in perm]
    params = Struct("mcu_copy_params", "params", copy(shape, [step[k] for k in perm], strides_of(shape),
                                                      in_offset=start, itemsize=np.dtype(x.dtype).itemsize))
    first = [i[0] if i else 0 for i in idx]
    return Call("mcu_copy_strided", (params, Slice((x.index,)), writes(transpose)),
                note=f"permutation {list(perm)} of t{x.index}'s elements from {first}, a slice folded in")
