"""MUL int8: (a - za) * (b - zb) rescaled by s_a * s_b / s_out (TFLM MulElementwise)."""
from __future__ import annotations


from mcugen.lowering import Call, Struct, activation, broadcast, reads, writes
from mcugen.ops import register
from mcugen.ops._quant import PairOp, fused_range, pair_table, problems_fused_activation
from mcugen.requant import Requant, quantize_multiplier, requantize_s8


@register("MUL")
class Mul(PairOp):
    arity = ((2, 2), (1, 1))

    def check(self, g, op):
        return problems_fused_activation(op)

    def prepare(self, g, op):
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        m, s = quantize_multiplier(float(a.quant.s) * float(b.quant.s) / float(y.quant.s))
        act_min, act_max = fused_range(g, op)
        return dict(input1_zp=a.quant.zp, input2_zp=b.quant.zp, output_zp=y.quant.zp,
                    multiplier=m, shift=s, act_min=act_min, act_max=act_max,
                    # host-only: the golden model's result for every pair of inputs, made once
                    golden_pairs=pair_table(lambda x1, x2: requantize_s8(
                        (x1 - a.quant.zp) * (x2 - b.quant.zp), Requant.of(m, s, y.quant.zp, act_min, act_max))))

    def lower(self, g, op):
        p = op.params
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        mul = Struct("mcu_mul_params", "params", dict(
            input1_offset=-p["input1_zp"], input2_offset=-p["input2_zp"], output_offset=p["output_zp"],
            multiplier=p["multiplier"], shift=p["shift"], activation=activation(p)))
        return Call("mcu_mul_s8", (mul, broadcast(a.shape, b.shape, y.shape), reads(op, 0), reads(op, 1),
                                   writes(op)), in_place=0 if tuple(a.shape) == tuple(y.shape) else None)
