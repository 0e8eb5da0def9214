"""SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND (3-D NHC or 4-D NHWC, as TFLM): the pair converters put
around a dilated convolution. Both relate a "space" tensor [N, H, W, C] to a "batched" one
[bh*bw*N, h, w, C] by

  batched[(i*bw + j)*N + n, y, x, c] = space[n, y*bh + i - top, x*bw + j - left, c]

where (top, left) are the paddings (SPACE_TO_BATCH_ND: positions outside the input are filled)
or the crops (BATCH_TO_SPACE_ND: positions outside the output are dropped). Values are copied.

The padding is filled with real 0 (the output zero point; 0.0 in float32), as TFLite's kernel does. TFLM never
sets its fill value: it lives in an uninitialised persistent buffer, so TFLM pads with whatever
that memory holds (0 on a fresh arena, other values run to run in its Python interpreter, whatever
the zero point). mcugen follows the definition; the layer comment says so wherever it pads.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, reads, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import require_const

def as_4d(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(shape) if len(shape) == 4 else (shape[0], shape[1], 1, shape[2])


@dataclass(frozen=True)
class Blocks:
    """Both sides as [N, H, W, C]: the picture (`space`) and its blocks stacked in the batch."""

    block: tuple[int, int]
    edges: tuple[tuple[int, int], tuple[int, int]]  # paddings (SPACE_TO_BATCH_ND) or crops, per spatial axis
    space: tuple[int, ...]
    batched: tuple[int, ...]


@register("SPACE_TO_BATCH_ND", "BATCH_TO_SPACE_ND")
class SpaceBatch(OpDef):
    arity = ((3, 3), (1, 1))
    parameters = {1: ("int32",), 2: ("int32",)}
    input_types = output_types = ("int8", "float32")  # TFLM's kernels' types

    def check(self, g: Graph, op: Op) -> list[str]:
        what = "the paddings" if op.opcode == "SPACE_TO_BATCH_ND" else "the crops"
        return require_const(g, op, {1: "the block shape", 2: what})

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x, block, edges = op.input(g, 0), op.input(g, 1), op.input(g, 2)
        if not (block.is_const and edges.is_const):
            return None  # check() refuses it
        if not 3 <= len(x.shape) <= 4:
            raise ValueError(f"input {list(x.shape)} is not 3-D or 4-D, as TFLM needs")
        to_batch = op.opcode == "SPACE_TO_BATCH_ND"
        sizes, sides = block.values.reshape(-1).tolist(), edges.values.tolist()
        spatial = len(x.shape) - 2
        if len(sizes) != spatial or len(sides) != spatial or any(len(e) != 2 for e in sides) \
                or min(sizes) < 1 or min(map(min, sides)) < 0:
            raise ValueError(f"block shape {sizes} and {'paddings' if to_batch else 'crops'} {sides} "
                             f"do not fit a {len(x.shape)}-D input")
        factor = int(np.prod(sizes))
        out = [x.shape[0] * factor if to_batch else x.shape[0] // factor]
        for size, b, (before, after) in zip(x.shape[1:], sizes, sides):
            out.append((size + before + after) // b if to_batch else size * b - before - after)
            if to_batch and (size + before + after) % b:
                raise ValueError(f"padded size {size + before + after} is not a multiple of the block {b}")
        if not to_batch and x.shape[0] % factor:
            raise ValueError(f"batch {x.shape[0]} is not a multiple of the block's {factor} positions")
        return (*out, x.shape[-1])

    def prepare(self, g: Graph, op: Op) -> object:
        block = [int(b) for b in op.input(g, 1).values.reshape(-1)] + [1]
        edges = [(int(a), int(b)) for a, b in op.input(g, 2).values.astype(np.int64)] + [(0, 0)]
        space, batched = op.input(g, 0), op.output(g)
        if op.opcode == "BATCH_TO_SPACE_ND":
            space, batched = batched, space
        return Blocks((block[0], block[1]), (edges[0], edges[1]), as_4d(space.shape), as_4d(batched.shape))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(Blocks)
        (bh, bw), ((top, bottom), (left, right)) = p.block, p.edges
        n, h, w, c = p.space
        _, bh_rows, bw_cols, _ = p.batched
        if op.opcode == "SPACE_TO_BATCH_ND":
            padded = np.pad(xs[0].reshape(n, h, w, c), [(0, 0), (top, bottom), (left, right), (0, 0)],
                            constant_values=_fill(g, op))
            out = padded.reshape(n, bh_rows, bh, bw_cols, bw, c).transpose(2, 4, 0, 1, 3, 5)
        else:
            full = xs[0].reshape(bh, bw, n, bh_rows, bw_cols, c).transpose(2, 3, 0, 4, 1, 5)
            full = full.reshape(n, bh_rows * bh, bw_cols * bw, c)
            out = full[:, top:top + h, left:left + w]
        return np.ascontiguousarray(out).reshape(op.output(g).shape)

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(Blocks)
        n, h, w, c = p.space
        to_batch = op.opcode == "SPACE_TO_BATCH_ND"
        params = Struct("mcu_space_batch_params", "params", dict(
            batch=n, space_h=h, space_w=w, batched_h=p.batched[1], batched_w=p.batched[2],
            depth=c * op.output(g).itemsize, block_h=p.block[0], block_w=p.block[1], top=p.edges[0][0],
            left=p.edges[1][0], to_batch=int(to_batch), fill=_fill(g, op)))
        note = f"block {list(p.block)}, {'paddings' if to_batch else 'crops'} {[list(e) for e in p.edges]}"
        if to_batch and any(map(any, p.edges)):
            note += "; pads with real 0 as TFLite (TFLM pads with uninitialised memory)"
        return Call("mcu_space_batch", (params, reads(op), writes(op)), note=note)


def _fill(g: Graph, op: Op) -> int:
    """What a padded position holds: real 0, the zero point (0.0f, all bits 0, in float32)."""
    y = op.output(g)
    return y.q.zp if y.dtype == "int8" else 0
