"""PACK: N tensors of one shape stacked along a new axis (int8 values copied as they are, as TFLM
does; int32 shape arithmetic is folded at build time).

Stacking along `axis` moves the same bytes as concatenating along it: each input contributes
prod(shape[axis:]) values per outer index either way, so CONCATENATION's lowering serves."""
from __future__ import annotations

import numpy as np

from mcugen.ops import register
from mcugen.ops.concatenation import Concatenation


@register("PACK")
class Pack(Concatenation):
    def run(self, g, op, xs):
        return np.stack(xs, axis=op.params["axis"])
