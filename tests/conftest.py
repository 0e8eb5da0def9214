import os
import re
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "tests" / "models"
DSP = frozenset({"dsp"})  # what the emulated Cortex-M4 boards have: the DSP kernel variants
sys.path.insert(0, str(Path(__file__).parent))
# Kernel and harness objects, compiled once per test run and reused by every host C build.
OBJECT_CACHE = Path(tempfile.mkdtemp(prefix="mcugen-objects-"))

settings.register_profile("fast", max_examples=12, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))
LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"


def examples(n: int) -> int:
    """CI's budget for a test whose drawn cases each cost a firmware build (or one per candidate kernel), ten
    times it with HYPOTHESIS_PROFILE=long."""
    return n * 10 if LONG else n


@pytest.fixture(scope="session")
def models() -> Path:
    """The models the tests run (tests/models/README.md: provenance and licences)."""
    return MODELS


def lowered(before: str, features: frozenset[str] = frozenset(), budget=None, tuning=None, consts=None):
    """lower_ops, as the back end calls it, on the graph the IR text `before` states (Graph.parse; `consts`:
    the values of constants the text does not list), prepared (prepare_ops adds no line): where a test of a
    back-end pass starts (tests/test_passes.py)."""
    from mcugen.ir.budget import Budget
    from mcugen.ir.graph import Graph
    from mcugen.passes.lower_ops import lower_ops
    from mcugen.passes.prepare_ops import prepare_ops

    budget = budget or Budget()
    return lower_ops(prepare_ops(Graph.parse(before, consts)), features, tuning, budget.const_room, budget.optimize)


def kernel_parameters(kernel: str) -> list[tuple[list[str], str]]:
    """Each parameter of a kernel's prototype in the runtime headers, in order: its type's words and its name."""
    from mcugen.runtime import RUNTIME

    for header in sorted((RUNTIME / "include").glob("*.h")):
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", header.read_text(), flags=re.S)
        # a declaration starts its line with its type (a call in an inline helper is indented)
        match = re.search(rf"^[A-Za-z_][\w \*]*?\b{kernel}\s*\(([^;{{]*?)\)\s*;", text, re.S | re.M)
        if match:
            words = [re.findall(r"\w+", p) for p in match.group(1).split(",")]
            return [(w[:-1], w[-1]) for w in words]
    raise AssertionError(f"{kernel} has no prototype")


def argument(call, name: str):
    """What a kernel call passes as its prototype's parameter `name`."""
    names = [n for _, n in kernel_parameters(call.kernel)]
    assert len(names) == len(call.args) and name in names, (call.kernel, names)
    return call.args[names.index(name)]


def bit_exact_on_board(tmp: Path, model, seed: int, samples: int = 2, kernel: str | None = None,
                       force: bool = False, board: str = "mps2-an386"):
    """`model` (a tflite_writer.ModelSpec) built for an emulated board (the Cortex-M4 with its DSP kernels
    unless told), `samples` consecutive random inputs bit-exact with the golden model there. `kernel`: the
    one its first layer must run on (--optimize speed: widened weights are a candidate like any); `force`:
    chosen as --tune's rounds choose, where the default takes another."""
    from mcugen.targets.boards import load_board
    from mcugen.validation.compare import random_inputs
    from mcugen.targets.firmware import build_board
    from mcugen.codegen.outdir import OutDir
    from mcugen.codegen.pipeline import compile_model
    from mcugen.targets.target import Target
    from mcugen.ir.tuning import Tuning
    from mcugen.validation.validate import run_on_target
    from mcugen.kernels import candidates
    from mcugen.ir.budget import Budget

    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "op.tflite"
    path.write_bytes(model.build())
    features = load_board(board).features
    speed = Budget(optimize="speed")
    g = compile_model(path, features=features, budget=speed)
    if force:
        kernels = [call.kernel for call in candidates(g, g.ops[0], features)]
        g = compile_model(path, features=features, tuning=Tuning(board, "", {}, round=kernels.index(kernel)),
                          budget=speed)
    if kernel is not None:
        assert g.ops[0].call.kernel == kernel
    program = build_board(g, load_board(board), OutDir(tmp / "fw"), "op.tflite").program
    _, results = run_on_target(Target.of(board), program, g, random_inputs(g, samples, seed=seed))
    assert all(r.passed for r in results), [r.outputs for r in results]
