"""ADD, SUB and SQUARED_DIFFERENCE, int8 and int16: TFLM's rescale-both-inputs-to-a-common-scale arithmetic.

Inputs are shifted left (20 bits for int8, 15 for int16, whose 65535 << 15 still fits int32; 7 for
SQUARED_DIFFERENCE, whose square must fit int32), each rescaled to 1/(2*max input scale), summed,
subtracted or subtracted and squared, and rescaled to the output (for the square: by
(2*max scale)^2 / (2^14 * output scale)), every step double-rounded. Broadcasting follows numpy's
rules, which match TFLM's for these ops.
"""
from __future__ import annotations


from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, activation, broadcast, reads, writes
from mcugen.ops import register
from mcugen.ops._quant import PairOp, Paired, fused_range, problems_fused_activation
from mcugen.numerics.requant import Requant, quantize_multiplier, quantize_multiplier_below_one, requantize, requantize_clamp

LEFT_SHIFT = {("ADD", "int8"): 20, ("SUB", "int8"): 20, ("SQUARED_DIFFERENCE", "int8"): 7,
              ("ADD", "int16"): 15, ("SUB", "int16"): 15}
OPERATION = {"ADD": "MCU_ADD", "SUB": "MCU_SUB", "SQUARED_DIFFERENCE": "MCU_SQUARED_DIFFERENCE"}


def _real_multipliers(opcode: str, s1: float, s2: float, s_out: float, left: int) -> tuple[float, float, float]:
    """The input and output rescales as TFLM's Prepare computes them, in double. (TFLM's source of
    August 2026 spells SUB's in float32; the TFLM the oracle package builds computes them in double:
    on int16 SUB, float32 multipliers differ from it in 12 of 20 random configurations, double ones
    in none.)"""
    twice_max = 2.0 * max(s1, s2)
    squared = opcode == "SQUARED_DIFFERENCE"
    return (s1 / twice_max, s2 / twice_max,
            (twice_max * twice_max if squared else twice_max) / ((1 << (2 * left if squared else left)) * s_out))


@dataclass(frozen=True)
class Operand:
    """One input's zero point and its rescale to the common scale."""

    zp: int
    multiplier: int
    shift: int


@dataclass(frozen=True)
class AddData(Paired):
    operation: str  # the opcode
    left_shift: int
    input1: Operand
    input2: Operand
    output_zp: int
    output_multiplier: int
    output_shift: int
    act_min: int
    act_max: int


@register("ADD", "SUB", "SQUARED_DIFFERENCE")
class AddSub(PairOp):
    arity = ((2, 2), (1, 1))
    input_types = output_types = ("int8", "int16")

    def check(self, g: Graph, op: Op) -> list[str]:
        if (op.opcode, op.input(g, 0).dtype) not in LEFT_SHIFT:
            return [f"{op.opcode} of {op.input(g, 0).dtype} has no kernel in TFLM"]
        return problems_fused_activation(op)

    def prepare(self, g: Graph, op: Op) -> object:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        left = LEFT_SHIFT[op.opcode, y.dtype]
        r1, r2, r_out = _real_multipliers(op.opcode, float(a.q.s), float(b.q.s), float(y.q.s), left)
        below = quantize_multiplier_below_one  # TFLM aborts on anything else (SQUARED_DIFFERENCE's output: any)
        return self.tabulated(g, op, AddData(
            op.opcode, left, Operand(a.q.zp, *below(r1)), Operand(b.q.zp, *below(r2)),
            y.q.zp, *(quantize_multiplier if op.opcode == "SQUARED_DIFFERENCE" else below)(r_out), *fused_range(g, op)))

    def arithmetic(self, p: AddData, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
        y1 = requantize((x1 - p.input1.zp) << p.left_shift, p.input1.multiplier, p.input1.shift)
        y2 = requantize((x2 - p.input2.zp) << p.left_shift, p.input2.multiplier, p.input2.shift)
        raw = {"ADD": lambda: y1 + y2, "SUB": lambda: y1 - y2, "SQUARED_DIFFERENCE": lambda: (y1 - y2) ** 2}
        rq = Requant.of(p.output_multiplier, p.output_shift, p.output_zp, p.act_min, p.act_max)
        return requantize_clamp(raw[p.operation](), rq, np.int64)

    def lower(self, g: Graph, op: Op) -> Call | None:
        a, b, y = op.input(g, 0), op.input(g, 1), op.output(g)
        return Call("mcu_add", (add_params(op), broadcast(a.shape, b.shape, y.shape, y.dtype), reads(op, 0), reads(op, 1),
                                   writes(op)), in_place=0 if tuple(a.shape) == tuple(y.shape) else None)


def add_params(op: Op, swap: bool = False, lookups: int = 0) -> Struct:
    """mcu_add_params; swap: the inputs' parts exchanged (input 2 passed as input 1); lookups: with the
    inputs' rescaled values for every byte, doubled (|2 x| < 2^29, the output rescale's high multiply takes the
    doubled sum), which mcu_add_s8_x4 (DSP) looks up (int8 ADD and SUB) for that many elements, two of the
    table's 512 entries each (its Const.passes: how often it is read through)."""
    p = op.prepared(AddData)
    one, two = (p.input2, p.input1) if swap else (p.input1, p.input2)
    rescaled = None
    # where mcu_add_s8_x4 rescales in its SMMULR form: an output left shift sends it to mcu_add
    if lookups and p.operation in ("ADD", "SUB") and p.left_shift == LEFT_SHIFT[p.operation, "int8"] \
            and p.output_shift <= 0:
        x = np.arange(256, dtype=np.int64).astype(np.uint8).view(np.int8).astype(np.int64)  # byte b as int8
        sign = -1 if p.operation == "SUB" else 1
        rescaled = Const("add_rescaled", 2 * np.concatenate([
            requantize((x - one.zp) << p.left_shift, one.multiplier, one.shift),
            sign * requantize((x - two.zp) << p.left_shift, two.multiplier, two.shift)]).astype(np.int32),
            passes=max(1, lookups // 256))
    return Struct("mcu_add_params", "params", dict(
        input1_offset=-one.zp, input2_offset=-two.zp, output_offset=p.output_zp, left_shift=p.left_shift,
        input1_multiplier=one.multiplier, input1_shift=one.shift, input2_multiplier=two.multiplier,
        input2_shift=two.shift, output_multiplier=p.output_multiplier, output_shift=p.output_shift,
        operation=OPERATION[op.opcode], activation=activation(p.act_min, p.act_max), rescaled=rescaled))
