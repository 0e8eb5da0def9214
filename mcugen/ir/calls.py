"""What an op's C kernel call is made of, as data: constants, structs, arena slices, state, scratch, and the
call itself. Below the IR (an Op carries its Call): nothing here knows a Graph; mcugen/ir/lowering.py holds
the helpers that build these from ops.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable

import numpy as np


@dataclass(frozen=True)
class Const:
    """A constant array, emitted as `static const <int8_t|int16_t|int32_t> <layer>_<name>[]`, or with
    ctype as an array of that struct, one per row of data (int32 fields in declaration order)."""

    name: str
    data: np.ndarray  # int8, int16 or int32 values
    ctype: str | None = None
    layer: str = ""  # the layer it is named after, when not the one whose call passes it (a fused conv's)
    # how many times one inference reads the array through: a kernel that walks its weights once per block of
    # positions reads them once a block (passes/stage_weights.py copies such arrays out of a slow flash)
    passes: int = 1

    @property
    def key(self) -> tuple[str, str]:
        """The argument among its call's: its layer and name, as its C name is made of them."""
        return self.layer, self.name


@dataclass(frozen=True)
class Struct:
    """A constant struct, emitted with designated initializers and passed by address."""

    ctype: str
    name: str
    fields: dict[str, object]  # values: int, list of ints, str (an enumerator of mcu_nn.h), Const, or a nested dict
    layer: str = ""  # as Const.layer

    @property
    def key(self) -> tuple[str, str]:
        """As Const.key."""
        return self.layer, self.name


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
class Packed:
    """A weight array kept narrower in flash than its kernel reads it, unpacked into the call's scratch
    just before the call, which reads it there: `s4`, int8 or int16 values that fit 4 bits (an INT4
    filter) two to a byte; `f16`, float32 values that are all float16 ones (a float16 model's weights)
    as their float16 bits."""

    const: Const
    form: str = "s4"

    @property
    def bytes(self) -> int:
        return self.const.data.nbytes

    @property
    def kernel(self) -> str:
        if self.form == "f16":
            return "mcu_unpack_f16"
        return "mcu_unpack_s4" if self.const.data.dtype == np.int8 else "mcu_unpack_s4_s16"

    def stored(self) -> np.ndarray:
        """What flash holds."""
        if self.form == "f16":
            return self.const.data.reshape(-1).astype(np.float16).view(np.uint16)
        return nibbles(self.const.data)


def nibbles(values: np.ndarray) -> np.ndarray:
    """Values in [-8, 7] two to a byte in their flattened order, the low nibble first (as a .tflite file
    holds INT4), as int8 bytes; an odd count's last high nibble 0."""
    flat = values.reshape(-1).astype(np.int8)
    flat = np.append(flat, np.int8(0))[:(flat.size + 1) // 2 * 2]
    return ((flat[0::2] & 0x0F) | (flat[1::2] << 4)).astype(np.int8)


@dataclass(frozen=True)
class Call:
    kernel: str  # C function, one per file: runtime_c/src/<kernel>.c (and/or runtime_c/dsp/<kernel>.c)
    args: tuple[object, ...]  # Const, Packed, Struct, Slice, Scratch, State, int, float, or None (NULL)
    note: str = ""  # geometry for the layer comment: strides, padding, kernel size
    in_place: int | None = None  # the op input (position) whose bytes the output may share, when no smaller
    extra_kernels: tuple[str, ...] = ()  # kernels this kernel calls
    fuses: tuple[int, ...] = ()  # ops besides the fused conv whose work a fused call does (a chain of convs)
    over: int | None = None  # a tensor a fused op reads (not an op input) whose bytes the output may share
    widened: bool = False  # it reads int8 weights widened to int16 in flash (kernels/: a `widens` row's)

    @property
    def scratch_offsets(self) -> list[int]:
        """Where each Scratch (and Packed's unpacked weights) starts in the call's scratch buffer: one after
        the other, word aligned."""
        offsets, end = [], 0
        for a in self.args:
            if isinstance(a, (Scratch, Packed)):
                offsets.append(end)
                end += (a.bytes + 3) // 4 * 4
        return offsets + [end]

    @property
    def scratch(self) -> int:
        return self.scratch_offsets[-1]


WEIGHTS_BYTES = 256  # constant arrays from this size on are a layer's weights: what --weights places


def _arrays(value: object) -> list[tuple[str, str | None, np.ndarray]]:
    """The constant arrays in a call's arguments, each as (name, ctype, data as emitted)."""
    if isinstance(value, Const):
        return [(value.name, value.ctype, np.asarray(value.data))]
    if isinstance(value, Packed):
        return [(f"{value.const.name}_{value.form}", None, value.stored())]
    if isinstance(value, Call):
        return _arrays(value.args)
    if isinstance(value, Struct):
        return _arrays(value.fields)
    if isinstance(value, dict):
        return _arrays(list(value.values()))
    if isinstance(value, (list, tuple)):
        return [array for v in value for array in _arrays(v)]
    return []


def const_arrays(value: object) -> list[tuple[str, int]]:
    """The constant arrays in a call's arguments (a Call, or any of its arguments): each one's name and
    bytes as emitted (an INT4 array packed two values a byte, float16 weights as float16)."""
    return [(name, data.nbytes) for name, _, data in _arrays(value)]


def const_bytes(value: object) -> int:
    """The bytes of the constant arrays in a call's arguments."""
    return sum(size for _, size in const_arrays(value))


ArrayKey = tuple[object, ...]


def array_key(ctype: str | None, data: np.ndarray) -> ArrayKey:
    """What makes two emitted constant arrays one: the same element type and the same bytes (emit_c emits
    such an array once, as the first layer holding it names it: the bands of one layer share its weights)."""
    return ctype, data.dtype.str, data.shape, hashlib.sha1(np.ascontiguousarray(data).tobytes()).digest()


def keyed_arrays(value: object) -> list[tuple[ArrayKey, int]]:
    """The constant arrays in a call's arguments, each as its array_key and its bytes."""
    return [(array_key(ctype, data), data.nbytes) for _, ctype, data in _arrays(value)]


def distinct_const_bytes(calls: Iterable[object], seen: set[ArrayKey] | None = None) -> list[int]:
    """Each call's constant bytes, an array an earlier call holds already counting nothing (as emitted)."""
    return distinct_bytes([keyed_arrays(call) for call in calls], seen)


def distinct_bytes(arrays: Iterable[list[tuple[ArrayKey, int]]], seen: set[ArrayKey] | None = None
                   ) -> list[int]:
    """distinct_const_bytes of calls' keyed_arrays."""
    seen = set() if seen is None else seen
    sizes = []
    for keyed in arrays:
        total = 0
        for key, size in keyed:
            if key not in seen:
                seen.add(key)
                total += size
        sizes.append(total)
    return sizes
