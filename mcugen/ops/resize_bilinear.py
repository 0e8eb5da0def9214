"""RESIZE_BILINEAR int8, as TFLM's integer path (reference_ops::ResizeBilinearInteger).

Positions are fixed point with 10 fractional bits: scale = round(2^10 * in / out) (or
(in - 1) / (out - 1) with align_corners), an output index v maps to v * scale (+ scale/2 - 2^9 with
half_pixel_centers), its neighbours are that over 2^10 truncated and rounded up (clamped to the
image), and its weight is the remainder. The four raw int8 neighbours are weighted in 20 bits and
divided by 2^20, the sum's half added away from zero. The raw values are interpolated whatever
the quantization (TFLM checks none), so mcugen does the same.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, writes
from mcugen.ir.options import Resized
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import require_const
from mcugen.ops.resize_nearest_neighbor import resized_shape
from mcugen.numerics.requant import trunc_div_pow2

ONE = 1 << 10


def _c_div(a: int, b: int) -> int:
    return -(-a // b) if a < 0 else a // b


def interpolation(in_size: int, out_size: int, align_corners: bool, half_pixel: bool
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lower, upper, weight of upper in 1/2^10) for each output index, as TFLM computes them."""
    scale = (ONE * in_size + out_size // 2) // out_size
    if align_corners and out_size > 1:
        scale = (ONE * (in_size - 1) + (out_size - 1) // 2) // (out_size - 1)
    lower, upper, weight = [], [], []
    for v in range(out_size):
        pos = v * scale + scale // 2 - ONE // 2 if half_pixel else v * scale
        lo = max(_c_div(pos, ONE), 0)
        lower.append(lo)
        upper.append(min(_c_div(pos + ONE - 1, ONE), in_size - 1))
        weight.append(pos - ONE * lo)
    return np.array(lower), np.array(upper), np.array(weight)


@dataclass(frozen=True)
class Bilinear:
    """Per output row and column: the two input rows (columns) it blends and the weight of the
    second in 1/2^10, as TFLM computes them; each becomes an int32 array of the C struct."""

    y0: np.ndarray
    y1: np.ndarray
    fy: np.ndarray
    x0: np.ndarray
    x1: np.ndarray
    fx: np.ndarray


@register("RESIZE_BILINEAR")
class ResizeBilinear(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        return resized_shape(op.input(g, 0), op.input(g, 1))

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = require_const(g, op, {1: "the output size"})
        if len(op.options_as(Resized).flags) == 2:
            problems.append("align_corners and half_pixel_centers are both set (TFLM refuses that)")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        x, y = op.input(g, 0), op.output(g)
        o = op.options_as(Resized)
        flags = o.align_corners, o.half_pixel_centers
        y0, y1, fy = interpolation(x.shape[1], y.shape[1], *flags)
        x0, x1, fx = interpolation(x.shape[2], y.shape[2], *flags)
        return Bilinear(y0, y1, fy, x0, x1, fx)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(Bilinear)
        img = xs[0].astype(np.int64)
        fy, fx = p.fy[None, :, None, None], p.fx[None, None, :, None]
        top, bottom = img[:, p.y0], img[:, p.y1]
        acc = ((top[:, :, p.x0] * (ONE - fy) + bottom[:, :, p.x0] * fy) * (ONE - fx)
               + (top[:, :, p.x1] * (ONE - fy) + bottom[:, :, p.x1] * fy) * fx)
        return trunc_div_pow2(acc + np.where(acc > 0, 1 << 19, -(1 << 19)), 20).astype(np.int8)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(Bilinear)
        resize = Struct("mcu_resize_bilinear_params", "params", {
            f.name: Const(f.name, np.asarray(getattr(p, f.name), dtype=np.int32)) for f in dataclasses.fields(p)})
        flags = op.options_as(Resized).flags
        return Call("mcu_resize_bilinear_s8", (resize, dims("input_dims", op.input(g, 0).shape), reads(op),
                                               dims("output_dims", op.output(g).shape), writes(op)),
                    note=", ".join(flags) or "corners not aligned, no half-pixel centers")
