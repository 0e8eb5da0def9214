"""The whole package type-checks (mypy, configured in pyproject.toml; strict on the IR, ops, passes, lowering and planning)."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_the_typed_modules_type_check():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
