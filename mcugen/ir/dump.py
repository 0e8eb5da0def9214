"""The IR after every pass, as text, for whoever wonders what a pass did: `mcugen --dump-ir DIR ...`
(or MCUGEN_DUMP_IR=DIR) writes DIR/NN_<pass>.txt, numbered in pipeline order (Graph.text). The passes and their
order are codegen/pipeline.py's calls of `after`, read from its source: the pipeline names each pass once."""
from __future__ import annotations

import ast
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from mcugen.errors import McugenError
from mcugen.ir.graph import Graph

G = TypeVar("G", bound=Graph)  # a pass's result, Compiled from plan_memory on

ENV = "MCUGEN_DUMP_IR"
PIPELINE = Path(__file__).resolve().parents[1] / "codegen" / "pipeline.py"


@cache
def passes() -> tuple[str, ...]:
    """The pipeline's passes in its order: the steps its source hands to `after`, first to last."""
    calls = [node for node in ast.walk(ast.parse(PIPELINE.read_text()))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "after"]
    steps = [call.args[0] for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset))]
    return tuple(step.id if isinstance(step, ast.Name) else step.attr
                 for step in steps if isinstance(step, (ast.Name, ast.Attribute)))


def after(step: Callable[..., G], *args: Any) -> G:
    """The pass `step` run on `args`, its result written out (named after the function) when dumping is asked for."""
    graph = step(*args)
    folder = os.environ.get(ENV)
    if folder:
        name = step.__name__
        path = Path(folder) / f"{passes().index(name) + 1:02d}_{name}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(graph.text() + "\n")
        except OSError as exc:
            raise McugenError(f"cannot write {path} ({exc.strerror})", "choose another --dump-ir folder") from None
    return graph
