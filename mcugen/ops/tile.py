"""TILE with constant multiples (neither oracle has an int8 kernel: numpy's np.tile is the definition)."""
from __future__ import annotations

import numpy as np

from mcugen.ops import OpDef, register
from mcugen.ops._quant import require_const, require_same_quant


@register("TILE")
class Tile(OpDef):
    def check(self, g, op):
        return require_same_quant(g, op) + require_const(g, op, {1: "the multiples"})

    def prepare(self, g, op):
        return dict(multiples=[int(v) for v in op.input(g, 1).data.reshape(-1)])

    def run(self, g, op, xs):
        return np.tile(xs[0], op.params["multiples"])
