"""Compute at build time what TFLM computes in Prepare, into each op's params."""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir.graph import Graph


def prepare_ops(g: Graph) -> Graph:
    return g.replace_ops(dataclasses.replace(op, params=ops.get(g, op).prepare(g, op))
                         for op in g.ops)
