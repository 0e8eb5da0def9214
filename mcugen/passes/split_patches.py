"""Patch-based inference (MCUNetV2, NeurIPS 2021): a model's first stage run band by band.

The stage is the graph's first run of band-able ops (from stage_start, after an input TRANSPOSE or QUANTIZE)
up to a chosen end: convolutions, depthwise convolutions and pools, and the element-wise ops between them (a
residual ADD included), integer, batch 1, reading one tensor from outside and leaving one. Its output is cut
into `bands` runs of whole rows; each band's layers compute only the rows that band needs, recomputing the
few its neighbours need too (each window's rows above and below), so only one band's intermediate tensors
are ever live: the stage's peak falls by about the number of bands, for the
recomputed MACs. Bit for bit the whole-tensor run: every band layer reads exactly the rows the whole layer
would, padding only at the image's own edges (its windows placed by `folded_pad`, as passes/fold_pads.py
places a folded PAD's).

Each band reads its rows of the stage's input through a STRIDED_SLICE and its last layer's rows meet in a
CONCATENATION on the height: place_views makes both views where the rows are word-aligned (no copy, the band
written straight into the stage's output), copies elsewhere. A layer reading fewer rows of a band tensor than
the band computed (an ADD beside a conv's halo) reads them through a STRIDED_SLICE likewise.
"""
from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np

from mcugen import ops
from mcugen.ir.graph import Banding, Graph, Op, Tensor
from mcugen.ops._window import Window, declared_hw, geometry

WINDOWED = ("CONV_2D", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "MAX_POOL_2D")
ROWWISE = ("ADD", "SUB", "MUL", "RELU", "RELU6", "RELU_N1_TO_1", "LEAKY_RELU", "HARD_SWISH", "LOGISTIC", "TANH",
           "QUANTIZE")
Rows = tuple[int, int]


class Stage(NamedTuple):
    """The ops up to `end` (one of stage_ends) run in `bands` bands of their output's rows."""

    end: int
    bands: int


def stage_start(g: Graph) -> int:
    """Where the stage begins: at the graph's first band-able op (what comes before, an input TRANSPOSE or
    QUANTIZE, runs whole)."""
    return next((op.index for op in g.ops if _bandable(g, op)), len(g.ops))


def stage_ends(g: Graph) -> list[int]:
    """The op indices a stage may end at: each op of the run of band-able ops from stage_start whose output is
    the only tensor of the run read after it."""
    ends, inside = [], set()
    source = None
    for op in g.ops[stage_start(g):]:
        if not _bandable(g, op):
            break
        activations = [t for t in op.inputs if t >= 0 and not g.tensors[t].is_const]
        outside = [t for t in activations if t not in inside]
        if outside:
            if source is not None and outside != [source]:
                break
            source = outside[0]
        inside.add(op.outputs[0])
        later = {t for later_op in g.ops[op.index + 1:] for t in later_op.inputs}
        if [t for t in inside if t in later or t in g.outputs] == [op.outputs[0]]:
            ends.append(op.index)
    return ends


def _bandable(g: Graph, op: Op) -> bool:
    if len(op.outputs) != 1 or op.fused_into is not None:
        return False
    y = op.output(g)
    if len(y.shape) != 4 or y.shape[0] != 1:
        return False
    activations = [op.input(g, i) for i, t in enumerate(op.inputs) if t >= 0 and not g.tensors[t].is_const]
    # integer layers only: a dynamic-range layer quantizes its whole input with one scale, which a band would not
    if any(t.dtype not in ("int8", "int16") for t in (*activations, y)):
        return False
    if op.opcode in WINDOWED:
        return (len(activations) == 1 and op.inputs[0] == activations[0].index and len(activations[0].shape) == 4
                and not _window(g, op).declared)  # a placeholder output shape: windows as the options compute
    return op.opcode in ROWWISE and bool(activations) and all(x.shape == y.shape for x in activations) and \
        len(activations) == len([t for t in op.inputs if t >= 0])


def _kernel(g: Graph, op: Op) -> tuple[int, int]:
    if op.opcode in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        h, w = op.input(g, 1).shape[1:3]
        return h, w
    return op.attrs["filter_height"], op.attrs["filter_width"]


def _window(g: Graph, op: Op) -> Window:
    return geometry(op.attrs, op.input(g, 0).shape[1:3], _kernel(g, op), declared_hw(op.output(g).shape))


def _rows_read(g: Graph, op: Op, rows: Rows) -> Rows:
    """The input rows op reads to make its output rows [a, b)."""
    if op.opcode not in WINDOWED:
        return rows
    w, (kh, _) = _window(g, op), _kernel(g, op)
    a, b = rows
    start = a * w.stride[0] - w.pad[0]
    stop = (b - 1) * w.stride[0] - w.pad[0] + (kh - 1) * w.dilation[0] + 1
    return max(0, start), min(op.input(g, 0).shape[1], stop)


def band_rows(height: int, bands: int) -> list[Rows]:
    """`bands` runs of whole rows over `height`, as even as they come (the first ones the longer)."""
    cuts = np.cumsum([0] + [height // bands + (k < height % bands) for k in range(bands)])
    return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:])]


def needed_rows(g: Graph, stage: list[Op], rows: Rows) -> dict[int, Rows]:
    """For one band of the stage's output rows, the rows of each stage tensor (and of the stage's input)
    its layers need: the union over each tensor's readers, from the last layer back."""
    need = {stage[-1].outputs[0]: rows}
    for op in reversed(stage):
        out = need[op.outputs[0]]
        for t in op.inputs:
            if t < 0 or g.tensors[t].is_const:
                continue
            a, b = _rows_read(g, op, out)
            if t in need:
                a, b = min(a, need[t][0]), max(b, need[t][1])
            need[t] = (a, b)
    return need


def split_patches(g: Graph, chosen: Stage | None) -> Graph:
    """The chosen stage run band by band (None: g as it is)."""
    if chosen is None:
        return g
    stage_end, bands = chosen
    start = stage_start(g)
    stage = list(g.ops[start:stage_end + 1])
    last = stage[-1].outputs[0]
    source = next(t for op in stage for t in op.inputs
                  if t >= 0 and not g.tensors[t].is_const and t not in {o.outputs[0] for o in stage})
    b = _Builder(g)
    parts = []
    needs = [needed_rows(g, stage, rows) for rows in band_rows(g.tensors[last].shape[1], bands)]
    for k, need in enumerate(needs):
        tile = {source: b.rows_of(source, (0, g.tensors[source].shape[1]), need[source], f"band{k}",
                                  stage[0].origin)}
        for op in stage:
            out = need[op.outputs[0]]
            inputs = []
            for t in op.inputs:
                if t < 0 or g.tensors[t].is_const:
                    inputs.append(t)
                    continue
                tile_t, held = tile[t]
                inputs.append(b.rows_of(tile_t, held, _rows_read(g, op, out), f"band{k}", op.origin)[0])
            y = b.tensor(g.tensors[op.outputs[0]], out, f"band{k}")
            b.ops.append(dataclasses.replace(op, inputs=tuple(inputs), outputs=(y,), attrs=_band_attrs(g, op, out),
                                             part=f"band{k}"))
            tile[op.outputs[0]] = (y, out)
        parts.append(tile[last][0])
    b.ops.append(Op(-1, "CONCATENATION", 1, tuple(parts), (last,), {"axis": 1, "fused_activation_function": "NONE"},
                    origin=stage[-1].origin, part="bands"))
    banding = Banding(stage[0].origin, stage[-1].origin, bands, sum(ops.get(g, op).macs(g, op) for op in g.ops),
                      rows=tuple((op.origin, op.opcode, op.output(g).shape[1],
                                  tuple(need[op.outputs[0]] for need in needs)) for op in stage))
    graph = dataclasses.replace(g, tensors=tuple(b.tensors), banded=banding).renumber(
        [*g.ops[:start], *b.ops, *g.ops[stage_end + 1:]])
    # the band layers prepared as TFLM would prepare them (their shapes and windows are their own)
    return graph.replace_ops(dataclasses.replace(op, params=ops.get(graph, op).prepare(graph, op))
                             if start <= op.index < start + len(b.ops) else op for op in graph.ops)


def _band_attrs(g: Graph, op: Op, rows: Rows) -> dict[str, Any]:
    """op's options for computing its output rows [a, b) from the input rows _rows_read gives: a VALID window
    padded where the image's edges are (at the top only for the first band, at the bottom for the last)."""
    if op.opcode not in WINDOWED:
        return op.attrs
    w, (kh, kw) = _window(g, op), _kernel(g, op)
    (sh, sw), (dh, dw) = w.stride, w.dilation
    x = op.input(g, 0)
    start, stop = _rows_read(g, op, rows)
    top = start - (rows[0] * sh - w.pad[0])
    bottom = max(0, (rows[1] - rows[0] - 1) * sh + (kh - 1) * dh + 1 - (stop - start) - top)
    right = max(0, (w.out_hw[1] - 1) * sw + (kw - 1) * dw + 1 - x.shape[2] - w.pad[1])
    return dict(op.attrs, padding="VALID", folded_pad=[[top, bottom], [w.pad[1], right]])


class _Builder:
    """The band graph's new tensors and ops."""

    def __init__(self, g: Graph):
        self.tensors: list[Tensor] = list(g.tensors)
        self.ops: list[Op] = []
        self.slices: dict[tuple[int, Rows], int] = {}  # (tile, rows) -> the slice made of it: one per band

    def tensor(self, like: Tensor, rows: Rows, band: str, name: str = "") -> int:
        shape = (like.shape[0], rows[1] - rows[0], *like.shape[2:])
        index = len(self.tensors)
        self.tensors.append(dataclasses.replace(like, index=index, shape=shape, name=f"{like.name}_{name or band}",
                                                data=None, dynamic=False))
        return index

    def const(self, name: str, values: list[int]) -> int:
        index = len(self.tensors)
        self.tensors.append(Tensor(index, name, (len(values),), "int32", data=np.array(values, np.int32)))
        return index

    def rows_of(self, t: int, held: Rows, rows: Rows, band: str, origin: int) -> tuple[int, Rows]:
        """Tensor t holding rows `held` of its whole as rows `rows` (a STRIDED_SLICE where they differ, named
        after the file's op `origin` that reads them)."""
        if rows == held:
            return t, held
        if (t, rows) in self.slices:  # another input of the same layer (ADD(x, x)) or layer reads these rows
            return self.slices[t, rows], rows
        like = self.tensors[t]
        y = self.tensor(like, rows, band, f"rows{rows[0]}_{rows[1]}")
        begin, end = [0, rows[0] - held[0], 0, 0], [like.shape[0], rows[1] - held[0], *like.shape[2:]]
        consts = [self.const(f"{self.tensors[y].name}_{what}", v) for what, v in
                  (("begin", begin), ("end", end), ("strides", [1, 1, 1, 1]))]
        self.ops.append(Op(-1, "STRIDED_SLICE", 1, (t, *consts), (y,), {}, origin=origin,
                           part=f"{band}_rows{rows[0]}_{rows[1]}"))
        self.slices[t, rows] = y
        return y, rows
