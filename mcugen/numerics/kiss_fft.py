"""KISS FFT's real FFT (kissfft v130 as TFLM builds it) in numpy, bit for bit: ops/signal_fft.py's golden
model, whose docstring states the arithmetic. `rfft_plan` makes (once per type, length and radices) what
`rfft` runs; `factor` gives kissfft's radices of a length, `prime_factors` what TFLM's build can run.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

F32 = np.float32


def prime_factors(n: int) -> list[int]:
    out, d = [], 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    return out + ([n] if n > 1 else [])


def factor(n: int) -> list[int]:
    """kissfft's kf_factor: powers of 4, then 2, then odd primes; (radix, remaining length) pairs."""
    out, p = [], 4
    floor_sqrt = math.floor(math.sqrt(n))
    while True:
        while n % p:
            p = {4: 2, 2: 3}.get(p, p + 2)
            if p > floor_sqrt:
                p = n
        n //= p
        out += [p, n]
        if n <= 1:
            return out


class _Arithmetic:
    """A kissfft scalar type's operations on numpy arrays (see the module's docstring)."""

    def store(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def fixdiv(self, c: np.ndarray, p: int) -> np.ndarray:
        raise NotImplementedError

    def smul(self, a: np.ndarray, b: Any) -> np.ndarray:
        raise NotImplementedError

    def cmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def half(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def trig(self, phase: float) -> tuple[float, float]:
        raise NotImplementedError

    def array(self, x: Any) -> np.ndarray:
        raise NotImplementedError


class _Fixed(_Arithmetic):
    """kissfft's FIXED_POINT arithmetic on int64 arrays: products rounded to Q(bits - 1) (sround),
    every store into kiss_fft_scalar keeping its low `bits` bits."""

    def __init__(self, bits: int):
        self.bits, self.one = bits, (1 << (bits - 1)) - 1  # SAMP_MAX

    def store(self, x: np.ndarray) -> np.ndarray:
        half = 1 << (self.bits - 1)
        return ((x + half) & ((1 << self.bits) - 1)) - half

    def sround(self, x: np.ndarray) -> np.ndarray:
        return self.store((x + (1 << (self.bits - 2))) >> (self.bits - 1))

    def fixdiv(self, c: np.ndarray, p: int) -> np.ndarray:
        return self.sround(c * (self.one // p))

    def smul(self, a: np.ndarray, b: Any) -> np.ndarray:
        return self.sround(a * b)

    def cmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        re = self.sround(a[..., 0] * b[..., 0] - a[..., 1] * b[..., 1])
        im = self.sround(a[..., 0] * b[..., 1] + a[..., 1] * b[..., 0])
        return np.stack([re, im], axis=-1)

    def half(self, x: np.ndarray) -> np.ndarray:
        """HALF_OF of a sum: an int16 sum is an int (no wrap), an int32 one wraps first."""
        return (self.store(x) if self.bits == 32 else x) >> 1

    def trig(self, phase: float) -> tuple[float, float]:
        return math.floor(.5 + self.one * math.cos(phase)), math.floor(.5 + self.one * math.sin(phase))

    def array(self, x: Any) -> np.ndarray:
        return np.asarray(x, np.int64)


class _Float(_Arithmetic):
    """kissfft's float32 arithmetic: each operation rounded to float32 in C's order, no FIXDIV."""

    def store(self, x: np.ndarray) -> np.ndarray:
        return x

    def fixdiv(self, c: np.ndarray, p: int) -> np.ndarray:
        return c

    def smul(self, a: np.ndarray, b: Any) -> np.ndarray:
        return a * F32(b)

    def cmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        re = a[..., 0] * b[..., 0] - a[..., 1] * b[..., 1]
        im = a[..., 0] * b[..., 1] + a[..., 1] * b[..., 0]
        return np.stack([re, im], axis=-1)

    def half(self, x: np.ndarray) -> np.ndarray:
        return x * F32(0.5)

    def trig(self, phase: float) -> tuple[float, float]:
        return float(F32(math.cos(phase))), float(F32(math.sin(phase)))

    def array(self, x: Any) -> np.ndarray:
        return np.asarray(x, F32)


ARITHMETIC: dict[str, _Arithmetic] = {"int16": _Fixed(16), "int32": _Fixed(32), "float32": _Float()}


@dataclass(frozen=True)
class RfftPlan:
    """kf_work unrolled: the input order its recursion reads, then each level's butterflies run on all
    of that level's blocks at once (they are the same arithmetic on other data)."""

    dtype: str
    half: int
    factors: tuple[int, ...]
    twiddles: np.ndarray  # [half, 2]
    supers: np.ndarray  # [half / 2, 2]
    order: np.ndarray  # output position j reads input pair order[j]

    @property
    def ar(self) -> _Arithmetic:
        return ARITHMETIC[self.dtype]

    def fft(self, data: np.ndarray) -> np.ndarray:
        """[rows, half, 2] pairs -> their complex FFT, in kissfft's arithmetic."""
        out = data[:, self.order]
        fstride, levels = 1, []
        for k in range(0, len(self.factors), 2):
            p, m = self.factors[k], self.factors[k + 1]
            levels.append((p, m, fstride))
            fstride *= p
        for p, m, fstride in reversed(levels):
            blocks = out.reshape(out.shape[0], -1, p, m, 2)
            blocks[:] = _BUTTERFLIES[p](self, blocks, m, fstride)
        return out

    def rfft(self, rows: np.ndarray) -> np.ndarray:
        """[rows, fft_length] values -> [rows, 2 * (half + 1)] (kiss_fftr)."""
        ar, n, half = self.ar, len(rows), self.half
        tmp = self.fft(ar.array(rows).reshape(n, half, 2))
        freq = ar.array(np.zeros((n, half + 1, 2)))
        tdc = ar.fixdiv(tmp[:, 0], 2)
        freq[:, 0, 0] = ar.store(tdc[:, 0] + tdc[:, 1])
        freq[:, half, 0] = ar.store(tdc[:, 0] - tdc[:, 1])
        k = np.arange(1, half // 2 + 1)
        fpk = ar.fixdiv(tmp[:, k], 2)
        fpnk = ar.fixdiv(np.stack([tmp[:, half - k, 0], ar.store(-tmp[:, half - k, 1])], axis=-1), 2)
        f1k, f2k = ar.store(fpk + fpnk), ar.store(fpk - fpnk)
        tw = ar.cmul(f2k, self.supers[k - 1])
        freq[:, k, 0] = ar.half(f1k[..., 0] + tw[..., 0])
        freq[:, k, 1] = ar.half(f1k[..., 1] + tw[..., 1])
        freq[:, half - k, 0] = ar.half(f1k[..., 0] - tw[..., 0])  # at k = half / 2 this write wins, as in C
        freq[:, half - k, 1] = ar.half(tw[..., 1] - f1k[..., 1])
        return freq.reshape(n, -1).astype(self.dtype)


def _bfly2(plan: RfftPlan, b: np.ndarray, m: int, fstride: int) -> np.ndarray:
    ar = plan.ar
    f0, f1 = ar.fixdiv(b[:, :, 0], 2), ar.fixdiv(b[:, :, 1], 2)
    t = ar.cmul(f1, plan.twiddles[np.arange(m) * fstride])
    return np.stack([ar.store(f0 + t), ar.store(f0 - t)], axis=2)


def _bfly3(plan: RfftPlan, b: np.ndarray, m: int, fstride: int) -> np.ndarray:
    ar = plan.ar
    f0, f1, f2 = (ar.fixdiv(b[:, :, q], 3) for q in range(3))
    k = np.arange(m)
    s1, s2 = ar.cmul(f1, plan.twiddles[k * fstride]), ar.cmul(f2, plan.twiddles[2 * k * fstride])
    s3, s0 = ar.store(s1 + s2), ar.store(s1 - s2)
    o1 = ar.store(f0 - ar.half(s3))
    s0 = ar.smul(s0, plan.twiddles[fstride * m][1])
    o0 = ar.store(f0 + s3)
    o2 = np.stack([ar.store(o1[..., 0] + s0[..., 1]), ar.store(o1[..., 1] - s0[..., 0])], axis=-1)
    o1 = np.stack([ar.store(o1[..., 0] - s0[..., 1]), ar.store(o1[..., 1] + s0[..., 0])], axis=-1)
    return np.stack([o0, o1, o2], axis=2)


def _bfly4(plan: RfftPlan, b: np.ndarray, m: int, fstride: int) -> np.ndarray:
    ar = plan.ar
    f0, f1, f2, f3 = (ar.fixdiv(b[:, :, q], 4) for q in range(4))
    k = np.arange(m)
    s0 = ar.cmul(f1, plan.twiddles[k * fstride])
    s1 = ar.cmul(f2, plan.twiddles[2 * k * fstride])
    s2 = ar.cmul(f3, plan.twiddles[3 * k * fstride])
    s5 = ar.store(f0 - s1)
    f0 = ar.store(f0 + s1)
    s3, s4 = ar.store(s0 + s2), ar.store(s0 - s2)
    o2 = ar.store(f0 - s3)
    o0 = ar.store(f0 + s3)
    o1 = np.stack([ar.store(s5[..., 0] + s4[..., 1]), ar.store(s5[..., 1] - s4[..., 0])], axis=-1)
    o3 = np.stack([ar.store(s5[..., 0] - s4[..., 1]), ar.store(s5[..., 1] + s4[..., 0])], axis=-1)
    return np.stack([o0, o1, o2, o3], axis=2)


def _bfly5(plan: RfftPlan, b: np.ndarray, m: int, fstride: int) -> np.ndarray:
    ar = plan.ar
    f = [ar.fixdiv(b[:, :, q], 5) for q in range(5)]
    ya, yb = plan.twiddles[fstride * m], plan.twiddles[fstride * 2 * m]
    u = np.arange(m)
    s0 = f[0]
    s1, s2, s3, s4 = (ar.cmul(f[q], plan.twiddles[q * u * fstride]) for q in range(1, 5))
    s7, s10, s8, s9 = ar.store(s1 + s4), ar.store(s1 - s4), ar.store(s2 + s3), ar.store(s2 - s3)
    mul = ar.smul

    def re(c: np.ndarray) -> np.ndarray:
        return c[..., 0]

    def im(c: np.ndarray) -> np.ndarray:
        return c[..., 1]

    o0 = ar.store(f[0] + (s7 + s8))
    s5 = np.stack([ar.store(re(s0) + mul(re(s7), ya[0]) + mul(re(s8), yb[0])),
                   ar.store(im(s0) + mul(im(s7), ya[0]) + mul(im(s8), yb[0]))], axis=-1)
    s6 = np.stack([ar.store(mul(im(s10), ya[1]) + mul(im(s9), yb[1])),
                   ar.store(-mul(re(s10), ya[1]) - mul(re(s9), yb[1]))], axis=-1)
    s11 = np.stack([ar.store(re(s0) + mul(re(s7), yb[0]) + mul(re(s8), ya[0])),
                    ar.store(im(s0) + mul(im(s7), yb[0]) + mul(im(s8), ya[0]))], axis=-1)
    s12 = np.stack([ar.store(-mul(im(s10), yb[1]) + mul(im(s9), ya[1])),
                    ar.store(mul(re(s10), yb[1]) - mul(re(s9), ya[1]))], axis=-1)
    return np.stack([o0, ar.store(s5 - s6), ar.store(s11 + s12), ar.store(s11 - s12), ar.store(s5 + s6)], axis=2)


_BUTTERFLIES: dict[int, Callable[[RfftPlan, np.ndarray, int, int], np.ndarray]] = {
    2: _bfly2, 3: _bfly3, 4: _bfly4, 5: _bfly5}


def _order(half: int, factors: tuple[int, ...]) -> np.ndarray:
    """Which input pair kf_work's leaves copy to each output position."""
    order = np.zeros(half, np.int64)

    def work(out: int, f: int, fstride: int, k: int) -> None:
        p, m = factors[k], factors[k + 1]
        for q in range(p):
            if m == 1:
                order[out + q] = f + q * fstride
            else:
                work(out + q * m, f + q * fstride, fstride * p, k + 2)

    work(0, 0, 1, 0)
    return order


_PLANS: dict[tuple[str, int, tuple[int, ...]], RfftPlan] = {}


def rfft_plan(dtype: str, fft_length: int, factors: tuple[int, ...], twiddles: tuple[float, ...],
          supers: tuple[float, ...]) -> RfftPlan:
    key = (dtype, fft_length, factors)
    if key not in _PLANS:
        half, ar = fft_length // 2, ARITHMETIC[dtype]
        _PLANS[key] = RfftPlan(dtype, half, factors, ar.array(twiddles).reshape(half, 2),
                            ar.array(supers).reshape(-1, 2), _order(half, factors))
    return _PLANS[key]
