"""Decide each op's C kernel call (Op.call); RESHAPE-like ops get none and alias their input."""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir import Graph


def lower_ops(g: Graph) -> Graph:
    return g.replace_ops(dataclasses.replace(op, call=ops.lookup(op.opcode).lower(g, op)) for op in g.ops)
