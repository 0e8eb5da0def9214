"""DEPTH_TO_SPACE and SPACE_TO_DEPTH (NHWC, TF's DCR order): a block of b x b pixels and the channels
of one pixel trade places, values copied as they are. Both are one strided copy:

  DEPTH_TO_SPACE: out[n, h*b + i, w*b + j, c] = in[n, h, w, (i*b + j)*C + c]   (C output channels)
  SPACE_TO_DEPTH: out[n, h, w, (i*b + j)*C + c] = in[n, h*b + i, w*b + j, c]   (C input channels)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, copy, reads, strides_of, writes
from mcugen.ir.options import Blocked
from mcugen.ops import OpDef, Outputs, Shapes, register


@dataclass(frozen=True)
class Block:
    size: int


@register("DEPTH_TO_SPACE", "SPACE_TO_DEPTH")
class SpaceDepth(OpDef):
    input_types = output_types = ("int8", "float32")  # TFLM's kernels' types
    copies_values = True
    def output_shape(self, g: Graph, op: Op) -> Shapes:
        b, shape = op.options_as(Blocked).block_size, op.input(g, 0).shape
        if len(shape) != 4 or b < 1:
            raise ValueError(f"block size {b} on input {list(shape)} (needs >= 1 and NHWC)")
        n, h, w, c = shape
        if op.opcode == "SPACE_TO_DEPTH":
            if h % b or w % b:
                raise ValueError(f"height and width {h}x{w} are not multiples of the block size {b}")
            return (n, h // b, w // b, c * b * b)
        if c % (b * b):
            raise ValueError(f"{c} channels are not a multiple of the block size {b} squared")
        return (n, h * b, w * b, c // (b * b))

    def check(self, g: Graph, op: Op) -> list[str]:
        b = op.options_as(Blocked).block_size
        x, y = op.input(g, 0), op.output(g)
        problems = []
        if len(x.shape) != 4 or b < 1:
            return [f"needs a 4-D input and a block size >= 1 (got {list(x.shape)}, {b})"]
        small = x if op.opcode == "SPACE_TO_DEPTH" else y
        if small.shape[1] % b or small.shape[2] % b:
            problems.append(f"height and width {small.shape[1:3]} must be multiples of the block size {b}")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        return Block(op.options_as(Blocked).block_size)

    def _blocks(self, g: Graph, op: Op) -> tuple[int, int, int, int, int]:
        """(N, H, W, C) of the side with the small picture, and the block size."""
        side = op.output(g) if op.opcode == "SPACE_TO_DEPTH" else op.input(g, 0)
        b = op.prepared(Block).size
        n, h, w, c = side.shape
        return n, h, w, c // (b * b), b

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        n, h, w, c, b = self._blocks(g, op)
        if op.opcode == "DEPTH_TO_SPACE":
            return xs[0].reshape(n, h, w, b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(op.output(g).shape)
        return xs[0].reshape(n, h, b, w, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        n, h, w, c, b = self._blocks(g, op)
        if op.opcode == "DEPTH_TO_SPACE":  # walk the output as (n, h, i, w, j, c)
            shape = [n, h, b, w, b, c]
            source = [h * w * b * b * c, w * b * b * c, b * c, b * b * c, c, 1]
        else:  # walk the output as (n, h, w, i, j, c)
            shape = [n, h, w, b, b, c]
            source = [h * b * w * b * c, b * w * b * c, b * c, w * b * c, c, 1]
        params = Struct("mcu_copy_params", "params", copy(shape, source, strides_of(shape),
                                                          itemsize=op.input(g, 0).itemsize))
        return Call("mcu_copy_strided", (params, reads(op), writes(op)), note=f"block {b}")
