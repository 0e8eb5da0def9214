"""What the float32 kernels (ops/float_*.py, runtime_c/include/mcu_nn_float.h) share.

TFLM's float reference kernels round after every operation in a fixed order; the golden model does
the same in numpy float32 (one array operation per step, never a reduction whose order numpy picks),
and the C kernels never contract a multiply and an add (runtime_c/include/mcu_nn_fp_exact.h). e^x is computed as Arm's optimized-routines
expf computes it (the host glibc's expf bit for bit, measured), in numpy float64 here and in
mcu_expf on the target, so golden model, host and every core agree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mcugen.ir import Graph, Op
from mcugen.lowering import Call

F32 = np.float32
FLT_MAX = float(np.finfo(np.float32).max)
# TFLM's CalculateActivationRange for float: the fused activations it knows; any other is no clamp
RANGES = {"RELU": (0.0, FLT_MAX), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0)}


@dataclass(frozen=True)
class FloatActivation:
    """mcu_float_activation: the clamp of a fused activation."""

    min: float
    max: float

    @classmethod
    def of(cls, op: Op) -> "FloatActivation":
        return cls(*RANGES.get(op.attrs.get("fused_activation_function", "NONE"), (-FLT_MAX, FLT_MAX)))

    def fields(self) -> dict[str, Any]:
        return dict(min=self.min, max=self.max)

    def clamp(self, x: np.ndarray) -> np.ndarray:
        """std::min(std::max(x, lo), hi): a NaN stays NaN, infinities become the bounds."""
        y = np.where(x < F32(self.min), F32(self.min), x)
        return np.where(F32(self.max) < y, F32(self.max), y).astype(F32)


class FloatKernel:
    """Mixed into a float32 OpDef (before the integer one it may extend for shapes and MACs): float32
    data, and no fused strips (those are integer kernels)."""

    input_types: tuple[str, ...] = ("float32",)
    output_types: tuple[str, ...] = ("float32",)
    converts = False

    def lower_fused(self, g: Graph, op: Op, conv: Op, operand: int) -> Call | None:
        return None


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
