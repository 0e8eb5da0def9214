"""What an op becomes in C: one kernel call whose arguments are constants, structs or arena slices.

Each OpDef.lower(g, op) returns a Call. The C emitter names every Const and Struct after the layer
(`conv_2d_3_filter`), emits them as `static const` data and renders the call; it never needs to
know which op it is looking at.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from mcugen.ir.calls import (ArrayKey, Call, Const, Packed, Scratch, Slice, State, Struct, const_arrays, const_bytes,
                              distinct_bytes, distinct_const_bytes, keyed_arrays)
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph, Op
from mcugen.runtime import c_define

# the call's parts are defined in mcugen/ir/calls.py (below the IR); the ops import them from here
__all__ = ["Call", "Const", "Packed", "Scratch", "Slice", "State", "Struct", "const_arrays", "const_bytes",
           "distinct_bytes", "keyed_arrays"]

MAX_DIMS = c_define("MCU_MAX_DIMS")


def reads(op: Op, i: int = 0) -> Slice:
    return Slice((op.inputs[i],))


def writes(op: Op) -> Slice:
    return Slice((op.outputs[0],), writable=True)


def dims(name: str, shape: Sequence[int]) -> Struct:
    """mcu_dims of a 4-D NHWC shape."""
    n, h, w, c = shape
    return Struct("mcu_dims", name, dict(n=int(n), h=int(h), w=int(w), c=int(c)))


def tile(pair: Sequence[int]) -> dict[str, int]:
    return dict(h=int(pair[0]), w=int(pair[1]))


def activation(low: int, high: int) -> dict[str, int]:
    """mcu_activation: the output range a fused activation clamps to."""
    return dict(min=int(low), max=int(high))


def strides_of(shape: Sequence[int]) -> list[int]:
    """Row-major element strides of a contiguous tensor."""
    out, step = [], 1
    for d in reversed(shape):
        out.append(step)
        step *= int(d)
    return out[::-1]


def merge_axes(shape: Sequence[int], *strides: Sequence[int]) -> tuple[list[int], list[list[int]]]:
    """Drop size-1 axes and fuse neighbours that are contiguous in every stride set.

    Keeps the generic N-D kernels within MAX_DIMS and makes their inner loops long.
    """
    axes = [(int(n), [int(s[k]) for s in strides]) for k, n in enumerate(shape) if n != 1]
    merged: list[tuple[int, list[int]]] = []
    for n, st in axes:
        if merged and all(prev == cur * n for prev, cur in zip(merged[-1][1], st)):
            merged[-1] = (merged[-1][0] * n, st)
        else:
            merged.append((n, st))
    if not merged:
        merged = [(1, [0] * len(strides))]
    if len(merged) > MAX_DIMS:
        raise McugenError(f"a {len(merged)}-axis data movement exceeds the C kernels' {MAX_DIMS} axes",
                          "reshape the model to fewer dimensions")
    return [n for n, _ in merged], [[st[k] for _, st in merged] for k in range(len(strides))]


def padded(values: Sequence[int], fill: int = 0) -> list[int]:
    values = [int(v) for v in values]
    return values + [fill] * (MAX_DIMS - len(values))


def layer_name(g: Graph, op: Op) -> str:
    """Named after the op's index in the model file, as Netron and mcugen's messages number it (a custom
    op after its code, made a C identifier: CUSTOM:SquareClip -> custom_squareclip_1), and the part of it
    this op is where the compiler made several of one (conv_2d_0_band1)."""
    return re.sub(r"\W", "_", f"{op.opcode.lower()}_{op.origin}" + (f"_{op.part}" if op.part else ""))


def broadcast(shape1: Sequence[int], shape2: Sequence[int], out_shape: Sequence[int], dtype: str = "int8") -> Struct:
    """mcu_broadcast for numpy-style broadcasting of two inputs onto a contiguous output, all three
    of one dtype."""
    rank = len(out_shape)

    def strides(shape: Sequence[int]) -> list[int]:
        shape = (1,) * (rank - len(shape)) + tuple(shape)
        return [0 if n == 1 else s for n, s in zip(shape, strides_of(shape))]

    shape, (_, s1, s2) = merge_axes(out_shape, strides_of(out_shape), strides(shape1), strides(shape2))
    return Struct("mcu_broadcast", "broadcast", dict(
        rank=len(shape), shape=padded(shape), stride1=padded(s1), stride2=padded(s2),
        bits=8 * np.dtype(dtype).itemsize))


def copy(shape: Sequence[int], in_stride: Sequence[int], out_stride: Sequence[int], in_offset: int = 0,
         out_offset: int = 0, itemsize: int = 1) -> dict[str, object]:
    """Fields of mcu_copy_params (which counts bytes), axes merged; shape, strides and offsets count
    elements of `itemsize` bytes, each copied as one more axis of that many bytes."""
    if itemsize > 1:
        shape, in_stride, out_stride = ([*shape, itemsize], [s * itemsize for s in in_stride] + [1],
                                        [s * itemsize for s in out_stride] + [1])
        in_offset, out_offset = in_offset * itemsize, out_offset * itemsize
    shape, (si, so) = merge_axes(shape, in_stride, out_stride)
    return dict(rank=len(shape), shape=padded(shape), in_stride=padded(si), out_stride=padded(so),
                in_offset=int(in_offset), out_offset=int(out_offset))


def layers_const_bytes(g: Graph) -> list[int]:
    """The bytes of the constant arrays the C of each op's call holds: its Consts (INT4 ones two values to a
    byte) and the constant tensors its slices name, an array an earlier layer holds already counting nothing
    (emit_c renders exactly these; tests compare)."""
    seen: set[ArrayKey] = set()
    sizes = []
    for op in g.ops:
        tensors = [Const("", g.tensors[t].values) for a in (op.call.args if op.call else ()) if isinstance(a, Slice)
                   for t in a.tensors if g.tensors[t].data is not None]
        sizes.append(sum(distinct_const_bytes([op.call, tensors], seen)))
    return sizes
