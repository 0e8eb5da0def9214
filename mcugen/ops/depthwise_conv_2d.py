"""DEPTHWISE_CONV_2D: TFLM reference_integer_ops::DepthwiseConvPerChannel.

Output channel oc = ic * depth_multiplier + m reads input channel ic, so the
input is repeated depth_multiplier times along C and each kernel tap becomes
one vectorised multiply-add.
"""
from __future__ import annotations

import numpy as np

from mcugen.ops import OpDef, register
from mcugen.ops._quant import channel_multipliers, fused_range, problems_fused_activation, weight_problems
from mcugen.ops._window import geometry, windows
from mcugen.requant import requantize, wrap_int32


@register("DEPTHWISE_CONV_2D")
class DepthwiseConv2D(OpDef):
    def check(self, g, op):
        problems = weight_problems(g, op) + problems_fused_activation(op)
        x, w = op.input(g, 0), op.input(g, 1)
        if w.shape[3] % x.shape[3]:
            problems.append(f"{w.shape[3]} output channels is not a multiple of {x.shape[3]} input channels")
        if w.quant is not None and np.any(w.quant.zero_point != 0):
            problems.append("filter zero point is not 0")
        return problems

    def prepare(self, g, op):
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        mult, shift = channel_multipliers(x, w, y, w.shape[3])
        act_min, act_max = fused_range(g, op)
        geo = geometry(op.attrs, x.shape[1:3], w.shape[1:3])
        return dict(geo, multiplier=mult, shift=shift, act_min=act_min, act_max=act_max,
                    input_zp=x.quant.zp, output_zp=y.quant.zp,
                    depth_multiplier=w.shape[3] // x.shape[3])

    def run(self, g, op, xs):
        x, w, b = xs[0], xs[1], xs[2] if len(xs) > 2 else None
        p = op.params
        _, kh, kw, cout = w.shape
        shifted = np.repeat(x.astype(np.int64) - p["input_zp"], p["depth_multiplier"], axis=3)
        taps = windows(shifted, (kh, kw), p, 0)
        acc = np.zeros(taps.shape[:3] + (cout,), dtype=np.int64)
        wk = w[0].astype(np.int64)
        for i in range(kh):
            for j in range(kw):
                acc += taps[:, :, :, i, j, :] * wk[i, j]
        if b is not None:
            acc += b.astype(np.int64)
        out = requantize(wrap_int32(acc), p["multiplier"], p["shift"]) + p["output_zp"]
        return np.clip(out, p["act_min"], p["act_max"]).astype(np.int8)

    def macs(self, g, op):
        w, y = op.input(g, 1), op.output(g)
        return int(np.prod(y.shape)) * w.shape[1] * w.shape[2]
