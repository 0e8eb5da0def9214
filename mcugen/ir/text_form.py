"""The IR's text form, one line at a time: what Graph.text() writes and Graph.parse() reads back.

The lines Graph.parse reads are those of the IR before lower_ops: the graph line, each tensor (its type,
shape, quantization, role, name, and its values where it has at most TEXT_VALUES), each op (its outputs,
opcode, inputs, output shape and the options that differ from its table's defaults, as keyword
arguments) with the facts the passes gave it, and the variables. A kernel call, an alias and an arena
place are the back end's, made again by its passes rather than read.
"""
from __future__ import annotations

import ast
import dataclasses
import re
from typing import NamedTuple

import numpy as np

from mcugen.ir.facts import Facts
from mcugen.ir.options import Options, record_of

TEXT_VALUES = 16  # the text lists the values of constants (and variables) this small: shapes, axes, small biases


def scale_text(scale: float) -> str:
    """A float32 scale, short where six digits give it back exactly, else its shortest exact form."""
    short = f"{scale:.6g}"
    return short if np.float32(short) == np.float32(scale) else str(np.float32(scale))


def values_text(data: np.ndarray) -> str:
    return f" = {data.ravel().tolist()}" if data.size <= TEXT_VALUES else ""


def options_text(options: Options) -> str:
    """The fields that differ from the record's defaults, as keyword arguments (`with padding='VALID'`)."""
    default = type(options)()
    changed = [f"{f.name}={getattr(options, f.name)!r}" for f in dataclasses.fields(options)
               if getattr(options, f.name) != getattr(default, f.name)]
    return f" with {', '.join(changed)}" if changed else ""


class TensorLine(NamedTuple):
    number: int
    dtype: str
    shape: tuple[int, ...]
    scales: tuple[float, ...]  # none: unquantized
    zero_points: tuple[int, ...]
    axis: int
    role: str  # input, output, const, variable or ""
    stored: str | None
    name: str
    values: np.ndarray | None  # where the line lists them


class OpLine(NamedTuple):
    number: int
    opcode: str
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    options: Options


_GRAPH = re.compile(r"graph (\S+) inputs=\(([^)]*)\) outputs=\(([^)]*)\)$")
_TENSOR = re.compile(r"  t(?P<number>\d+) (?P<dtype>\w+)\[(?P<shape>[\d, ]*)\]"
                     r"(?: scale (?P<scale>\S+) zp (?P<zp>-?\d+)"
                     r"| scales \[(?P<scales>[^\]]*)\] zps \[(?P<zps>[^\]]*)\] on axis (?P<axis>\d+)"
                     r"| (?P<many>\d+) scales on axis \d+)?"
                     r" (?:(?P<role>input|output|const|variable) )?(?:\((?P<stored>\w+) in the file\) )?"
                     r"'(?P<name>.*?)'(?: = \[(?P<values>.*)\])?$")
_OP = re.compile(r"  (\d+): ([^=]*?) = (\S+?)\(([^)]*)\) -> \[[\dx]*\](?: with (.*))?$")
_PADS = re.compile(r"     pads \[\[top, bottom\], \[left, right\]\] \[\[(\d+), (\d+)\], \[(\d+), (\d+)\]\] .*$")
_CLAMP = re.compile(r"     clamp \[(-?\d+), (-?\d+)\] .*$")
_STATE = re.compile(r"     input (-?\d+) is variable (\d+)$")
_ON_VARIABLE = re.compile(r"     on variable (\d+)$")
_GROUPS = re.compile(r"     a grouped conv of (\d+) groups in the file$")
_VARIABLE = re.compile(r"variable (\d+) '(.*?)' (\w+)\[([\d, ]*)\](?: = \[(.*)\])?$")


def tensor_names(text: str) -> tuple[int, ...]:
    """t0, -, t3 -> (0, -1, 3)."""
    return tuple(-1 if name == "-" else int(name.removeprefix("t")) for name in text.split(", ") if name)


def shape_of(text: str) -> tuple[int, ...]:
    return tuple(int(d) for d in text.split(", ") if d)


def values_of(text: str | None, dtype: str, shape: tuple[int, ...]) -> np.ndarray | None:
    """A listed constant's values (nan and inf as Python writes them), in its dtype (int4's held as int8)."""
    if text is None:
        return None
    tokens = [v for v in text.split(", ") if v]
    kind = np.dtype("int8" if dtype == "int4" else dtype)
    read = [v == "True" for v in tokens] if kind == np.bool_ else \
        [float(v) for v in tokens] if kind.kind == "f" else [int(v) for v in tokens]
    return np.array(read, dtype=kind).reshape(shape)


def fp16_line(line: str) -> tuple[str, ...]:
    """`fp16 layers ['name', ...]`: Graph.fp16_layers."""
    try:
        names = ast.literal_eval(line[len("fp16 layers "):])
    except (ValueError, SyntaxError):
        names = None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"not the fp16 layers line `fp16 layers ['name', ...]`: {line!r}")
    return tuple(names)


def graph_line(line: str) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    match = _require(_GRAPH, line, "a graph line: graph NAME inputs=(...) outputs=(...)")
    return match[1], tensor_names(match[2]), tensor_names(match[3])


def tensor_line(line: str) -> TensorLine:
    m = _require(_TENSOR, line, "a tensor: tK dtype[shape] [quantization] [role] 'name' [= values]")
    shape = shape_of(m["shape"])
    scales: tuple[float, ...] = ()
    zero_points: tuple[int, ...] = ()
    axis = 0
    if m["scale"] is not None:
        scales, zero_points = (float(m["scale"]),), (int(m["zp"]),)
    elif m["scales"] is not None:
        scales, zero_points, axis = tuple(map(float, m["scales"].split(", "))), shape_of(m["zps"]), int(m["axis"])
    elif m["many"] is not None:
        raise ValueError(f"tensor t{m['number']} '{m['name']}' has {m['many']} scales, more than the text lists")
    return TensorLine(int(m["number"]), m["dtype"], shape, scales, zero_points, axis, m["role"] or "", m["stored"],
                      m["name"], values_of(m["values"], m["dtype"], shape))


def op_line(line: str) -> OpLine:
    m = _require(_OP, line, "an op: K: outputs = OPCODE(inputs) -> [shape] [with options]")
    return OpLine(int(m[1]), m[3], tensor_names(m[4]), tensor_names(m[2]), _options(m[3], m[5] or ""))


def with_fact(facts: Facts, line: str) -> Facts | None:
    """`facts` with the one an op's fact line states; None for a line that is no fact."""
    if m := _PADS.match(line):
        return dataclasses.replace(facts, folded_pad=((int(m[1]), int(m[2])), (int(m[3]), int(m[4]))))
    if m := _CLAMP.match(line):
        return dataclasses.replace(facts, clamp=(int(m[1]), int(m[2])))
    if m := _STATE.match(line):
        return dataclasses.replace(facts, state={**facts.state, int(m[1]): int(m[2])})
    if m := _ON_VARIABLE.match(line):
        return dataclasses.replace(facts, variable=int(m[1]))
    if m := _GROUPS.match(line):
        return dataclasses.replace(facts, groups=int(m[1]))
    return None


def variable_line(line: str) -> tuple[str, str, tuple[int, ...], np.ndarray | None]:
    """(name, dtype, shape, its values where listed)."""
    m = _require(_VARIABLE, line, "a variable: variable K 'name' dtype[shape] [= values]")
    shape = shape_of(m[4])
    return m[2], m[3], shape, values_of(m[5], m[3], shape)


def _options(opcode: str, text: str) -> Options:
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError("positional arguments")
        return record_of(opcode)(**{str(k.arg): ast.literal_eval(k.value) for k in call.keywords})
    except (SyntaxError, ValueError, TypeError) as exc:
        raise ValueError(f"not {opcode}'s options as keyword arguments ({exc}): {text!r}") from None


def _require(pattern: re.Pattern[str], line: str, what: str) -> re.Match[str]:
    match = pattern.match(line)
    if match is None:
        raise ValueError(f"not {what}: {line!r}")
    return match
