"""Structural check of a whole TFLite FlatBuffer before any field is read.

The reader looks at a few dozen fields; a corrupt offset anywhere else (metadata, a
signature, an option table of an op nobody runs) would go unnoticed, while TFLite's
loaders and TFLM's Python interpreter, which walk every table, refuse the file. So
every table reachable from the root is checked as FlatBuffers' own C++ verifier checks
it: offsets positive and aligned, vtables inside the file and of even size, every
present field inside the file and aligned to its size, vectors and strings inside the
file, strings NUL-terminated, union members of a known type checked as their table.

The layout of each table (field slot, kind, element size, child table) is not written
out by hand: it is read once from the generated schema classes of the `tflite`
package, whose accessors state it in their code.
"""
from __future__ import annotations

import functools
import inspect
import re
import struct

import flatbuffers
import tflite

_SLOT = re.compile(r"Offset\((\d+)\)")
_FLAGS = re.compile(r"number_types\.(\w+Flags), (?:o|a)")
_CHILD = re.compile(r"from tflite\.(\w+) import")
_STRIDE = re.compile(r"j \* (\d+)")
# Union fields name their enum differently from themselves in a few places.
_UNION_ENUMS = {"BuiltinOptions": "BuiltinOptions", "BuiltinOptions2": "BuiltinOptions2",
                "Details": "QuantizationDetails", "ArraySegments": "SparseIndexVector",
                "ArrayIndices": "SparseIndexVector"}
_SKIP = ("Init", "GetRootAs")


class CorruptFlatBuffer(ValueError):
    pass


@functools.cache
def _layout(class_name: str) -> tuple:
    """(accessor, slot, kind, size, child) for every field of a generated table class."""
    cls = getattr(tflite, class_name)
    fields: list[tuple[str, int, str, int, str | None]] = []
    for name, method in vars(cls).items():
        if not callable(method) or name.startswith(_SKIP) or name.endswith(("AsNumpy", "Length", "IsNone")) \
                or name.startswith("_") or "BufferHasIdentifier" in name:
            continue
        source = inspect.getsource(method)
        found = _SLOT.search(source)
        if found is None:
            continue
        slot = int(found.group(1))

        def group(pattern: re.Pattern[str]) -> str:
            match = pattern.search(source)
            if match is None:
                raise RuntimeError(f"tflite.{class_name}.{name}: generated code of an unknown shape")
            return match.group(1)

        if "_tab.Union(" in source:
            fields.append((name, slot, "union", 4, _UNION_ENUMS[name]))
        elif "_tab.Vector(" in source:
            if "Indirect" in source:
                fields.append((name, slot, "table_vector", 4, group(_CHILD)))
            elif "_tab.String(" in source:
                fields.append((name, slot, "string_vector", 4, None))
            else:
                fields.append((name, slot, "vector", int(group(_STRIDE)), None))
        elif "Indirect" in source:
            fields.append((name, slot, "table", 4, group(_CHILD)))
        elif "_tab.String(" in source:
            fields.append((name, slot, "string", 4, None))
        else:
            fields.append((name, slot, "scalar", getattr(flatbuffers.number_types, group(_FLAGS)).bytewidth, None))
    return tuple(fields)


@functools.cache
def _union_members(enum_name: str) -> dict[int, str]:
    enum = getattr(tflite, enum_name)
    return {v: k for k, v in vars(enum).items()
            if isinstance(v, int) and not k.startswith("_") and hasattr(tflite, k)}


class _Checker:
    def __init__(self, buf: bytes):
        self.buf = buf
        self.seen: set[tuple[int, str]] = set()

    def need(self, pos: int, size: int, align: int, what: str) -> None:
        if pos < 0 or pos + size > len(self.buf):
            raise CorruptFlatBuffer(f"{what} at byte {pos} runs past the end of the file ({len(self.buf)} bytes)")
        if pos % align:
            raise CorruptFlatBuffer(f"{what} at byte {pos} is not aligned to {align} bytes")

    def u16(self, pos: int) -> int:
        return struct.unpack_from("<H", self.buf, pos)[0]

    def u32(self, pos: int) -> int:
        return struct.unpack_from("<I", self.buf, pos)[0]

    def follow(self, pos: int, what: str) -> int:
        """The target of the 32-bit offset stored at pos."""
        self.need(pos, 4, 4, what)
        offset = self.u32(pos)
        if offset == 0 or offset >= 1 << 31:
            raise CorruptFlatBuffer(f"{what} at byte {pos} has an invalid offset {offset}")
        return pos + offset

    def vector(self, pos: int, elem: int, what: str) -> tuple[int, int]:
        """(first element, count) of the vector whose length word is at pos."""
        self.need(pos, 4, 4, what)
        count = self.u32(pos)
        self.need(pos + 4, count * elem, 1, f"{what} of {count} elements")
        return pos + 4, count

    def string(self, pos: int, what: str) -> None:
        start, count = self.vector(pos, 1, what)
        self.need(start + count, 1, 1, what)
        if self.buf[start + count] != 0:
            raise CorruptFlatBuffer(f"{what} at byte {pos} is not NUL-terminated")

    def table(self, pos: int, class_name: str) -> None:
        if (pos, class_name) in self.seen:
            return
        self.seen.add((pos, class_name))
        self.need(pos, 4, 4, class_name)
        vtable = pos - struct.unpack_from("<i", self.buf, pos)[0]
        self.need(vtable, 4, 2, f"{class_name}'s vtable")
        vsize = self.u16(vtable)
        if vsize < 4 or vsize % 2:
            raise CorruptFlatBuffer(f"{class_name}'s vtable at byte {vtable} has size {vsize}")
        self.need(vtable, vsize, 2, f"{class_name}'s vtable")
        for name, slot, kind, size, child in _layout(class_name):
            if slot + 2 > vsize:
                continue
            field = self.u16(vtable + slot)
            if field == 0:
                continue
            where, what = pos + field, f"{class_name}.{name}"
            if kind == "scalar":
                self.need(where, size, size, what)
                continue
            target = self.follow(where, what)
            if kind == "table":
                self.table(target, child)
            elif kind == "string":
                self.string(target, what)
            elif kind == "vector":
                self.vector(target, size, what)
            elif kind == "union":
                member = _union_members(child).get(self.union_type(pos, vtable, vsize, class_name, name))
                if member is not None:
                    self.table(target, member)
            else:
                start, count = self.vector(target, 4, what)
                for k in range(count):
                    element = self.follow(start + 4 * k, f"{what}[{k}]")
                    if kind == "table_vector":
                        self.table(element, child)
                    else:
                        self.string(element, f"{what}[{k}]")

    def union_type(self, pos: int, vtable: int, vsize: int, class_name: str, name: str) -> int:
        """The value of the union's companion one-byte `<name>Type` field (0, NONE, when absent)."""
        slot = next(slot for other, slot, *_ in _layout(class_name) if other == name + "Type")
        field = self.u16(vtable + slot) if slot + 2 <= vsize else 0
        return self.buf[pos + field] if field else 0


def check_flatbuffer(buf: bytes) -> None:
    """Raise CorruptFlatBuffer naming the first structural fault of a TFLite file."""
    checker = _Checker(buf)
    checker.table(checker.follow(0, "the root offset"), "Model")
