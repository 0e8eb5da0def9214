"""HARD_SWISH int8: TFLM reference_ops::HardSwish, int16 fixed point throughout."""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ops import register
from mcugen.ops._quant import LutOp
from mcugen.numerics.requant import quantize_multiplier, rounding_divide_by_pot, trunc_div_pow2


def _int16_multiplier(real: float) -> tuple[int, int]:
    """QuantizeMultiplier, then DownScaleInt32ToInt16Multiplier (round to Q0.15)."""
    m32, exponent = quantize_multiplier(real)
    m16 = 32767 if m32 >= (1 << 31) - 1 - (1 << 15) else (m32 + (1 << 15)) >> 16
    return m16, exponent


def _srdhm16(a: np.ndarray, b: np.ndarray | int) -> np.ndarray:
    ab = a * b
    out = trunc_div_pow2(ab + np.where(ab >= 0, 1 << 14, 1 - (1 << 14)), 15)
    return np.where((a == b) & (a == -32768), 32767, out)


def _rounding_divide_by_pot16(x: np.ndarray, exponent: int) -> np.ndarray:
    """gemmlowp RoundingDivideByPOT on int16 values, as TFLM's HardSwish instantiates it: from an
    exponent of 16 on, its mask (1 << exponent) - 1 wraps to -1 in int16, and every x >= 0 gives 1,
    every x < 0 gives -1 (an output scale over 2^16 times the input's)."""
    mask = (((1 << exponent) - 1) + (1 << 15)) % (1 << 16) - (1 << 15)
    return (x >> exponent) + ((x & mask) > (mask >> 1) + (x < 0))


def _sat_shift16(x: np.ndarray, amount: int) -> np.ndarray:
    return np.clip(x * (1 << amount), -32768, 32767)


@register("HARD_SWISH")
class HardSwish(LutOp):
    def check(self, g: Graph, op: Op) -> list[str]:
        x, y = op.input(g, 0), op.output(g)
        hires = np.float32(1 / 128) * np.float32(x.q.s)
        if _int16_multiplier(float(hires / np.float32(y.q.s)))[1] > 0:
            return ["output scale is too small for TFLM's int8 hard-swish (output exponent > 0)"]
        return []

    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        xt, y = op.input(g, 0), op.output(g)
        hires_scale = np.float32(1 / 128) * np.float32(xt.q.s)
        out_m, out_e = _int16_multiplier(float(hires_scale / np.float32(y.q.s)))
        relu_m, relu_e = _int16_multiplier(float(hires_scale / np.float32(3 / 32768)))
        hires = (x - xt.q.zp) * 128
        preshift_out = _srdhm16(hires, out_m)
        reluish = _sat_shift16(hires, relu_e - 1) if relu_e > 0 else hires
        reluish = _srdhm16(reluish, relu_m)
        if relu_e > 0:
            reluish = _sat_shift16(reluish, 1)
        elif relu_e < 0:
            reluish = rounding_divide_by_pot(reluish, -relu_e)
        reluish = (reluish + (1 << 15)) >> 1
        # Truncating (not rounding) doubling high mul, as TFLM, to cancel the bias above.
        product = reluish * preshift_out
        preshift = np.where((reluish == -32768) & (preshift_out == -32768), 32767,
                            trunc_div_pow2(product, 15))
        return _rounding_divide_by_pot16(preshift, -out_e) + y.q.zp
