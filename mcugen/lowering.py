"""What an op becomes in C: one kernel call whose arguments are constants, structs or arena slices.

Each OpDef.lower(g, op) returns a Call. The C emitter names every Const and Struct after the layer
(`conv_2d_3_filter`), emits them as `static const` data and renders the call; it never needs to
know which op it is looking at.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir import Graph, Op
from mcugen.runtime import c_define

MAX_DIMS = c_define("MCU_MAX_DIMS")


@dataclass(frozen=True)
class Const:
    """A constant array, emitted as `static const <int8_t|int16_t|int32_t> <layer>_<name>[]`, or with
    ctype as an array of that struct, one per row of data (int32 fields in declaration order)."""

    name: str
    data: np.ndarray  # int8, int16 or int32 values
    ctype: str | None = None
    layer: str = ""  # the layer it is named after, when not the one whose call passes it (a fused conv's)


@dataclass(frozen=True)
class Struct:
    """A constant struct, emitted with designated initializers and passed by address."""

    ctype: str
    name: str
    fields: dict[str, object]  # values: int, list of ints, str (an enumerator of mcu_nn.h), Const, or a nested dict
    layer: str = ""  # as Const.layer


@dataclass(frozen=True)
class Slice:
    """An activation tensor in the arena (or a list of them, passed as a pointer array)."""

    tensors: tuple[int, ...]
    writable: bool = False
    as_array: bool = False  # a local `const int8_t *const inputs[] = {...}` for ops with many inputs (or outputs)


@dataclass(frozen=True)
class State:
    """A resource variable's bytes (Graph.variables[variable]), kept by the model between invocations."""

    variable: int
    writable: bool = False


@dataclass(frozen=True)
class Scratch:
    """Working memory an optimized (runtime_c/dsp/) kernel needs during the call, planned in the
    arena like a tensor live for that step only."""

    bytes: int
    ctype: str = "int16_t"  # what the kernel's pointer points to


@dataclass(frozen=True)
class Packed4:
    """An int8 or int16 weight array whose values fit 4 bits (from an INT4 filter): kept two to a byte
    in flash and unpacked into the call's scratch just before the call, which reads it there."""

    const: Const

    @property
    def bytes(self) -> int:
        return self.const.data.nbytes

    @property
    def kernel(self) -> str:
        return "mcu_unpack_s4" if self.const.data.dtype == np.int8 else "mcu_unpack_s4_s16"

    def nibbles(self) -> np.ndarray:
        """The values two to a byte, the low nibble first (as a .tflite file holds INT4), as int8 bytes."""
        values = self.const.data.reshape(-1).astype(np.int8)
        values = np.append(values, np.int8(0))[:(values.size + 1) // 2 * 2]
        return ((values[0::2] & 0x0F) | (values[1::2] << 4)).astype(np.int8)


@dataclass(frozen=True)
class Call:
    kernel: str  # C function, one per file: runtime_c/src/<kernel>.c (and/or runtime_c/dsp/<kernel>.c)
    args: tuple[object, ...]  # Const, Packed4, Struct, Slice, Scratch, State, int, float, or None (NULL)
    note: str = ""  # geometry for the layer comment: strides, padding, kernel size
    in_place: int | None = None  # the op input (position) whose bytes the output may share, when no smaller
    extra_kernels: tuple[str, ...] = ()  # kernels this kernel calls
    fuses: tuple[int, ...] = ()  # ops besides the fused conv whose work a fused call does (a chain of convs)

    @property
    def scratch_offsets(self) -> list[int]:
        """Where each Scratch (and Packed4's unpacked weights) starts in the call's scratch buffer: one after
        the other, word aligned."""
        offsets, end = [], 0
        for a in self.args:
            if isinstance(a, (Scratch, Packed4)):
                offsets.append(end)
                end += (a.bytes + 3) // 4 * 4
        return offsets + [end]

    @property
    def scratch(self) -> int:
        return self.scratch_offsets[-1]


def const_bytes(value: object) -> int:
    """The bytes of the constant arrays in a call's arguments (a Call, or any of its arguments)."""
    if isinstance(value, Const):
        return value.data.nbytes
    if isinstance(value, Packed4):
        return (value.const.data.size + 1) // 2
    if isinstance(value, Call):
        return sum(const_bytes(a) for a in value.args)
    if isinstance(value, Struct):
        return const_bytes(value.fields)
    if isinstance(value, dict):
        return sum(const_bytes(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(const_bytes(v) for v in value)
    return 0


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
    op after its code, made a C identifier: CUSTOM:SquareClip -> custom_squareclip_1)."""
    return re.sub(r"\W", "_", f"{op.opcode.lower()}_{op.origin}")


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
