"""LEAKY_RELU: TFLM QuantizeLeakyRelu, two multipliers chosen by the input's sign."""
from __future__ import annotations

import numpy as np

from mcugen.ops import register
from mcugen.ops._quant import LutOp
from mcugen.requant import quantize_multiplier, requantize


@register("LEAKY_RELU")
class LeakyRelu(LutOp):
    def table(self, g, op, x):
        xt, y = op.input(g, 0), op.output(g)
        s_in, s_out = np.float32(xt.quant.s), np.float32(y.quant.s)
        alpha = np.float32(op.attrs.get("alpha", 0.2))
        # TFLM forms both ratios in float32 before widening to double.
        m_alpha, s_alpha = quantize_multiplier(float(s_in * alpha / s_out))
        m_id, s_id = quantize_multiplier(float(s_in / s_out))
        d = x - xt.quant.zp
        return y.quant.zp + np.where(d >= 0, requantize(d, m_id, s_id), requantize(d, m_alpha, s_alpha))
