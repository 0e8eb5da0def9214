"""Decide each op's C kernel call (Op.call); RESHAPE-like ops get none and alias their input.

features: the ISA features of the target's core (Graph.features): each layer gets the first kernel
variant they allow and that takes it, else its reference kernel (mcugen/variants.py).
tuning (mcugen.tune): each measured layer gets the candidate that measured fastest.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from mcugen.ir import Graph
from mcugen.variants import lower_layer

if TYPE_CHECKING:  # tune.py builds and measures through the pipeline, which runs this pass
    from mcugen.tune import Tuning


def lower_ops(g: Graph, features: frozenset[str] = frozenset(), tuning: Tuning | None = None) -> Graph:
    g = dataclasses.replace(g, features=frozenset(features), tuning=tuning)
    return g.replace_ops(dataclasses.replace(op, call=lower_layer(
        g, op, g.features, tuning.rank_of(op.index) if tuning is not None else 0)) for op in g.ops)
