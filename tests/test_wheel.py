"""The package as users get it: a wheel built from the repo, installed without -e into a fresh
virtual environment, builds and validates a model on the host and on QEMU, and exports a library,
with nothing taken from the checkout."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from conftest import ROOT

KWS = ROOT / "examples" / "keyword_spotting" / "kws_dscnn.tflite"


def run(cmd, cwd: Path, env=None) -> str:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, f"{cmd}: {proc.stdout[-2000:]}{proc.stderr[-3000:]}"
    return proc.stdout


def test_wheel_installed_in_a_fresh_venv_builds_tests_and_exports(tmp_path):
    # a copy of what the wheel is made from, so the build leaves nothing in the checkout
    source = tmp_path / "source"
    for part in ("mcugen", "runtime_c", "boards"):
        shutil.copytree(ROOT / part, source / part, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, source / part)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", source], tmp_path)
    wheel = next((tmp_path / "dist").glob("mcugen-*.whl"))

    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    run([python, "-m", "pip", "install", "-q", wheel], tmp_path)
    where = run([python, "-c", "import mcugen; print(mcugen.__file__)"], tmp_path)
    assert str(tmp_path / "venv") in where and str(ROOT) not in where

    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(KWS, work / "kws.tflite")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    mcugen = tmp_path / "venv" / "bin" / "mcugen"
    out = run([mcugen, "test", "kws.tflite", "--board", "host", "--samples", "2"], work, env)
    assert "bit-exact on 2 sample(s) on host" in out
    out = run([mcugen, "test", "kws.tflite", "--board", "mps2-an386", "--samples", "2", "--out", "fw"], work, env)
    assert "bit-exact on 2 sample(s) on mps2-an386" in out
    run([mcugen, "export", "kws.tflite", "--name", "kws", "--out", "lib", "--format", "cmake"], work, env)
    assert (work / "lib" / "include" / "kws.h").exists() and (work / "lib" / "src" / "mcu_conv2d_s8.c").exists()
