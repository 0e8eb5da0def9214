"""QUANTIZE and DEQUANTIZE at a model's ends, as TFLM runs them.

QUANTIZE between integer types is reference_ops::Requantize: (x - zp_in) rescaled by s_in / s_out
with the double rounding, plus zp_out, clamped to the output type; from a byte to a byte it is
tabulated for all 256 inputs, else mcu_requantize_int computes it (int16 and int32 ends, the joints
of int8 and int16 segments). QUANTIZE float32 -> int8 or int16 is reference_ops::AffineQuantize:
int32(round(x / s)) + zp, clamped, where x / s is a float32 division and round() goes half away from
zero. A quotient that is NaN or outside int32 converts as on the oracle's x86 build (cvttss2si gives
INT32_MIN), and the zero point is added with int32 wrap-around: so +inf gives -128 when zp >= 0 and
127 when zp < 0, as TFLM answers on the host (an Arm build of TFLM would saturate instead; mcugen
follows the oracle on every target). DEQUANTIZE int8 or int16 -> float32 is
float(s * (x - zp)): the product is exact in double and rounded once, which a float32 multiply of
the exact float(x - zp) also gives.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, register
from mcugen.ops._float import round_to_int32_x86
from mcugen.ops._quant import LutOp
from mcugen.numerics.requant import quantize_multiplier, requantize, wrap_int32

# The conversions TFLM's QUANTIZE makes (quantize_common.cc)
QUANTIZE_PAIRS = {("float32", "int8"), ("float32", "int16"), ("int8", "int8"), ("int8", "uint8"), ("uint8", "int8"),
                  ("int16", "int8"), ("int8", "int16"), ("int8", "int32"), ("int16", "int16"), ("int16", "int32"),
                  ("int32", "int8"), ("int32", "int16")}
BYTES = ("int8", "uint8")


def affine_quantize(x: np.ndarray, scale: float, zero_point: int, dtype: str) -> np.ndarray:
    """reference_ops::AffineQuantize on float32 values."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = np.asarray(x, dtype=np.float32) / np.float32(scale)
    q = wrap_int32(round_to_int32_x86(r) + zero_point)
    info = np.iinfo(dtype)
    return np.clip(q, info.min, info.max).astype(dtype)


@dataclass(frozen=True)
class FloatQuant:
    """mcu_float_quant: a float32 end's integer side."""

    scale: float  # float32's value
    zero_point: int
    bits: int

    @classmethod
    def of(cls, t: Tensor) -> "FloatQuant":
        return cls(float(np.float32(t.q.s)), t.q.zp, int(np.iinfo(t.dtype).bits))


@dataclass(frozen=True)
class Requantize:
    """reference_ops::Requantize between integer types."""

    multiplier: int
    shift: int
    input_zp: int
    output_zp: int


@register("QUANTIZE")
class Quantize(LutOp):
    input_types = ("float32", "int8", "uint8", "int16", "int32")
    output_types = ("int8", "uint8", "int16", "int32")
    converts = True

    def check(self, g: Graph, op: Op) -> list[str]:
        x, y = op.input(g, 0), op.output(g)
        if (x.dtype, y.dtype) not in QUANTIZE_PAIRS:
            return [f"QUANTIZE {x.dtype} -> {y.dtype} has no TFLM kernel"]
        unquantized = [t.name for t in (x, y) if t.dtype == "int32" and t.quant is None]
        if unquantized:
            return [f"int32 tensor '{unquantized[0]}' has no quantization parameters"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        x, y = op.input(g, 0), op.output(g)
        if y.dtype == "float16":  # an fp16 layer's input (passes/compute_fp16.py): no file's QUANTIZE
            return None
        if x.dtype == "float32":
            return FloatQuant.of(y)
        if x.dtype in BYTES and y.dtype in BYTES:
            return super().prepare(g, op)
        return Requantize(*quantize_multiplier(float(x.q.s) / float(y.q.s)), x.q.zp, y.q.zp)

    def table(self, g: Graph, op: Op, x: np.ndarray) -> np.ndarray:
        xt, y = op.input(g, 0), op.output(g)
        m, s = quantize_multiplier(float(xt.q.s) / float(y.q.s))
        return requantize(x - xt.q.zp, m, s) + y.q.zp

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x, y = op.input(g, 0), op.output(g)
        if y.dtype == "float16":
            with np.errstate(over="ignore"):
                return xs[0].astype(np.float16)  # to nearest even, past 65504 infinite
        if x.dtype == "float32":
            f = op.prepared(FloatQuant)
            return affine_quantize(xs[0], f.scale, f.zero_point, y.dtype)
        if x.dtype in BYTES and y.dtype in BYTES:  # a byte-to-byte table (LutOp.prepare)
            return super().run(g, op, xs)
        info = np.iinfo(y.dtype)
        p = op.prepared(Requantize)
        out = wrap_int32(requantize(wrap_int32(xs[0].astype(np.int64) - p.input_zp), p.multiplier, p.shift)
                         + p.output_zp)
        return np.clip(out, info.min, info.max).astype(y.dtype)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x, y = op.input(g, 0), op.output(g)
        size = int(np.prod(y.shape))
        if y.dtype == "float16":
            return Call("mcu_quantize_f16", (size, reads(op), writes(op)), note="float32 -> float16")
        if x.dtype == "float32":
            f = op.prepared(FloatQuant)
            return Call("mcu_quantize_f32", (Struct("mcu_float_quant", "params", dataclasses.asdict(f)),
                                                size, reads(op), writes(op)),
                        note=f"round(x / {f.scale:.9g}) + {f.zero_point}")
        if x.dtype in BYTES and y.dtype in BYTES:  # a byte-to-byte table (LutOp.prepare)
            return super().lower(g, op)
        return requantize_call(g, op, "mcu_requantize_int")


def requantize_call(g: Graph, op: Op, kernel: str) -> Call:
    """QUANTIZE between integer types on `kernel` (mcu_requantize_int or its DSP variant)."""
    x, y = op.input(g, 0), op.output(g)
    p = op.prepared(Requantize)
    params = Struct("mcu_requantize_params", "params", dict(
        input_bits=np.iinfo(x.dtype).bits, output_bits=np.iinfo(y.dtype).bits, input_offset=-p.input_zp,
        output_offset=p.output_zp, multiplier=p.multiplier, shift=p.shift))
    return Call(kernel, (params, int(np.prod(y.shape)), reads(op), writes(op)),
                note=f"{x.dtype} -> {y.dtype}, (x - {p.input_zp}) * {float(x.q.s) / float(y.q.s):.9g} + {p.output_zp}")


@register("DEQUANTIZE")
class Dequantize(OpDef):
    """float16 -> float32 (the converter's float16 weights; TFLM has no such kernel, LiteRT's reference
    one widens each value exactly) runs on constants only, at build time (fold_constants), and on the
    outputs of fp16 layers (passes/compute_fp16.py)."""
    same_shape = True
    input_types = ("int8", "int16", "float16")
    output_types = ("float32",)
    converts = True

    def check(self, g: Graph, op: Op) -> list[str]:
        x = op.input(g, 0)
        if x.dtype == "float16" and not x.is_const:
            return [f"tensor '{x.name}' is a float16 activation: mcugen takes float16 only as weights (a "
                    "constant), which it widens at build time"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        x = op.input(g, 0)
        return None if x.dtype == "float16" else FloatQuant.of(x)

    def fold(self, g: Graph, op: Op) -> list[np.ndarray] | None:
        x = op.input(g, 0)
        return [x.values.astype(np.float32)] if x.dtype == "float16" and x.is_const else None

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        if xs[0].dtype == np.float16:
            return xs[0].astype(np.float32)
        p = op.prepared(FloatQuant)
        return (xs[0].astype(np.int32) - p.zero_point).astype(np.float32) * np.float32(p.scale)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x = op.input(g, 0)
        if x.dtype == "float16" and not x.is_const:  # an fp16 layer's output
            return Call("mcu_dequantize_f16", (int(np.prod(x.shape)), reads(op), writes(op)), note="float16 -> float32")
        if x.dtype == "float16":  # a constant fold_constants kept: a graph output
            bits = x.values.reshape(-1).view(np.uint16)
            return Call("mcu_unpack_f16", (Const("half", bits), bits.size, writes(op)), note="float16 -> float32")
        p = op.prepared(FloatQuant)
        return Call("mcu_dequantize_f32", (Struct("mcu_float_quant", "params", dataclasses.asdict(p)),
                                              int(np.prod(op.output(g).shape)), reads(op), writes(op)),
                    note=f"{p.scale:.9g} * (x - {p.zero_point})")
