"""The house's size rules, so that no file grows back into what issue 44 took apart: C headers hold
prototypes, types and small inline helpers (at most 400 lines each), the target harness files stay
under 300 lines, and no test file passes 600."""
from __future__ import annotations

from conftest import ROOT


def _longer_than(files, limit: int) -> list[str]:
    return [f"{p.relative_to(ROOT)}: {n} lines" for p in files if (n := len(p.read_text().splitlines())) > limit]


def test_no_header_over_400_lines():
    assert _longer_than(sorted((ROOT / "runtime_c" / "include").glob("*.h")), 400) == []


def test_no_harness_file_over_300_lines():
    assert _longer_than(sorted((ROOT / "runtime_c" / "harness").glob("*.[ch]")), 300) == []


def test_no_test_file_over_600_lines():
    assert _longer_than(sorted((ROOT / "tests").glob("*.py")), 600) == []
