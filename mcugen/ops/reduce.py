"""MEAN (TFLM QuantizedMeanOrSum) and REDUCE_MAX (values copied, no rescale).

MEAN folds 1/N into the output multiplier: with k = floor(log2 N) (capped so the
shift stays valid), m' = (m << k) // N and shift' = shift - k, then the
zero-point-corrected sum is requantized once with (m', shift').
"""
from __future__ import annotations

import numpy as np

from mcugen.ops import OpDef, register
from mcugen.ops._quant import require_const, require_same_quant
from mcugen.requant import quantize_multiplier, requantize, saturate_int8, wrap_int32


class _Reduce(OpDef):
    def check(self, g, op):
        return require_const(g, op, {1: "the reduction axes"})

    def prepare(self, g, op):
        x = op.input(g, 0)
        rank = len(x.shape)
        axes = sorted({int(a) % rank for a in op.input(g, 1).data.reshape(-1)})
        count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
        return dict(axes=axes, count=count)


@register("MEAN")
class Mean(_Reduce):
    def prepare(self, g, op):
        p = super().prepare(g, op)
        x, y = op.input(g, 0), op.output(g)
        m, s = quantize_multiplier(float(x.quant.s) / float(y.quant.s))
        k = min(p["count"].bit_length() - 1, 32, 31 + s)
        return dict(p, multiplier=(m << k) // p["count"], shift=s - k,
                    input_zp=x.quant.zp, output_zp=y.quant.zp)

    def run(self, g, op, xs):
        p = op.params
        total = xs[0].astype(np.int64).sum(axis=tuple(p["axes"])) - p["input_zp"] * p["count"]
        out = requantize(wrap_int32(total), p["multiplier"], p["shift"]) + p["output_zp"]
        return saturate_int8(out).reshape(op.output(g).shape)


@register("REDUCE_MAX")
class ReduceMax(_Reduce):
    def check(self, g, op):
        return super().check(g, op) + require_same_quant(g, op)

    def run(self, g, op, xs):
        return xs[0].max(axis=tuple(op.params["axes"])).reshape(op.output(g).shape)
