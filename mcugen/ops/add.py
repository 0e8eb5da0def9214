"""ADD, SUB and SQUARED_DIFFERENCE int8: TFLM's rescale-both-inputs-to-a-common-scale arithmetic.

Inputs are shifted left (20 bits; 7 for SQUARED_DIFFERENCE, whose square must fit int32), each
rescaled to 1/(2*max input scale), summed, subtracted or subtracted and squared, and rescaled to the
output (for the square: by (2*max scale)^2 / (2^14 * output scale)), every step double-rounded.
Broadcasting follows numpy's rules, which match TFLM's for these ops. The golden model runs that
arithmetic once, on all 256 x 256 input pairs, and looks results up.
"""
from __future__ import annotations

import numpy as np

from mcugen.lowering import Call, Scratch, Struct, activation, broadcast, reads, writes
from mcugen.ops import register
from mcugen.ops._quant import PairOp, fused_range, pair_table, problems_fused_activation
from mcugen.ops.conv_2d import strips_of
from mcugen.requant import Requant, quantize_multiplier, requantize, requantize_s8

LEFT_SHIFT = {"ADD": 20, "SUB": 20, "SQUARED_DIFFERENCE": 7}
OPERATION = {"ADD": "MCU_ADD", "SUB": "MCU_SUB", "SQUARED_DIFFERENCE": "MCU_SQUARED_DIFFERENCE"}


@register("ADD", "SUB", "SQUARED_DIFFERENCE")
class AddSub(PairOp):
    arity = ((2, 2), (1, 1))

    def check(self, g, op):
        return problems_fused_activation(op)

    def prepare(self, g, op):
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        twice_max = 2.0 * float(max(np.float32(a.quant.s), np.float32(b.quant.s)))
        left = LEFT_SHIFT[op.opcode]
        m1, s1 = quantize_multiplier(float(a.quant.s) / twice_max)
        m2, s2 = quantize_multiplier(float(b.quant.s) / twice_max)
        squared = op.opcode == "SQUARED_DIFFERENCE"
        mo, so = quantize_multiplier((twice_max * twice_max if squared else twice_max)
                                     / ((1 << (2 * left if squared else left)) * float(y.quant.s)))
        act_min, act_max = fused_range(g, op)
        rq1, rq2 = Requant.of(m1, s1), Requant.of(m2, s2)
        rq_out = Requant.of(mo, so, y.quant.zp, act_min, act_max)

        def tflm_arithmetic(x1, x2):
            y1 = requantize((x1 - a.quant.zp) << left, rq1)
            y2 = requantize((x2 - b.quant.zp) << left, rq2)
            raw = {"ADD": lambda: y1 + y2, "SUB": lambda: y1 - y2, "SQUARED_DIFFERENCE": lambda: (y1 - y2) ** 2}
            return requantize_s8(raw[op.opcode](), rq_out)

        return dict(input1_zp=a.quant.zp, input2_zp=b.quant.zp, output_zp=y.quant.zp,
                    input1_multiplier=m1, input1_shift=s1, input2_multiplier=m2, input2_shift=s2,
                    output_multiplier=mo, output_shift=so, act_min=act_min, act_max=act_max,
                    left_shift=left,
                    # host-only: the golden model's result for every pair of inputs, made once
                    golden_pairs=pair_table(tflm_arithmetic))

    def lower(self, g, op):
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        return Call("mcu_add_s8", (_params(op), broadcast(a.shape, b.shape, y.shape), reads(op, 0), reads(op, 1),
                                   writes(op)), in_place=0 if tuple(a.shape) == tuple(y.shape) else None)

    def lower_fused(self, g, op, conv, operand):
        """The residual of a ResNet block: the conv's strips go into a tile and are added to the
        residual's rows, in its place when it dies here. ADD's arithmetic is symmetric, so the conv's
        side becomes input 1 (its offset, multiplier and shift with it)."""
        strips = strips_of(g, conv)
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        if strips is None or op.opcode != "ADD" or not tuple(a.shape) == tuple(b.shape) == tuple(y.shape):
            return None
        residual = 1 - operand
        return Call("mcu_conv2d_add_s8_x6", (
            *strips.args, strips.rows, _params(op, swap=operand == 1), reads(op, residual), writes(op),
            strips.scratch, Scratch(strips.tile_bytes, "int8_t")),
            note=f"with layer {conv.index} ({conv.opcode}) run {strips.rows} rows at a time, each strip added "
                 "to the residual's rows",
            in_place=None if op.input(g, residual).is_const else residual,
            extra_kernels=(*strips.kernels, "mcu_add_s8"))


def _params(op, swap: bool = False) -> Struct:
    """mcu_add_params; swap: the inputs' parts exchanged (input 2 passed as input 1)."""
    p = op.params
    one, two = ("2", "1") if swap else ("1", "2")
    return Struct("mcu_add_params", "params", dict(
        input1_offset=-p[f"input{one}_zp"], input2_offset=-p[f"input{two}_zp"], output_offset=p["output_zp"],
        left_shift=p["left_shift"], input1_multiplier=p[f"input{one}_multiplier"],
        input1_shift=p[f"input{one}_shift"], input2_multiplier=p[f"input{two}_multiplier"],
        input2_shift=p[f"input{two}_shift"], output_multiplier=p["output_multiplier"],
        output_shift=p["output_shift"], operation=OPERATION[op.opcode], activation=activation(p)))
