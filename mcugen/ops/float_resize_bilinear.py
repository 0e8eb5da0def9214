"""RESIZE_BILINEAR in float32: TFLM's reference_ops::ResizeBilinear.

Scales in float32 (in / out, or (in - 1) / (out - 1) with align_corners); output index v maps to
v * scale, or (v + 0.5) * scale - 0.5 with half-pixel centers, each step rounded to float32; its
neighbours are floor (at least 0) and ceil (at most the last index) of that, and the weight of the
second is the position less the first. TFLM computes these per output position at run time; mcugen
at build time, the same float32 operations, and the kernel only blends.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, writes
from mcugen.ir.options import Resized
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32
from mcugen.ops.resize_bilinear import ResizeBilinear


def interpolation(in_size: int, out_size: int, align_corners: bool, half_pixel: bool
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lower, upper, weight of upper) per output index, TFLM's ComputeInterpolationValues."""
    scale = F32(in_size) / F32(out_size)
    if align_corners and out_size > 1:
        scale = F32(in_size - 1) / F32(out_size - 1)
    v = np.arange(out_size, dtype=F32)
    pos = (v + F32(0.5)) * scale - F32(0.5) if half_pixel else v * scale
    lower = np.maximum(np.floor(pos).astype(np.int32), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int32), in_size - 1)
    return lower, upper, (pos - lower.astype(F32)).astype(F32)


@dataclass(frozen=True)
class FloatBilinear:
    y0: np.ndarray
    y1: np.ndarray
    dy: np.ndarray
    x0: np.ndarray
    x1: np.ndarray
    dx: np.ndarray


@register("RESIZE_BILINEAR", dtype="float32")
class FloatResizeBilinear(ResizeBilinear):
    def prepare(self, g: Graph, op: Op) -> object:
        x, y = op.input(g, 0), op.output(g)
        o = op.options_as(Resized)
        flags = o.align_corners, o.half_pixel_centers
        return FloatBilinear(*interpolation(x.shape[1], y.shape[1], *flags),
                             *interpolation(x.shape[2], y.shape[2], *flags))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(FloatBilinear)
        dy, dx = p.dy[None, :, None, None], p.dx[None, None, :, None]
        uy, ux = F32(1) - dy, F32(1) - dx
        top, bottom = xs[0][:, p.y0], xs[0][:, p.y1]
        with np.errstate(all="ignore"):
            total = top[:, :, p.x0] * uy * ux + bottom[:, :, p.x0] * dy * ux + top[:, :, p.x1] * uy * dx
            return (total + bottom[:, :, p.x1] * dy * dx + F32(0)).astype(F32)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(FloatBilinear)
        resize = Struct("mcu_resize_bilinear_f32_params", "params", {
            f.name: Const(f.name, getattr(p, f.name)) for f in dataclasses.fields(p)})
        flags = op.options_as(Resized).flags
        return Call("mcu_resize_bilinear_f32", (resize, dims("input_dims", op.input(g, 0).shape), reads(op),
                                                dims("output_dims", op.output(g).shape), writes(op)),
                    note=", ".join(flags) or "corners not aligned, no half-pixel centers")
