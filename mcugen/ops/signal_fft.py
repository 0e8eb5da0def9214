"""SignalFftAutoScale (int16) and SignalRfft (int16, int32, float32): TFLM signal library custom ops.

FftAutoScale: the input shifted left by as many bits as its largest magnitude leaves free (TFLM's
MaxAbs16 loop, in which -32768 wraps to itself, and MostSignificantBit32 as its GCC build has it), the
shift as an int32 scalar second output.

Rfft: each row of the input (its last axis), zero-padded to fft_length, through KISS FFT's real FFT
(kissfft v130 as TFLM builds it, FIXED_POINT=16, =32 or float): the complex FFT of half the length
over the even/odd pairs, mixed radix 4, 2, 3, 5, then the split into fft_length / 2 + 1 bins. In fixed
point every stage's inputs are divided by its radix first (multiplied by SAMP_MAX / p and rounded:
C_FIXDIV), every product is rounded to Q15 (Q31) (sround), sums wrap to the type as C stores them;
twiddles are floor(0.5 + SAMP_MAX cos) of the host's cos in double. In float every operation rounds
in C's order (no FIXDIV; HALF_OF multiplies by 0.5f), twiddles (float) cos. Twiddles are computed
here once. The output interleaves real and imaginary parts. A half length with a prime factor above 5
makes kissfft allocate a buffer TFLM's build cannot (its malloc is patched out): refused, as are odd
lengths (kiss_fftr refuses them).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.numerics.kiss_fft import ARITHMETIC, RfftPlan, factor, prime_factors, rfft_plan
from mcugen.ir.lowering import Call, Const, Scratch, Slice, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, register
from mcugen.ops._signal import msb32, option, options_problem, shapes_1d



@register("CUSTOM:SignalFftAutoScale")
class FftAutoScale(OpDef):
    arity = ((1, 1), (2, 2))
    input_types = ("int16",)
    output_types = ("int16", "int32")
    converts = copies_values = True

    def check(self, g: Graph, op: Op) -> list[str]:
        x, y, bits = op.input(g, 0), op.output(g, 0), op.output(g, 1)
        if y.dtype != "int16" or bits.dtype != "int32" or len(bits.shape) != 0:
            return ["TFLM's kernel makes an int16 output and an int32 scalar"]
        return shapes_1d(g, op, range(1), range(1)) or (
            [] if x.shape == y.shape else [f"input {list(x.shape)} and output {list(y.shape)} differ"])

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        x = xs[0]
        largest = max_abs16(x)
        bits = max(16 - int(msb32(np.array(largest & 0xFFFFFFFF))) - 1, 0)
        y = (x.astype(np.int64) << bits).astype(np.uint64).astype(np.uint16).view(np.int16)
        return [y, np.array(bits, np.int32)]

    def lower(self, g: Graph, op: Op) -> Call | None:
        n = op.input(g, 0).shape[0]
        return Call("mcu_fft_auto_scale_s16", (n, reads(op), writes(op), Slice((op.outputs[1],), writable=True)),
                    in_place=0)


def max_abs16(x: np.ndarray) -> int:
    """TFLM's MaxAbs16: max starts at 0; a value above it, or whose negation is, replaces it (as int16:
    -(-32768) stays -32768, after which any larger value replaces it)."""
    if not np.any(x == -32768):
        return int(np.abs(x.astype(np.int32)).max(initial=0))
    largest = 0
    for v in x.astype(np.int32).tolist():
        if v > largest:
            largest = v
        elif -v > largest:
            largest = ((-v + 32768) & 0xFFFF) - 32768  # int16's store: 32768 wraps
    return largest


TENSOR_TYPES = {7: "int16", 2: "int32", 0: "float32"}  # the "T" option (tflite::TensorType) TFLM's RFFT takes
KERNELS = {"int16": "mcu_rfft_s16", "int32": "mcu_rfft_s32", "float32": "mcu_rfft_f32"}


@dataclass(frozen=True)
class RfftData:
    dtype: str
    fft_length: int
    input_length: int  # a row's values (the input's last axis)
    rows: int
    factors: tuple[int, ...]  # kf_factor's (radix, remaining length) pairs of fft_length / 2
    twiddles: tuple[float, ...]  # [fft_length / 2] complex, re and im interleaved (integers but in float32)
    super_twiddles: tuple[float, ...]  # [fft_length / 4] complex

    @property
    def golden(self) -> RfftPlan:
        return rfft_plan(self.dtype, self.fft_length, self.factors, self.twiddles, self.super_twiddles)


@register("CUSTOM:SignalRfft")
class Rfft(OpDef):
    input_types = output_types = tuple(KERNELS)
    copies_values = True

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = options_problem(op, 2)
        if problems:
            return problems
        x, y = op.input(g, 0), op.output(g)
        dtype = TENSOR_TYPES.get(option(op, 0))
        if dtype is None:
            return [f"an RFFT of tensor type {option(op, 0)}: TFLM's kernel takes int16 (7), int32 (2) or "
                    "float32 (0)"]
        if x.dtype != dtype:
            return [f"option T says {dtype}, the tensors are {x.dtype}: TFLM's Prepare fails"]
        n = option(op, 1)
        if not x.shape or len(x.shape) != len(y.shape):
            return ["TFLM's kernel takes an input and output of one rank"]
        if n < 2 or n % 2 or max(prime_factors(n // 2), default=2) > 5:
            return [f"fft_length {n}: TFLM's kissfft runs even lengths whose half has no prime factor above 5 "
                    "(others make it allocate, which TFLM's build cannot)"]
        if x.shape[-1] > n:
            return [f"rows of {x.shape[-1]} values exceed fft_length {n}: TFLM's kernel writes past its buffer"]
        rows = int(np.prod(x.shape[:-1]))
        if y.shape[-1] != n + 2 or int(np.prod(y.shape[:-1])) != rows:
            return [f"output {list(y.shape)}: TFLM's kernel writes {rows} row(s) of {n // 2 + 1} complex values "
                    f"({n + 2} {dtype})"]
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        n, x = option(op, 1), op.input(g, 0)
        half, ar = n // 2, ARITHMETIC[x.dtype]
        twiddles = [ar.trig(-2 * math.pi * i / half) for i in range(half)]
        supers = [ar.trig(-3.14159265358979323846264338327 * ((i + 1) / half + .5)) for i in range(half // 2)]
        return RfftData(x.dtype, n, x.shape[-1], int(np.prod(x.shape[:-1])), tuple(factor(half)),
                        tuple(v for c in twiddles for v in c), tuple(v for c in supers for v in c))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(RfftData)
        rows = np.zeros((p.rows, p.fft_length), xs[0].dtype)
        rows[:, :p.input_length] = xs[0].reshape(p.rows, p.input_length)
        return p.golden.rfft(rows).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(RfftData)
        params = Struct(f"{KERNELS[p.dtype]}_params", "params", dict(
            fft_length=p.fft_length, input_length=p.input_length, rows=p.rows,
            factors=Const("factors", np.array(p.factors, np.int32)),
            twiddles=Const("twiddles", np.array(p.twiddles, p.dtype)),
            super_twiddles=Const("super_twiddles", np.array(p.super_twiddles, p.dtype))))
        size = np.dtype(p.dtype).itemsize
        return Call(KERNELS[p.dtype], (params, reads(op), writes(op), Scratch(2 * size * p.fft_length,
                                                                                ctype=_CTYPES[p.dtype])),
                    note=f"{p.fft_length}-point, radices {p.factors[::2]}")


_CTYPES = {"int16": "int16_t", "int32": "int32_t", "float32": "float"}
