"""Make named tensors the model's outputs and drop what they don't need (`--outputs T1,T2`).

For a model whose tail mcugen can't run (a detection post-processing op, an ARG_MAX the application
does itself): the outputs become the named tensors, and only the ops they depend on are kept, in
order. Graph inputs all stay, so the inputs of the cut model are the model's own. Ops that write a
variable stay too, with what they need: the state the next invocation reads must be the model's.
"""
from __future__ import annotations

import dataclasses

from mcugen.errors import McugenError
from mcugen.ir.graph import Graph


def cut_outputs(g: Graph, requested: tuple[str, ...]) -> Graph:
    """requested: `--outputs` values, each a tensor name or several joined by commas."""
    if not requested:
        return g
    by_name = {t.name: t.index for t in g.tensors}
    names = tuple(n for value in requested for n in ([value] if value in by_name else value.split(",")))
    missing = [n for n in names if n not in by_name]
    if missing:
        raise McugenError(f"{g.name} has no tensor named '{missing[0]}'",
                          "pass names as `mcugen inspect MODEL` prints them in its partition report")
    outputs = tuple(by_name[n] for n in names)
    constant = [g.tensors[t].name for t in outputs if g.tensors[t].is_const]
    if constant:
        raise McugenError(f"{g.name}: '{constant[0]}' is a constant (weights, or shape arithmetic folded at "
                          "build time), not computed by a layer", "name tensors that layers compute")
    needed = set(outputs)
    kept = []
    for op in reversed(g.ops):
        if not op.outputs or needed & set(op.outputs):  # ASSIGN_VARIABLE: the next invocation reads it
            kept.append(op)
            needed.update(t for t in op.inputs if t >= 0)
    return dataclasses.replace(g.renumber(reversed(kept)), outputs=outputs, cut_at=tuple(names))
