"""ADD and SUB int8: TFLM's rescale-both-inputs-to-a-common-scale arithmetic.

Inputs are shifted left by 20 bits, each rescaled to 1/(2*max input scale),
summed (or subtracted) and rescaled to the output, every step double-rounded.
Broadcasting follows numpy's rules, which match TFLM's for these ops.
"""
from __future__ import annotations

import numpy as np

from mcugen.lowering import Call, Struct, activation, broadcast, reads, writes
from mcugen.ops import OpDef, register
from mcugen.ops._quant import fused_range, problems_fused_activation
from mcugen.requant import Requant, quantize_multiplier, requantize, requantize_s8

LEFT_SHIFT = 20


def rescaled_inputs(zero_point: int, multiplier: int, shift: int) -> np.ndarray:
    """One input's value at the common scale, ((x - zp) << LEFT_SHIFT) requantized, for x = -128..127."""
    return requantize((np.arange(-128, 128, dtype=np.int64) - zero_point) << LEFT_SHIFT, multiplier, shift)


@register("ADD", "SUB")
class AddSub(OpDef):
    def check(self, g, op):
        return problems_fused_activation(op)

    def prepare(self, g, op):
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        twice_max = 2.0 * float(max(np.float32(a.quant.s), np.float32(b.quant.s)))
        m1, s1 = quantize_multiplier(float(a.quant.s) / twice_max)
        m2, s2 = quantize_multiplier(float(b.quant.s) / twice_max)
        mo, so = quantize_multiplier(twice_max / ((1 << LEFT_SHIFT) * float(y.quant.s)))
        act_min, act_max = fused_range(g, op)
        return dict(input1_zp=a.quant.zp, input2_zp=b.quant.zp, output_zp=y.quant.zp,
                    input1_multiplier=m1, input1_shift=s1, input2_multiplier=m2, input2_shift=s2,
                    output_multiplier=mo, output_shift=so, act_min=act_min, act_max=act_max,
                    left_shift=LEFT_SHIFT,
                    # host-only, made once for the golden model: each input's rescaling tabulated
                    # for all 256 int8 values, and the output requantizer
                    golden_input1=rescaled_inputs(a.quant.zp, m1, s1),
                    golden_input2=rescaled_inputs(b.quant.zp, m2, s2),
                    golden_requant=Requant.of(mo, so, y.quant.zp, act_min, act_max))

    def run(self, g, op, xs):
        p = op.params
        a = p["golden_input1"][xs[0].astype(np.intp) + 128]
        b = p["golden_input2"][xs[1].astype(np.intp) + 128]
        raw = a + b if op.opcode == "ADD" else a - b
        return requantize_s8(raw, p["golden_requant"]).reshape(op.output(g).shape)

    def lower(self, g, op):
        p = op.params
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        add = Struct("mcu_add_params", "params", dict(
            input1_offset=-p["input1_zp"], input2_offset=-p["input2_zp"], output_offset=p["output_zp"],
            left_shift=LEFT_SHIFT, input1_multiplier=p["input1_multiplier"], input1_shift=p["input1_shift"],
            input2_multiplier=p["input2_multiplier"], input2_shift=p["input2_shift"],
            output_multiplier=p["output_multiplier"], output_shift=p["output_shift"],
            subtract=int(op.opcode == "SUB"), activation=activation(p)))
        return Call("mcu_add_s8", (add, broadcast(a.shape, b.shape, y.shape), reads(op, 0), reads(op, 1),
                                   writes(op)), inplace_ok=tuple(a.shape) == tuple(y.shape))
