"""The logistic and tanh LiteRT's hybrid LSTM computes with: Eigen's vectorized float functions
(scalar_logistic_op<float>::packetOp and ptanh_float, as TensorFlow 2.21's Eigen spells them), each step a
float32 operation, multiply-adds unfused (LiteRT's x86 build: measured bit for bit, docs/numerics.md).
runtime_c/src/mcu_logistic_eigen_f32.c and mcu_tanh_eigen_f32.c compute the same, in the same order."""
from __future__ import annotations

import numpy as np

F32 = np.float32


def _madd(a: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray | np.float32) -> np.ndarray:
    return ((a * b).astype(F32) + c).astype(F32)


def eigen_logistic(v: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-v)) as e / (1 + e), e = exp(x / 2)^2 by Cephes' range reduction and a degree-5
    polynomial, x = min(v, 16.6355324); 0 below -104."""
    v = np.asarray(v, F32)
    with np.errstate(all="ignore"):
        x = (np.minimum(v, F32(16.6355324)) * F32(0.5)).astype(F32)
        m = np.floor(_madd(x, F32(1.44269504088896341), F32(0.5))).astype(F32)
        r = _madd(m, F32(-0.693359375), x)
        r = _madd(m, F32(2.12194440e-4), r)
        r2 = (r * r).astype(F32)
        even = _madd(r2, F32(4.1898667812347412109375e-2), F32(0.49999141693115234375))
        odd = _madd(r2, F32(8.33471305668354034423828125e-3), F32(0.16666877269744873046875))
        p = _madd(r, odd, even)
        p = _madd(r2, p, (r + F32(1.0)).astype(F32))
        e = (p * np.exp2(m.astype(np.float64))).astype(F32)  # 2^m: an exact scaling
        e = (e * e).astype(F32)
        return np.where(v < F32(-104.0), F32(0.0), (e / (F32(1.0) + e)).astype(F32)).astype(F32)


_TANH_P = [F32(c) for c in (1.394553628e-8, 2.102733560e-5, 3.520756727e-3, 1.340216100e-1)]
_TANH_Q = [F32(c) for c in (8.015776984e-7, 3.326951409e-4, 2.597254514e-2, 4.673548340e-1, 1.0)]


def eigen_tanh(v: np.ndarray) -> np.ndarray:
    """x clamped to +-7.90738964, then (x^3 p(x^2) + x) / q(x^2): the [9,8] rational, Horner's steps."""
    clamp = F32(7.90738964080810547)
    with np.errstate(all="ignore"):
        x = np.maximum(np.minimum(np.asarray(v, F32), clamp), -clamp).astype(F32)
        x2 = (x * x).astype(F32)
        x3 = (x2 * x).astype(F32)
        p = np.full(x.shape, _TANH_P[0], F32)
        for c in _TANH_P[1:]:
            p = _madd(p, x2, c)
        q = np.full(x.shape, _TANH_Q[0], F32)
        for c in _TANH_Q[1:]:
            q = _madd(q, x2, c)
        return (_madd(x3, p, x) / q).astype(F32)
