"""What the float32 kernels (ops/float_*.py, runtime_c/include/mcu_nn_float.h) share.

TFLM's float reference kernels round after every operation in a fixed order; the golden model does
the same in numpy float32 (one array operation per step, never a reduction whose order numpy picks),
and the C kernels never contract a multiply and an add (runtime_c/include/mcu_nn_fp_exact.h). The libm
functions TFLM calls are mcugen's own, with their twins here: e^x and log as Arm's optimized-routines
compute them (in float64), e^x - 1 and tanh as fdlibm does (in float32), each the host glibc's bit for
bit (measured), so golden model, host and every core agree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mcugen.ir.graph import Op

F32 = np.float32
FLT_MAX = float(np.finfo(np.float32).max)
# TFLM's CalculateActivationRange for float: the fused activations it knows; any other is no clamp
RANGES = {"RELU": (0.0, FLT_MAX), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0)}


def _x86_int32(whole: np.ndarray) -> np.ndarray:
    """Whole float64 values as x86's cvttss2si makes them int32 (int64 values): NaN and values outside int32
    give INT32_MIN."""
    with np.errstate(invalid="ignore"):
        inside = (whole >= -2.0 ** 31) & (whole < 2.0 ** 31)  # False for NaN
    return np.where(inside, np.nan_to_num(whole), -2.0 ** 31).astype(np.int64)


def round_to_int32_x86(r: np.ndarray) -> np.ndarray:
    """static_cast<int32_t>(std::round(r)) on float32 values as the x86 oracle computes it (int64 values):
    half away from zero, in float64 where adding 0.5 is exact (in float32 0.49999997 + 0.5 rounds up to 1)."""
    r = np.asarray(r, dtype=np.float32).astype(np.float64)
    with np.errstate(invalid="ignore"):
        return _x86_int32(np.copysign(np.floor(np.abs(r) + 0.5), r))


def truncate_to_int32_x86(r: np.ndarray) -> np.ndarray:
    """static_cast<int32_t>(r) on float32 values as the x86 oracle computes it (int64 values): toward zero."""
    return _x86_int32(np.trunc(np.asarray(r, dtype=np.float32).astype(np.float64)))


@dataclass(frozen=True)
class FloatActivation:
    """mcu_float_activation: the clamp of a fused activation."""

    min: float
    max: float

    @classmethod
    def of(cls, op: Op) -> "FloatActivation":
        return cls(*RANGES.get(op.activation, (-FLT_MAX, FLT_MAX)))

    def fields(self) -> dict[str, Any]:
        return dict(min=self.min, max=self.max)

    def clamp(self, x: np.ndarray) -> np.ndarray:
        """std::min(std::max(x, lo), hi): a NaN stays NaN, infinities become the bounds."""
        y = np.where(x < F32(self.min), F32(self.min), x)
        return np.where(F32(self.max) < y, F32(self.max), y).astype(F32)


# mcu_expf's table: 2^(i/32) as doubles' bits, less i << 47; its cubic's coefficients / 32^k
_TWO_TO_I_32NDS = np.array([
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540], dtype=np.uint64)
_SHIFT = float.fromhex("0x1.8p52")
_INV_LN2_32 = float.fromhex("0x1.71547652b82fep+0") * 32
_C0 = float.fromhex("0x1.c6af84b912394p-5") / 32 / 32 / 32
_C1 = float.fromhex("0x1.ebfce50fac4f3p-3") / 32 / 32
_C2 = float.fromhex("0x1.62e42ff0c52d6p-1") / 32
_OVERFLOW = F32(float.fromhex("0x1.62e42ep6"))  # log(2^128)
_UNDERFLOW = F32(-float.fromhex("0x1.9fe368p6"))  # log(2^-150)


def expf(x: np.ndarray) -> np.ndarray:
    """mcu_expf (runtime_c/src/mcu_expf.c) on float32 values, step for step in float64."""
    x = np.asarray(x, dtype=F32)
    with np.errstate(all="ignore"):  # NaN and infinities go through, then take the early returns' values
        z = _INV_LN2_32 * x.astype(np.float64)
        kd = z + _SHIFT
        k = kd.view(np.uint64)
        r = z - (kd - _SHIFT)
        s = (_TWO_TO_I_32NDS[k % np.uint64(32)] + (k << np.uint64(47))).view(np.float64)
        y = ((_C0 * r + _C1) * (r * r) + (_C2 * r + 1.0)) * s
        out = y.astype(F32)
        # mcu_expf's early returns: NaN and +inf as x + x, overflow to +inf, underflow (and -inf) to 0
        out = np.where(np.isnan(x), x + x, out)
    out = np.where(x > _OVERFLOW, F32(np.inf), out)
    return np.where(x < _UNDERFLOW, F32(0.0), out).astype(F32)


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint32)


def _from_bits(u: np.ndarray) -> np.ndarray:
    return u.astype(np.uint32).view(F32)


# fdlibm's expm1f constants (mcu_expm1f)
_LN2_HI, _LN2_LO, _INVLN2 = F32(6.9313812256e-01), F32(9.0580006145e-06), F32(1.4426950216e+00)
_Q = [F32(v) for v in (-3.3333335072e-02, 1.5873016091e-03, -7.9365076090e-05, 4.0082177293e-06, -2.0109921195e-07)]


def expm1f(x: np.ndarray) -> np.ndarray:
    """mcu_expm1f (fdlibm's expm1f, glibc's bit for bit) on float32 values: every branch computed,
    each element taking its own."""
    x = np.asarray(x, dtype=F32)
    hx = _bits(x) & np.uint32(0x7fffffff)
    negative = (_bits(x) & np.uint32(0x80000000)) != 0
    with np.errstate(all="ignore"):
        # x = k ln2 + (hi - lo), k = +-1 for ln2/2 < |x| < 1.5 ln2, else rounded; k = 0 below ln2/2
        near = (hx > 0x3eb17218) & (hx < 0x3f851592)
        far = hx >= 0x3f851592
        guess = _INVLN2 * x + np.where(negative, F32(-0.5), F32(0.5))
        k = np.where(far, np.trunc(np.nan_to_num(guess, posinf=0.0, neginf=0.0)), 0).astype(np.int32)
        k = np.where(near, np.where(negative, -1, 1), k).astype(np.int32)
        t = k.astype(F32)
        hi = np.where(near, np.where(negative, x + _LN2_HI, x - _LN2_HI), x - t * _LN2_HI)
        lo = np.where(near, np.where(negative, -_LN2_LO, _LN2_LO), t * _LN2_LO)
        reduced = near | far
        r = np.where(reduced, hi - lo, x)
        c = np.where(reduced, (hi - r) - lo, F32(0.0))
        hfx = F32(0.5) * r
        hxs = r * hfx
        r1 = F32(1.0) + hxs * (_Q[0] + hxs * (_Q[1] + hxs * (_Q[2] + hxs * (_Q[3] + hxs * _Q[4]))))
        t3 = F32(3.0) - r1 * hfx
        e = hxs * ((r1 - t3) / (F32(6.0) - r * t3))
        unreduced = r - (r * e - hxs)
        e = (r * (e - c) - c) - hxs
        exponent = (k.astype(np.int64) << 23).astype(np.uint32)  # times 2^k, on the exponent's bits
        low_k, high_k = np.clip(k, 2, 22).astype(np.uint32), np.clip(k, 23, 56).astype(np.uint32)  # where each is taken
        by_k = {
            "minus1": F32(0.5) * (r - e) - F32(0.5),
            "plus1": np.where(r < F32(-0.25), F32(-2.0) * (e - (r + F32(0.5))), F32(1.0) + F32(2.0) * (r - e)),
            "wide": _from_bits(_bits(F32(1.0) - (e - r)) + exponent) - F32(1.0),
            "mid": _from_bits(_bits(_from_bits(np.uint32(0x3f800000) - (np.uint32(0x1000000) >> low_k)) - (e - r))
                              + exponent),
            "high": _from_bits(_bits(r - (e + _from_bits((np.uint32(0x7f) - high_k) << np.uint32(23))) + F32(1.0))
                               + exponent)}
        result = np.select([k == 0, k == -1, k == 1, (k <= -2) | (k > 56), k < 23],
                           [unreduced, by_k["minus1"], by_k["plus1"], by_k["wide"], by_k["mid"]], by_k["high"])
        result = np.where(~reduced & (hx < 0x33000000), x, result)  # |x| < 2^-25
        # |x| >= 27 ln2: -1 below, +inf past 88.7228, NaN as x + x
        result = np.where((hx >= 0x4195b844) & negative, F32(-1.0), result)
        result = np.where((hx >= 0x42b17218) & ~negative, F32(np.inf), result)
        result = np.where(hx > 0x7f800000, x + x, result)
    return result.astype(F32)


def tanhf(x: np.ndarray) -> np.ndarray:
    """mcu_tanhf (fdlibm's tanhf, glibc's bit for bit) on float32 values."""
    x = np.asarray(x, dtype=F32)
    ix = _bits(x) & np.uint32(0x7fffffff)
    negative = (_bits(x) & np.uint32(0x80000000)) != 0
    with np.errstate(all="ignore"):
        a = np.abs(x)
        up = expm1f(F32(2.0) * a)
        down = expm1f(F32(-2.0) * a)
        z = np.where(ix >= 0x3f800000, F32(1.0) - F32(2.0) / (up + F32(2.0)), -down / (down + F32(2.0)))
        z = np.where(ix >= 0x41b00000, F32(1.0), z)  # |x| >= 22
        z = np.where(negative, -z, z)
        z = np.where(ix < 0x24000000, x * (F32(1.0) + x), z)  # |x| < 2^-55, and +-0 as it is
        z = np.where(ix == 0, x, z)
        z = np.where(ix >= 0x7f800000, np.where(negative, F32(1.0) / x - F32(1.0), F32(1.0) / x + F32(1.0)), z)
    return z.astype(F32)


# mcu_logf's table (1/c, log c) and constants
_INV_C = np.array([float.fromhex(v) for v in (
    "0x1.661ec79f8f3bep+0", "0x1.571ed4aaf883dp+0", "0x1.49539f0f010bp+0", "0x1.3c995b0b80385p+0",
    "0x1.30d190c8864a5p+0", "0x1.25e227b0b8eap+0", "0x1.1bb4a4a1a343fp+0", "0x1.12358f08ae5bap+0",
    "0x1.0953f419900a7p+0", "0x1p+0", "0x1.e608cfd9a47acp-1", "0x1.ca4b31f026aap-1",
    "0x1.b2036576afce6p-1", "0x1.9c2d163a1aa2dp-1", "0x1.886e6037841edp-1", "0x1.767dcf5534862p-1")])
_LOG_C = np.array([float.fromhex(v) for v in (
    "-0x1.57bf7808caadep-2", "-0x1.2bef0a7c06ddbp-2", "-0x1.01eae7f513a67p-2", "-0x1.b31d8a68224e9p-3",
    "-0x1.6574f0ac07758p-3", "-0x1.1aa2bc79c81p-3", "-0x1.a4e76ce8c0e5ep-4", "-0x1.1973c5a611cccp-4",
    "-0x1.252f438e10c1ep-5", "0x0p+0", "0x1.aa5aa5df25984p-5", "0x1.c5e53aa362eb4p-4",
    "0x1.526e57720db08p-3", "0x1.bc2860d22477p-3", "0x1.1058bc8a07ee1p-2", "0x1.4043057b6ee09p-2")])
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_A = [float.fromhex(v) for v in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")]


def logf(x: np.ndarray) -> np.ndarray:
    """mcu_logf (Arm optimized-routines' logf, glibc's bit for bit) on float32 values, step for step in
    float64."""
    x = np.asarray(x, dtype=F32)
    ix = _bits(x).astype(np.uint32)
    subnormal = (ix > 0) & (ix < 0x00800000)
    with np.errstate(all="ignore"):
        ix = np.where(subnormal, _bits((x * F32(2.0 ** 23)).astype(F32)) - np.uint32(23 << 23), ix).astype(np.uint32)
        tmp = ix - np.uint32(0x3f330000)
        i = ((tmp >> np.uint32(19)) % np.uint32(16)).astype(np.intp)
        k = (tmp.view(np.int32) >> 23).astype(np.float64)
        z = _from_bits(ix - (tmp & np.uint32(0xff800000))).astype(np.float64)
        r = z * _INV_C[i] - 1.0
        y0 = _LOG_C[i] + k * _LN2
        r2 = r * r
        y = (_A[0] * r2 + (_A[1] * r + _A[2])) * r2 + (y0 + r)
        out = y.astype(F32)
        # mcu_logf's early returns: -inf at +-0, inf at inf, NaN below 0 and at NaN
        out = np.where(_bits(x) * np.uint32(2) == 0, F32(-np.inf), out)
        out = np.where(x == F32(np.inf), x, out)
        out = np.where(((_bits(x) & np.uint32(0x80000000)) != 0) & (_bits(x) * np.uint32(2) != 0) | np.isnan(x),
                       F32(np.nan), out)
    return out.astype(F32)
