"""One layer's kernel call as C: its arguments rendered in the prototype's order, its constant arrays as
`static const` data named after the layer (emit_c.py puts the layers together into NAME.c)."""
from __future__ import annotations

from collections.abc import Callable
from typing import SupportsInt, cast

import numpy as np

from mcugen.ir.calls import WEIGHTS_BYTES, ArrayKey, array_key
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Packed, Scratch, Slice, State, Struct, layer_name
from mcugen.runtime import c_float

CTYPES = {np.dtype(np.int8): "int8_t", np.dtype(np.int16): "int16_t", np.dtype(np.int32): "int32_t",
           np.dtype(np.int64): "int64_t", np.dtype(np.uint16): "uint16_t", np.dtype(np.uint32): "uint32_t",
           np.dtype(np.uint64): "uint64_t", np.dtype(np.float32): "float", np.dtype(np.float16): "mcu_f16"}
# How an arena slice is passed to a kernel, by tensor dtype: bytes stay int8_t (uint8 too: the
# byte kernels index tables by them), wider types get their own pointer type.
SLICE_CASTS = {"float32": "(float *)", "float16": "(mcu_f16 *)", "int32": "(int32_t *)", "int16": "(int16_t *)", "uint32": "(uint32_t *)",
                "uint64": "(uint64_t *)"}


def c_values(data: np.ndarray) -> str:
    """An array's values as the lines of a C initializer."""
    flat = [c_float(v) if data.dtype.kind == "f" else str(int(v)) for v in np.asarray(data).reshape(-1)]
    per_line = 16 if np.asarray(data).dtype == np.int8 else 8
    return "\n".join("    " + ", ".join(flat[i:i + per_line]) + ","
                     for i in range(0, len(flat), per_line))


class LayerEmitter:
    """Turns one op's Call into C text, naming its constants after the layer."""

    def __init__(self, g: Graph, op: Op, slice_name: Callable[[int], str],
                 scratch_name: Callable[[Op, str, int], str], section: str, weights_section: str = "",
                 emitted: dict[ArrayKey, str] | None = None):
        self.g, self.op, self.slice_name, self.section = g, op, slice_name, section
        # array_key and section (a struct: its type, values and section) -> the name an earlier layer gave
        self.emitted = {} if emitted is None else emitted
        self.weights_section = weights_section  # where the layer's weight arrays go, when not with the rest
        self.scratch_name, self.prefix = scratch_name, layer_name(g, op)
        self.scratches = 0  # Scratch arguments rendered so far
        self.data: list[str] = []
        self.locals: list[str] = []
        self.const_bytes = self.external_bytes = 0

    @property
    def call(self) -> Call:
        """The op's call, where an argument of it is being rendered (so there is one)."""
        if self.op.call is None:
            raise RuntimeError(f"op {self.op.index} {self.op.opcode} has no call")
        return self.op.call

    def const(self, c: Const) -> str:
        name = f"{c.layer or self.prefix}_{c.name}"
        data = np.asarray(c.data)
        weights = c.ctype is None and self.weights_section and data.nbytes >= WEIGHTS_BYTES
        key = (*array_key(c.ctype, data), weights)
        if key in self.emitted:  # the same array an earlier layer holds (a band's weights): one copy in flash
            return self.emitted[key]
        self.emitted[key] = name
        if c.ctype is not None:
            rows = "\n".join("    {" + ", ".join(str(int(v)) for v in row) + "}," for row in data)
            self.data.append(f"static const {c.ctype} {name}[{len(data)}] {self.section} = {{\n{rows}\n}};")
            self.const_bytes += data.nbytes
            return name
        ctype = CTYPES[data.dtype]
        section = self.weights_section if weights else self.section
        self.data.append(f"static const {ctype} {name}[{max(data.size, 1)}] MCU_ALIGN(4) {section} = {{\n"
                         f"{c_values(data) if data.size else '    0,'}\n}};")
        if weights:
            self.external_bytes += data.nbytes
        else:
            self.const_bytes += data.nbytes
        return name

    def value(self, v: object) -> str:
        if v is None:
            return "NULL"
        if isinstance(v, Const):
            return self.const(v)
        if isinstance(v, dict):
            inner = ", ".join(f".{k} = {self.value(x)}" for k, x in v.items())
            return f"{{{inner}}}"
        if isinstance(v, (list, tuple)):
            return "{" + ", ".join(str(int(x)) for x in v) + "}"
        if isinstance(v, float):
            return c_float(v)
        if isinstance(v, str):  # an enumerator of mcu_nn.h
            return v
        return str(int(cast(SupportsInt, v)))  # an int of Python or numpy (a Call's args say which kinds)

    def packed(self, p: Packed) -> str:
        """The weights as flash keeps them (INT4 two to a byte, low nibble first as in the .tflite file;
        float16 bits) and, in the call's block, their unpacking into the call's scratch, which the call
        then reads."""
        values = p.const.data.reshape(-1)
        name = self.const(Const(f"{p.const.name}_{p.form}", p.stored(), layer=p.const.layer))
        offset = self.call.scratch_offsets[self.scratches]
        self.scratches += 1
        unpacked = self.scratch_name(self.op, CTYPES[values.dtype], offset)
        self.locals.append(f"{p.kernel}({name}, {values.size}, {unpacked});")
        return unpacked

    def struct(self, s: Struct) -> str:
        name = f"{s.layer or self.prefix}_{s.name}"
        fields = "\n".join(f"    .{k} = {self.value(v)}," for k, v in s.fields.items())
        key = ("struct", s.ctype, fields, self.section)
        if key in self.emitted:  # the same values an earlier call passes (a patch's dims, a layer's twin): one copy
            return f"&{self.emitted[key]}"
        self.emitted[key] = name
        self.data.append(f"static const {s.ctype} {name} {self.section} = {{\n{fields}\n}};")
        return f"&{name}"

    def tensor(self, t: int) -> str:
        tensor = self.g.tensors[t]
        if tensor.data is not None:  # a constant
            position = self.op.inputs.index(t)
            return self.const(Const(f"input{position}", tensor.data))
        cast = SLICE_CASTS.get(tensor.dtype)
        return f"{cast}({self.slice_name(t)})" if cast else self.slice_name(t)

    def slice(self, s: Slice) -> str:
        if not s.as_array:
            return self.tensor(s.tensors[0])
        # a local array: the slices' addresses depend on where the caller put the arena
        name = "outputs" if s.writable else "inputs"
        items = ", ".join(self.tensor(t) for t in s.tensors)
        pointer = "void *const" if s.writable else "const void *const"
        self.locals.append(f"{pointer} {name}[{len(s.tensors)}] = {{{items}}};")
        return name

    def arg(self, a: object) -> str:
        if isinstance(a, State):
            cast = SLICE_CASTS.get(str(self.g.variables[a.variable].initial.dtype))
            return f"{cast}(void *)(state + STATE_{a.variable})" if cast else f"state + STATE_{a.variable}"
        if isinstance(a, Scratch):
            offset = self.call.scratch_offsets[self.scratches]
            self.scratches += 1
            return self.scratch_name(self.op, a.ctype, offset)
        if isinstance(a, Packed):
            return self.packed(a)
        if isinstance(a, Struct):
            return self.struct(a)
        if isinstance(a, Slice):
            return self.slice(a)
        return self.value(a)

    def staged(self, a: object, places: dict[str, str]) -> str:
        """An argument whose constant arrays (the argument itself, field "", or fields of a struct) are copied
        into the arena before the call (passes/stage_weights.py), which then reads them there: a struct is
        passed as a copy on the stack whose fields point at them."""
        copies = {field: (a if not field else cast(Struct, a).fields[field], at) for field, at in places.items()}
        for c, at in copies.values():
            self.locals.append(f"memcpy({at}, {self.const(cast(Const, c))}, {cast(Const, c).data.nbytes});")

        def pointer(c: object, at: str) -> str:
            data = cast(Const, c)
            return f"(const {data.ctype or CTYPES[np.asarray(data.data).dtype]} *)(const void *)({at})"
        if isinstance(a, Const):
            return pointer(*copies[""])
        struct = cast(Struct, a)
        original, local = self.struct(struct)[1:], f"{struct.layer or self.prefix}_{struct.name}_staged"
        self.locals.append(f"{struct.ctype} {local} = {original};")
        self.locals += [f"{local}.{field} = {pointer(c, at)};" for field, (c, at) in copies.items()]
        return f"&{local}"

    def render(self, call: Call | None, staged: dict[tuple[str, str], dict[str, str]]) -> str | None:
        """The call's C; `staged`: the arena place of each constant array copied there first, by argument
        (Const.key) and struct field ("": the argument)."""
        if call is None:
            return None
        copied = [isinstance(a, (Const, Struct)) and a.key in staged for a in call.args]
        return wrap_call(call.kernel, [self.staged(a, staged[cast(Const, a).key]) if c else self.arg(a)
                                       for a, c in zip(call.args, copied)])


def wrap_call(function: str, args: list[str], width: int = 110) -> str:
    """A call with its arguments filled line by line, continuation lines aligned after the parenthesis."""
    lines, line = [], f"{function}("
    indent = " " * (4 + len(line))
    for k, a in enumerate(args):
        piece = a + (", " if k < len(args) - 1 else ")")
        if len(line) + len(piece.rstrip()) > width - 4 and line.strip() and not line.endswith("("):
            lines.append(line.rstrip())
            line = indent
        line += piece
    lines.append(line)
    return "\n".join(lines)


