"""RESIZE_NEAREST_NEIGHBOR on NHWC, int8 or int16, with TFLM's float32 index arithmetic."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Const, Struct, dims, reads, writes
from mcugen.ir.options import Resized
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import require_const


def nearest(in_size: int, out_size: int, align_corners: bool, half_pixel: bool) -> list[int]:
    if align_corners and out_size > 1:
        scale = np.float32(in_size - 1) / np.float32(out_size - 1)
    else:
        scale = np.float32(in_size) / np.float32(out_size)
    pos = (np.arange(out_size, dtype=np.float32) + np.float32(0.5 if half_pixel else 0.0)) * scale
    pos = pos.astype(np.float64)  # exact; rounding below must see the float32 value
    idx = np.floor(pos + 0.5) if align_corners else np.floor(pos)
    idx = np.minimum(idx.astype(np.int64), in_size - 1)
    if half_pixel:
        idx = np.maximum(idx, 0)
    return idx.tolist()


def resized_shape(x: Tensor, size: Tensor) -> tuple[int, ...] | None:
    """[N, height, width, C] from a constant size tensor (TFLM loops over its values, not the declared
    output shape, so the two must agree); ValueError for sizes that make no image."""
    if not size.is_const:
        return None  # check() refuses it
    if len(x.shape) != 4 or size.values.size != 2:
        raise ValueError(f"input {list(x.shape)} and size {size.values.tolist()} are not an NHWC image and (height, width)")
    height, width = (int(v) for v in size.values.reshape(-1))
    if height < 1 or width < 1:
        raise ValueError(f"output size {height}x{width}")
    return (x.shape[0], height, width, x.shape[3])


@dataclass(frozen=True)
class Nearest:
    rows: list[int]  # the input row of each output row
    cols: list[int]


@register("RESIZE_NEAREST_NEIGHBOR")
class ResizeNearestNeighbor(OpDef):
    arity = ((2, 2), (1, 1))
    parameters = {1: ("int32",)}
    input_types = output_types = ("int8", "int16", "float32")
    copies_values = True

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        return resized_shape(op.input(g, 0), op.input(g, 1))

    def check(self, g: Graph, op: Op) -> list[str]:
        return require_const(g, op, {1: "the output size"})

    def prepare(self, g: Graph, op: Op) -> object:
        x, y = op.input(g, 0), op.output(g)
        o = op.options_as(Resized)
        align, half = o.align_corners, o.half_pixel_centers
        return Nearest(nearest(x.shape[1], y.shape[1], align, half), nearest(x.shape[2], y.shape[2], align, half))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(Nearest)
        return xs[0][:, p.rows][:, :, p.cols]

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(Nearest)
        resize = Struct("mcu_resize_params", "params", dict(
            rows=Const("rows", np.array(p.rows, dtype=np.int32)),
            cols=Const("cols", np.array(p.cols, dtype=np.int32))))
        # the kernel copies whole pixels: their channels counted in bytes serve int8 and int16 alike
        x, y = op.input(g, 0), op.output(g)
        pixel = (x.shape[3] * x.itemsize,)
        return Call("mcu_resize_nearest", (resize, dims("input_dims", x.shape[:3] + pixel), reads(op),
                                           dims("output_dims", y.shape[:3] + pixel), writes(op)))
