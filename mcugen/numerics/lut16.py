"""TFLM's int16 lookup tables (LUTPopulate<int16_t> and LUTLookup, kernels/internal/common.h): a
function sampled at 513 points over the input range, each entry nudged so that the linear
interpolation between entries is right at the midpoints, then read with 7 fraction bits.

The table is built as TFLM's Prepare builds it, in float32 step by step (numpy float32 scalars
round every operation as the x86 oracle's SSE code does) with the C library's expf (ctypes), so
that every entry is TFLM's.
"""
from __future__ import annotations

import ctypes
from collections.abc import Callable
import ctypes.util

import numpy as np

from mcugen.numerics.requant import round_half_away

f32 = np.float32
_LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
_LIBM.expf.restype = ctypes.c_float
_LIBM.expf.argtypes = [ctypes.c_float]


def expf(x: np.float32) -> np.float32:
    return f32(_LIBM.expf(float(x)))


def _round(x: np.float32) -> np.float32:
    """TfLiteRound on a float (half away from zero); the values here are far below 2^24."""
    return f32(round_half_away(float(x)))


def populate(input_scale: float | np.floating, input_zp: int, output_scale: float | np.floating, output_zp: int,
             transform: Callable[[np.float32], np.float32]) -> np.ndarray:
    """LUTPopulateInt16<float>: 513 int16 entries."""
    input_min = f32(input_scale) * f32(-32768 - input_zp)
    input_max = f32(input_scale) * f32(32767 - input_zp)
    output_min = f32(output_scale) * f32(-32768 - output_zp)
    output_max = f32(output_scale) * f32(32767 - output_zp)
    steps = 512
    step = (input_max - input_min) / f32(steps)
    half = step / f32(2)
    inverse = f32(65536) / (output_max - output_min)
    lut = np.zeros(steps + 1, np.int64)
    for i in range(steps):
        value = transform(input_min + f32(i) * step)
        midpoint = transform(input_min + f32(i) * step + half)
        following = transform(input_min + f32(i + 1) * step)
        sample = _round(value * inverse)
        interpolated = _round((following * inverse + _round(value * inverse)) / f32(2))
        bias = _round((interpolated - _round(midpoint * inverse)) / f32(2))
        lut[i] = int(min(max(sample - bias, f32(-32768)), f32(32767)))
    lut[steps] = int(min(max(_round(transform(input_max) * inverse), f32(-32768)), f32(32767)))
    return lut


def lookup(value, lut: np.ndarray) -> np.ndarray:
    """LUTLookup on int16 values: entry 256 + (value >> 7), plus the slope to the next entry (an
    int16 difference) times the 7 low bits, rounded; the sum narrowed to int16."""
    value = np.asarray(value, np.int64)
    index = 256 + (value >> 7)
    base = lut[index]
    slope = ((lut[index + 1] - base + 32768) & 0xFFFF) - 32768
    total = base + ((slope * (value & 0x7F) + 64) >> 7)
    return ((total + 32768) & 0xFFFF) - 32768
