"""The house's size rules, so that no file grows back into what issue 44 took apart: C headers hold
prototypes, types and small inline helpers (at most 400 lines each), the target harness files stay
under 300 lines, no test file passes 600, no module of the package 400, and no function of it 60 (the
command line's parser excepted: a table of its options, read top to bottom)."""
from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "mcugen"


def _longer_than(files, limit: int) -> list[str]:
    return [f"{p.relative_to(ROOT)}: {n} lines" for p in files if (n := len(p.read_text().splitlines())) > limit]


def test_no_header_over_400_lines():
    assert _longer_than(sorted((ROOT / "runtime_c" / "include").glob("*.h")), 400) == []


def test_no_harness_file_over_300_lines():
    assert _longer_than(sorted((ROOT / "runtime_c" / "harness").glob("*.[ch]")), 300) == []


def test_no_test_file_over_600_lines():
    assert _longer_than(sorted((ROOT / "tests").glob("*.py")), 600) == []


def test_no_module_over_400_lines():
    assert _longer_than(sorted(PACKAGE.rglob("*.py")), 400) == []


def test_no_function_over_60_lines():
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name != "build_parser":
                lines = node.end_lineno - node.lineno + 1
                if lines > 60:
                    long.append(f"{path.relative_to(ROOT)}: {node.name}, {lines} lines")
    assert long == []
