"""The C runtime as files: where it is, one file of it, the numbers its headers define, and a float as C reads it.

The generators must agree with the C on a few numbers (the largest rank a copy walks, the output
positions a blocked conv kernel computes at a time, the accumulator bound of the fast requantize).
The headers are their one source: Python reads them from there rather than keeping copies.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError

RUNTIME = Path(__file__).resolve().parent / "runtime_c"  # ../runtime_c in a checkout (a link), package data in a wheel
# ISA extensions a core may have, a board's chip says it has, and kernel variants need: each a folder of runtime_c/
FEATURES = ("dsp", "mve")
# what the compiler defines for a core with each (Arm C Language Extensions): the variants compile nowhere else
FEATURE_MACROS = {"dsp": "__ARM_FEATURE_DSP", "mve": "__ARM_FEATURE_MVE"}
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)


def runtime_file(relative: str) -> Path:
    path = RUNTIME / relative
    if not path.is_file():
        raise McugenError(f"mcugen's C runtime is incomplete: {path} is missing",
                          "reinstall mcugen (pip install --force-reinstall mcugen, or pip install -e . in a checkout)")
    return path


def included_headers(sources: list[str]) -> dict[str, str]:
    """The runtime's headers (runtime_c/include) the C `sources` include, directly or through one another, by
    name: what a build or an export of them needs and nothing else (a plain CNN's library carries no FFT or
    LSTM header). Headers of other folders (generated ones, the harness's) are the caller's."""
    found: dict[str, str] = {}
    wanted = [name for text in sources for name in _INCLUDE.findall(text)]
    while wanted:
        name = wanted.pop()
        if name not in found and (RUNTIME / "include" / name).is_file():
            found[name] = runtime_file(f"include/{name}").read_text()
            wanted += _INCLUDE.findall(found[name])
    return found


def kernel_file(kernel: str, features: frozenset[str]) -> str:
    """Where a kernel's file is for a core with `features`: its variant folder's, else runtime_c/src/."""
    folder = next((f for f in sorted(features) if (RUNTIME / f / f"{kernel}.c").is_file()), "src")
    return f"{folder}/{kernel}.c"


_WEAK = re.compile(r"^#pragma weak (\w+)", re.M)
_CALLED = re.compile(r"\b(mcu_\w+)\s*\(")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


@functools.cache
def with_callees(kernels: frozenset[str], features: frozenset[str]) -> tuple[str, ...]:
    """The kernels and every runtime function they call that has a file of its own (a body several
    kernels share, a helper in assembly), found in their files: what a build compiles, sorted. A weak
    reference (`#pragma weak`: a kernel another build may link) is not a call."""
    found, todo = set(kernels), list(kernels)
    while todo:
        path = RUNTIME / kernel_file(todo.pop(), features)
        if not path.is_file():
            continue  # the user's own kernels (--ops) live with the model
        text = path.read_text()
        weak = set(_WEAK.findall(text))
        for name in set(_CALLED.findall(_COMMENT.sub("", text))) - weak - found:
            if (RUNTIME / kernel_file(name, features)).is_file():
                found.add(name)
                todo.append(name)
    return tuple(sorted(found))


def _integer(expression: str) -> int:
    """An integer constant expression of C (literals, + - * << >> and parentheses), evaluated."""
    tree = ast.parse(re.sub(r"(?<=\d)[uUlL]+\b", "", expression), mode="eval")
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult,
               ast.LShift, ast.RShift, ast.USub)
    if not all(isinstance(node, allowed) for node in ast.walk(tree)):
        raise ValueError(f"not an integer constant: {expression}")
    return int(eval(compile(tree, "<C>", "eval")))  # noqa: S307 - only literals and arithmetic, checked above


@functools.cache
def c_define(name: str) -> int:
    """The value of `#define NAME <integer expression>` in the runtime's headers."""
    for header in sorted((RUNTIME / "include").glob("mcu_nn*.h")):
        found = re.search(rf"^#define {name}\s+(.+?)\s*(?:/\*.*)?$", header.read_text(), re.M)
        if found:
            return _integer(found.group(1))
    raise McugenError(f"mcugen's C runtime defines no {name}", "reinstall mcugen")


def c_float(value: float) -> str:
    """A C float literal that reads back as the same float32 (9 significant digits always do; the
    infinities and NaN as math.h's macros)."""
    value = float(np.float32(value))
    if not np.isfinite(value):
        return "NAN" if np.isnan(value) else ("INFINITY" if value > 0 else "-INFINITY")
    text = f"{value:.9g}"
    return text + ("f" if any(c in text for c in ".e") else ".0f")
