"""LEAKY_RELU: TFLM QuantizeLeakyRelu, two multipliers chosen by the input's sign; int8 tabulated for
the 256 inputs, int16 computed (mcu_leaky_relu_s16). A negative alpha is rescaled by the multiplier of
|s_in * alpha / s_out| and the rescaled value negated, as TFLM does (its requantize takes no negative
multiplier)."""
from __future__ import annotations

import numpy as np

from mcugen.lowering import Call, Struct, reads, writes
from mcugen.ops import register
from mcugen.ops._quant import LutOp
from mcugen.requant import quantize_multiplier, requantize


@register("LEAKY_RELU")
class LeakyRelu(LutOp):
    input_types = output_types = ("int8", "int16")

    def prepare(self, g, op):
        p = self.multipliers(g, op)
        return {**p, **super().prepare(g, op)} if op.input(g, 0).dtype == "int8" else p

    @staticmethod
    def multipliers(g, op) -> dict:
        xt, y = op.input(g, 0), op.output(g)
        s_in, s_out = float(xt.quant.s), float(y.quant.s)
        alpha = float(np.float32(op.attrs.get("alpha", 0.2)))
        # in double (the oracle's TFLM; float32 ratios differ from it on int16 in 1 value of 10000)
        m_alpha, s_alpha = quantize_multiplier(abs(s_in * alpha / s_out))
        m_id, s_id = quantize_multiplier(s_in / s_out)
        return dict(input_offset=-xt.quant.zp, output_offset=y.quant.zp, identity_multiplier=m_id,
                    identity_shift=s_id, alpha_multiplier=m_alpha, alpha_shift=s_alpha,
                    alpha_negate=int(alpha < 0 and m_alpha != 0))

    def table(self, g, op, x):
        return self.leaky(self.multipliers(g, op), x)

    @staticmethod
    def leaky(p: dict, x: np.ndarray) -> np.ndarray:
        d = x + p["input_offset"]
        below = requantize(d, p["alpha_multiplier"], p["alpha_shift"])
        return p["output_offset"] + np.where(d >= 0, requantize(d, p["identity_multiplier"], p["identity_shift"]),
                                             -below if p["alpha_negate"] else below)

    def run(self, g, op, xs):
        if xs[0].dtype != np.int16:
            return super().run(g, op, xs)
        return np.clip(self.leaky(op.params, xs[0].astype(np.int64)), -32768, 32767).astype(np.int16)

    def lower(self, g, op):
        if op.input(g, 0).dtype != "int16":
            return super().lower(g, op)
        fields = ("input_offset", "output_offset", "identity_multiplier", "identity_shift", "alpha_multiplier",
                  "alpha_shift", "alpha_negate")
        params = Struct("mcu_leaky_relu_params", "params", {k: op.params[k] for k in fields})
        return Call("mcu_leaky_relu_s16", (params, int(np.prod(op.input(g, 0).shape)), reads(op), writes(op)),
                    in_place=0)
