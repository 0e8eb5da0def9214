"""The C runtime as files: where it is, one file of it, and the numbers its headers define.

The generators must agree with the C on a few numbers (the largest rank a copy walks, the output
positions a blocked conv kernel computes at a time, the accumulator bound of the fast requantize).
The headers are their one source: Python reads them from there rather than keeping copies.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from mcugen.errors import McugenError

RUNTIME = Path(__file__).resolve().parent / "runtime_c"  # ../runtime_c in a checkout (a link), package data in a wheel
# ISA extensions a core may have, a board's chip says it has, and kernel variants need: each a folder of runtime_c/
FEATURES = ("dsp", "mve")
# the helpers of runtime_c/<feature>/'s kernels, named after the feature (mcu_nn_dsp.h, mcu_nn_dw_dsp.h ...):
# only a build for a core with it has them
FEATURE_HEADERS = {feature: tuple(sorted(f"include/{p.name}" for p in (RUNTIME / "include").glob(f"mcu_nn*_{feature}.h")))
                   for feature in FEATURES}
# mcu_nn.h, the headers of the kernel families it includes, and mcu_nn_support.h: every build's
HEADERS = tuple(sorted(f"include/{p.name}" for p in (RUNTIME / "include").glob("mcu_nn*.h")
                       if not any(f"include/{p.name}" in headers for headers in FEATURE_HEADERS.values())))


def runtime_file(relative: str) -> Path:
    path = RUNTIME / relative
    if not path.is_file():
        raise McugenError(f"mcugen's C runtime is incomplete: {path} is missing",
                          "reinstall mcugen (pip install --force-reinstall mcugen, or pip install -e . in a checkout)")
    return path


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
    for header in (*HEADERS, *(h for headers in FEATURE_HEADERS.values() for h in headers)):
        found = re.search(rf"^#define {name}\s+(.+?)\s*(?:/\*.*)?$", runtime_file(header).read_text(), re.M)
        if found:
            return _integer(found.group(1))
    raise McugenError(f"mcugen's C runtime defines no {name}", "reinstall mcugen")
