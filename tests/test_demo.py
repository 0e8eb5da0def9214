"""The README's first command, scripts/demo.sh, as a new user runs it: its install set holds no TensorFlow or
PyTorch, none of its mcugen commands imports them, and it leaves its pages and firmware in the one folder it
names, nothing elsewhere."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, requires

from conftest import ROOT

HEAVY = {"tensorflow", "tensorflow-cpu", "torch", "keras", "jax", "litert-torch"}

# every mcugen process of the demo writes the top-level modules it imported, at exit
SITECUSTOMIZE = """
import atexit, os, sys
def _seen():
    with open(os.path.join(os.environ["DEMO_IMPORTS"], str(os.getpid())), "w") as f:
        f.write("\\n".join(sorted({m.split(".")[0] for m in sys.modules})))
atexit.register(_seen)
"""


def closure(extra: str) -> set[str]:
    """The distributions `pip install mcugen[extra]` brings, from the installed packages' metadata."""
    def name(req: str) -> str:
        return re.split(r"[\s;<>=!~\[(]", req, maxsplit=1)[0].lower().replace("_", "-")

    wanted = [r for r in requires("mcugen") or [] if "extra ==" not in r or f'extra == "{extra}"' in r]
    seen: set[str] = set()
    while wanted:
        req = wanted.pop()
        if "extra ==" in req.split(";", 1)[-1] and f'extra == "{extra}"' not in req:
            continue
        dist = name(req)
        if dist in seen:
            continue
        seen.add(dist)
        try:
            wanted += [r for r in requires(dist) or [] if "extra ==" not in r]
        except PackageNotFoundError:  # a marker's platform-only dependency
            pass
    return seen


def test_the_demo_installs_and_imports_no_tensorflow_or_torch(tmp_path):
    script = (ROOT / "scripts" / "demo.sh").read_text()
    assert "MCUGEN_EXTRAS=quantize" in script
    assert not closure("quantize") & HEAVY
    hooks, imports, work = tmp_path / "hooks", tmp_path / "imports", tmp_path / "work"
    for folder in (hooks, imports, work):
        folder.mkdir()
    (hooks / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ, PYTHONPATH=str(hooks), DEMO_IMPORTS=str(imports),
               PATH=f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}")
    done = subprocess.run(["bash", ROOT / "scripts" / "demo.sh"], cwd=work, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert os.listdir(work) == ["mcugen-demo"]  # one folder, named on the last line
    out = work / "mcugen-demo"
    assert f"open {out}/digits.html" in done.stdout.splitlines()[-1]
    report = json.loads((out / "digits.json").read_text())
    assert report["failed"] == 0 and report["reference"]["top1"] is not None and report["accuracy"]["per_class"]
    assert (out / "kws.html").stat().st_size and (out / "kws-nano33" / ".pio" / "build").is_dir()
    seen = [set((imports / pid).read_text().split()) for pid in os.listdir(imports)]
    assert len(seen) >= 5  # the five mcugen commands
    assert not set().union(*seen) & {"tensorflow", "torch", "keras", "jax", "litert_torch"}
