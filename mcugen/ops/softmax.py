"""SOFTMAX int8 -> int8 or int16: TFLM reference_ops::Softmax on gemmlowp fixed point; int16 -> int16:
reference_ops::SoftmaxInt16 on two int16 tables (mcugen.numerics.lut16), see run_int16.

exp() only ever sees x - max(x) in [-255, 0], so prepare() tabulates it once
(256 int32 entries); run() sums, takes the fixed-point reciprocal per row and
scales, exactly as TFLM's loop does.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mcugen.numerics import fixedpoint as fp
from mcugen.numerics import lut16
from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Struct, reads, writes
from mcugen.ir.options import SoftmaxOptions
from mcugen.ops import OpDef, Outputs, register
from mcugen.numerics.requant import quantize_multiplier, requantize, srdhm

SCALED_DIFF_INTEGER_BITS = 5
ACCUMULATION_INTEGER_BITS = 12


def _beta_multiplier(op: Op, x: Tensor) -> float:
    """TFLM PreprocessSoftmaxScaling's real multiplier: beta * scale in Q5.26, capped at INT32_MAX."""
    beta = float(np.float32(op.options_as(SoftmaxOptions).beta))
    return min(beta * float(x.q.s) * (1 << (31 - SCALED_DIFF_INTEGER_BITS)), float((1 << 31) - 1))


@dataclass(frozen=True)
class SoftmaxData:
    """int8 input: exp of each difference from the row's max, tabulated, and where TFLM stops."""

    input_multiplier: int
    input_left_shift: int
    diff_min: int
    exp_lut: np.ndarray  # indexed by max - x
    sum_lut: np.ndarray = field(compare=False, repr=False)  # host-only: each exp as the golden model sums it (Q12.19)


@dataclass(frozen=True)
class Softmax16Data:
    """int16 input: the input rescale and TFLM's two int16 tables."""

    input_multiplier: int
    input_shift: int
    exp_lut: np.ndarray
    one_over_lut: np.ndarray


@register("SOFTMAX")
class Softmax(OpDef):
    same_shape = True
    input_types = ("int8", "int16")
    output_types = ("int8", "int16")
    converts = True

    def check(self, g: Graph, op: Op) -> list[str]:
        x, y = op.input(g, 0), op.output(g)
        if x.dtype == "int16":
            beta = float(np.float32(op.options_as(SoftmaxOptions).beta))
            if not 0 < beta < math.inf:
                return [f"beta {beta:g}: the int16 SOFTMAX needs a positive beta"]
            if y.dtype != "int16" or x.q.zp != 0 or y.q.zp != 0 or abs(y.q.s - 1 / 32768) > 0.001 / 32768:
                return ["int16 SOFTMAX needs an int16 output of scale 1/32768 and zero points 0 (TFLM's Prepare)"]
            return []
        if y.dtype == "int16" and y.quant and (y.q.zp != -32768 or abs(y.q.s - 1 / 65536) > 0.001 / 65536):
            return [f"int16 output quantization must be scale 1/65536, zero point -32768 "
                    f"(got {y.q.s:g}, {y.q.zp})"]
        if y.dtype == "int8" and y.quant and (y.q.zp != -128 or y.q.s != np.float32(1 / 256)):
            return [f"output quantization must be scale 1/256, zero point -128 "
                    f"(got {y.q.s:g}, {y.q.zp})"]
        if x.quant and not _beta_multiplier(op, x) > 1.0:  # NaN too
            return [f"beta {op.options_as(SoftmaxOptions).beta:g} times the input scale is too small: TFLM's "
                    "softmax stops there (QuantizeMultiplierGreaterThanOne needs a multiplier above 1)"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        x = op.input(g, 0)
        if x.dtype == "int16":
            # [-65535, 0] of input differences maps onto the exp table's [-10, 0]
            beta = float(np.float32(op.options_as(SoftmaxOptions).beta))
            multiplier, shift = quantize_multiplier(float(x.q.s) * beta / (10.0 / 65535.0))
            span = 65535
            return Softmax16Data(
                multiplier, shift, lut16.populate(10.0 / np.float32(span), 32767, 2.0 / np.float32(span), 0, lut16.expf),
                lut16.populate(1.0 / np.float32(span), -32768, 2.0 / np.float32(span), 0,
                               lambda v: np.float32(1) / (np.float32(1) + v)))
        multiplier, left_shift = quantize_multiplier(_beta_multiplier(op, x))
        radius = math.floor(((1 << SCALED_DIFF_INTEGER_BITS) - 1)
                            * (1 << (31 - SCALED_DIFF_INTEGER_BITS)) / (1 << left_shift))
        diff = -np.arange(256, dtype=np.int64)  # diff = x - max, indexed by -diff
        rescaled = srdhm(diff * (1 << left_shift), multiplier)
        exp = fp.exp_on_negative_values(rescaled, SCALED_DIFF_INTEGER_BITS)
        exp = np.where(diff >= -radius, exp, 0)  # TFLM skips diffs below diff_min
        return SoftmaxData(multiplier, left_shift, -radius, exp.astype(np.int64),
                           fp.rescale(exp, 0, ACCUMULATION_INTEGER_BITS))

    def run_int16(self, op: Op, x: np.ndarray) -> np.ndarray:
        """Per row: exp of (x - max) rescaled into the table's range, from the exp table (Q0.15); their
        sum normalised by its leading zeros and read through the 1 / (1 + x) table; each exp times
        that reciprocal, shifted back by the normalisation and rounded, in [0, 32767]."""
        p = op.prepared(Softmax16Data)
        rows = x.reshape(-1, x.shape[-1])
        diff = rows - rows.max(axis=1, keepdims=True)
        scaled = np.clip(requantize(diff, p.input_multiplier, p.input_shift) + 32767, -32768, 32767)
        exp = lut16.lookup(scaled, p.exp_lut)
        sums = exp.sum(axis=1, keepdims=True)
        headroom = 32 - np.frexp(sums.astype(np.float64))[1].astype(np.int64)  # leading zeros of a positive int32
        shifted = ((sums << (headroom - 1)) + (1 << 13)) >> 14
        reciprocal = lut16.lookup(np.clip(shifted - (1 << 15) - (1 << 16), -32768, 32767), p.one_over_lut)
        right = 31 - headroom
        out = (exp * reciprocal + (np.int64(1) << (right - 1))) >> right
        return np.clip(out, 0, 32767).astype(np.int16).reshape(x.shape)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        if xs[0].dtype == np.int16:
            return self.run_int16(op, xs[0].astype(np.int64))
        x = xs[0].astype(np.int64)
        depth = x.shape[-1]
        rows = x.reshape(-1, depth)
        p = op.prepared(SoftmaxData)
        # Diffs below diff_min have a zero table entry: they add nothing and give -128.
        minus_diff = rows.max(axis=1, keepdims=True) - rows
        exp = p.exp_lut[minus_diff]
        sums = p.sum_lut[minus_diff].sum(axis=1, keepdims=True)
        # ~60 fixed-point steps per row: for one row (a classifier) far cheaper on a Python int
        scale, bits_over_unit = fp.reciprocal(int(sums[0, 0]) if sums.size == 1 else sums,
                                              ACCUMULATION_INTEGER_BITS)
        # RoundingDivideByPOT(SRDHM(scale, exp), bits + 23): scale, exp >= 0 and the shift is
        # positive, so both roundings are "add half, floor" (steps 2' and 3' in mcugen.numerics.requant)
        info = np.iinfo(op.output(g).dtype)
        exponent = bits_over_unit + 31 - info.bits
        out = (((scale * exp + (1 << 30)) >> 31) + (1 << (exponent - 1))) >> exponent
        out += info.min
        return np.minimum(out, info.max).astype(info.dtype).reshape(x.shape)  # never below the minimum

    def lower(self, g: Graph, op: Op) -> Call | None:
        x = op.input(g, 0)
        depth = x.shape[-1]
        if x.dtype == "int16":
            p16 = op.prepared(Softmax16Data)
            softmax = Struct("mcu_softmax_s16_params", "params", dict(
                input_multiplier=p16.input_multiplier, input_shift=p16.input_shift,
                exp_lut=Const("exp_lut", p16.exp_lut.astype(np.int16)),
                one_over_lut=Const("one_over_one_plus_x_lut", p16.one_over_lut.astype(np.int16))))
            return Call("mcu_softmax_s16", (softmax, int(np.prod(x.shape)) // depth, depth, reads(op), writes(op)),
                        note=f"beta {op.options_as(SoftmaxOptions).beta:g}, over the last axis ({depth}), int16 tables")
        return softmax_s8_call(g, op, "mcu_softmax_s8", "")


def softmax_s8_call(g: Graph, op: Op, kernel: str, how: str) -> Call:
    x, p = op.input(g, 0), op.prepared(SoftmaxData)
    depth = x.shape[-1]
    softmax = Struct("mcu_softmax_params", "params", dict(
        diff_min=p.diff_min, exp_lut=Const("exp_lut", p.exp_lut.astype(np.int32)),
        output_bits=np.iinfo(op.output(g).dtype).bits))
    return Call(kernel, (softmax, int(np.prod(x.shape)) // depth, depth, reads(op), writes(op)),
                note=f"beta {op.options_as(SoftmaxOptions).beta:g}, over the last axis ({depth}){how}")


