"""PAD and PADV2: the pad value is the output zero point (PAD) or the given constant."""
from __future__ import annotations

import numpy as np

from mcugen.ops import OpDef, register
from mcugen.ops._quant import require_const, require_same_quant


@register("PAD", "PADV2")
class Pad(OpDef):
    def check(self, g, op):
        values = {2: "the pad value"} if op.input(g, 2) is not None else {}
        return require_same_quant(g, op) + require_const(g, op, {1: "the paddings", **values})

    def prepare(self, g, op):
        value = op.input(g, 2)
        pad_value = int(value.data.reshape(-1)[0]) if value is not None else op.output(g).quant.zp
        return dict(paddings=op.input(g, 1).data.astype(np.int64).tolist(), pad_value=pad_value)

    def run(self, g, op, xs):
        p = op.params
        return np.pad(xs[0], p["paddings"], mode="constant", constant_values=p["pad_value"])
