"""Patch-based inference (MCUNetV2, NeurIPS 2021): a model's first stage run patch by patch.

The stage is the graph's first run of band-able ops (from stage_start, after an input QUANTIZE) up to a
chosen end: convolutions, depthwise convolutions and pools, and the element-wise ops between them (a residual
ADD included), integer, batch 1, reading one tensor from outside and leaving one; an input TRANSPOSE from
channels-first (NCHW, as PyTorch and ONNX exporters leave it) may open it, read a patch at a time from the
input's own layout, so that the image is never transposed whole. Its output is cut into a grid of `bands`
runs of whole rows by `columns` runs of columns (1: bands of whole rows); each patch's layers compute only the
rows and columns that patch needs, recomputing the few its neighbours need too (each window's rows above and
below, columns left and right), so only one patch's intermediate tensors are ever live: the stage's peak
falls by about the number of patches, for the recomputed MACs. Rows and columns are independent (a window's
rows depend on its output's rows only), so a patch's extent on each axis is worked out on its own. Bit for
bit the whole-tensor run: every patch layer reads exactly the rows and columns the whole layer would, padding
only at the image's own edges (its windows placed by Facts.folded_pad, as passes/fold_pads.py places a folded
PAD's).

Each patch reads its part of the stage's input through a STRIDED_SLICE; a band's patches meet in a
CONCATENATION on the width, the bands in one on the height: place_views makes views where the bytes are
contiguous and word-aligned (a band of whole rows written straight into the stage's output), copies
elsewhere. A layer reading less of a patch tensor than the patch computed (an ADD beside a conv's halo) reads
it through a STRIDED_SLICE likewise.
"""
from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np

from mcugen import ops
from mcugen.ir.facts import Banding
from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.options import ConcatenationOptions, Pool2DOptions, StridedSliceOptions, Windowed
from mcugen.ops._window import Window, declared_hw, geometry

WINDOWED = ("CONV_2D", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "MAX_POOL_2D")
ROWWISE = ("ADD", "SUB", "MUL", "RELU", "RELU6", "RELU_N1_TO_1", "LEAKY_RELU", "HARD_SWISH", "LOGISTIC", "TANH",
           "QUANTIZE")
Rows = tuple[int, int]  # a run of rows, or of columns: [first, stop)
Region = tuple[Rows, Rows]  # rows and columns


class Stage(NamedTuple):
    """The ops up to `end` (one of stage_ends) run in `bands` bands of their output's rows, each cut into
    `columns` patches of its columns."""

    end: int
    bands: int
    columns: int = 1
    # the first band (and the first patch of each band) that many rows (columns) short of an even cut: the
    # first patch's intermediates sit beside all of the stage's input, a later one's beside what is left of
    # it (passes/plan_memory.py), so a smaller first patch may fit where even ones do not
    lead: int = 0

    def describe(self) -> str:
        grid = f"{self.bands} bands" if self.columns == 1 else f"{self.bands}x{self.columns} patches"
        return grid + (f", the first {self.lead} short" if self.lead else "")


def stage_start(g: Graph) -> int:
    """Where the stage begins: at the graph's first band-able op (what comes before, an input QUANTIZE, runs
    whole)."""
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
    if op.opcode == "TRANSPOSE":
        return _channels_last(g, op)
    if op.opcode in WINDOWED:
        return (len(activations) == 1 and op.inputs[0] == activations[0].index and len(activations[0].shape) == 4
                and not _window(g, op).declared)  # a placeholder output shape: windows as the options compute
    return op.opcode in ROWWISE and bool(activations) and all(x.shape == y.shape for x in activations) and \
        len(activations) == len([t for t in op.inputs if t >= 0])


def _channels_last(g: Graph, op: Op) -> bool:
    """op is a TRANSPOSE of a graph input from NCHW to NHWC."""
    perm = op.input(g, 1)
    return (op.inputs[0] in g.inputs and perm.is_const and perm.data is not None
            and [int(v) for v in perm.data.reshape(-1)] == [0, 2, 3, 1])


def _kernel(g: Graph, op: Op) -> tuple[int, int]:
    if op.opcode in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        h, w = op.input(g, 1).shape[1:3]
        return h, w
    options = op.options_as(Pool2DOptions)
    return options.filter_height, options.filter_width


def _window(g: Graph, op: Op) -> Window:
    return geometry(op.options_as(Windowed), op.input(g, 0).shape[1:3], _kernel(g, op), declared_hw(op.output(g).shape),
                    op.facts.folded_pad)


def _read(g: Graph, op: Op, span: Rows, axis: int) -> Rows:
    """The input rows (axis 0) or columns (axis 1) op reads to make its output's `span` on that axis."""
    if op.opcode not in WINDOWED:
        return span
    size = op.input(g, 0).shape[1 + axis]
    if span == (0, op.output(g).shape[1 + axis]):  # all of it: all of the input, read or not (no copy to cut it)
        return 0, size
    w, kernel = _window(g, op), _kernel(g, op)
    a, b = span
    start = a * w.stride[axis] - w.pad[axis]
    stop = (b - 1) * w.stride[axis] - w.pad[axis] + (kernel[axis] - 1) * w.dilation[axis] + 1
    return max(0, start), min(size, stop)


def band_rows(height: int, bands: int, lead: int = 0) -> list[Rows]:
    """`bands` runs of whole rows over `height`, as even as they come (the first ones the longer), the first
    `lead` rows shorter where there are two runs or more (Stage.lead)."""
    first = max(1, height // bands + (height % bands > 0) - lead) if bands > 1 else height
    rest = height - first
    cuts = np.cumsum([0, first] + [rest // (bands - 1) + (k < rest % (bands - 1)) for k in range(bands - 1)])
    return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:])]


def _source(g: Graph, stage: list[Op]) -> int:
    """The tensor the stage reads from outside."""
    made = {op.outputs[0] for op in stage}
    return next(t for op in stage for t in op.inputs if t >= 0 and not g.tensors[t].is_const and t not in made)


def needed_spans(g: Graph, stage: list[Op], span: Rows, axis: int = 0) -> dict[int, Rows]:
    """For one band of the stage's output rows (axis 0), or one run of its columns (axis 1), the rows or
    columns of each stage tensor (and of the stage's input) its layers need: the union over each tensor's
    readers, from the last layer back."""
    need = {stage[-1].outputs[0]: span}
    for op in reversed(stage):
        out = need[op.outputs[0]]
        for t in op.inputs:
            if t < 0 or g.tensors[t].is_const:
                continue
            a, b = _read(g, op, out, axis)
            if t in need:
                a, b = min(a, need[t][0]), max(b, need[t][1])
            need[t] = (a, b)
    return need


def split_patches(g: Graph, chosen: Stage | None) -> Graph:
    """The chosen stage run patch by patch (None: g as it is)."""
    if chosen is None:
        return g
    stage_end, bands, columns, _ = chosen
    start = stage_start(g)
    stage = list(g.ops[start:stage_end + 1])
    last = stage[-1].outputs[0]
    source = _source(g, stage)
    # the stage's input is NCHW where an input TRANSPOSE opens the stage: its rows and columns are axes 2 and 3
    b = _Builder(g, {source: (2, 3)} if stage[0].opcode == "TRANSPOSE" else {})
    height, width = g.tensors[last].shape[1:3]
    across = [needed_spans(g, stage, span, 1) for span in band_rows(width, columns, chosen.lead)]
    needs = [needed_spans(g, stage, rows) for rows in band_rows(height, bands, chosen.lead)]
    parts = []
    for k, need in enumerate(needs):
        patches = [b.patch(stage, source, {t: (need[t], cols[t]) for t in need}, f"band{k}" if columns == 1
                           else f"patch{k}_{j}") for j, cols in enumerate(across)]
        parts.append(patches[0] if columns == 1 else b.concatenation(patches, 2, g.tensors[last],
                                                                       (need[last], (0, width)), f"band{k}"))
    b.ops.append(Op(-1, "CONCATENATION", 1, tuple(parts), (last,), ConcatenationOptions(axis=1),
                    origin=stage[-1].origin, part="bands"))
    banding = Banding(stage[0].origin, stage[-1].origin, bands, sum(ops.get(g, op).macs(g, op) for op in g.ops),
                      rows=_spans(g, stage, needs, 1), columns=columns,
                      cols=_spans(g, stage, across, 2) if columns > 1 else (), source=source, output=last)
    graph = dataclasses.replace(g, tensors=tuple(b.tensors), banded=banding).renumber(
        [*g.ops[:start], *b.ops, *g.ops[stage_end + 1:]])
    # the patch layers prepared as TFLM would prepare them (their shapes and windows are their own)
    return graph.replace_ops(dataclasses.replace(op, params=ops.get(graph, op).prepare(graph, op))
                             if start <= op.index < start + len(b.ops) else op for op in graph.ops)


def _spans(g: Graph, stage: list[Op], needs: list[dict[int, Rows]], axis: int
           ) -> tuple[tuple[int, str, int, tuple[Rows, ...]], ...]:
    """Each stage layer's file index, opcode, output height (axis 1) or width (axis 2) and the span of it each
    band (or each patch of a band) computes."""
    return tuple((op.origin, op.opcode, op.output(g).shape[axis], tuple(need[op.outputs[0]] for need in needs))
                 for op in stage)


def _band_op(g: Graph, op: Op, region: Region) -> Op:
    """op computing its output's `region` from the input rows and columns _read gives: a VALID window padded
    where the image's edges are (at the top only for the first band, at the left only for a band's first
    patch, and so on)."""
    if op.opcode not in WINDOWED:
        return op
    (top, bottom), (left, right) = (_edges(g, op, span, axis) for axis, span in enumerate(region))
    return dataclasses.replace(op, options=dataclasses.replace(op.options_as(Windowed), padding="VALID"),
                               facts=dataclasses.replace(op.facts, folded_pad=((top, bottom), (left, right))))


def _edges(g: Graph, op: Op, span: Rows, axis: int) -> tuple[int, int]:
    """The padding before and after the input `_read` gives for the output's `span` on `axis`."""
    w, kernel = _window(g, op), _kernel(g, op)
    start, stop = _read(g, op, span, axis)
    before = start - (span[0] * w.stride[axis] - w.pad[axis])
    covered = (span[1] - span[0] - 1) * w.stride[axis] + (kernel[axis] - 1) * w.dilation[axis] + 1
    return before, max(0, covered - (stop - start) - before)


class _Builder:
    """The patch graph's new tensors and ops; `axes`: the rows' and columns' axes of a tensor not NHWC."""

    def __init__(self, g: Graph, axes: dict[int, tuple[int, int]]):
        self.g, self.axes = g, axes
        self.tensors: list[Tensor] = list(g.tensors)
        self.ops: list[Op] = []
        self.slices: dict[tuple[int, Region], int] = {}  # (tile, region) -> the slice made of it: one per patch

    def patch(self, stage: list[Op], source: int, need: dict[int, Region], name: str) -> int:
        """The stage's layers over one patch (the region `need` gives each tensor); its last one's output."""
        whole = self.tensors[source].shape
        h, w = self.axes.get(source, (1, 2))
        tile = {source: self.region_of(source, ((0, whole[h]), (0, whole[w])), need[source], name, stage[0].origin)}
        for op in stage:
            out = need[op.outputs[0]]
            inputs = []
            for t in op.inputs:
                if t < 0 or self.tensors[t].is_const:
                    inputs.append(t)
                    continue
                tile_t, held = tile[t]
                read = (_read(self.g, op, out[0], 0), _read(self.g, op, out[1], 1))
                inputs.append(self.region_of(tile_t, held, read, name, op.origin)[0])
            y = self.tensor(self.g.tensors[op.outputs[0]], out, name)
            self.ops.append(dataclasses.replace(_band_op(self.g, op, out), inputs=tuple(inputs), outputs=(y,),
                                                part=name))
            tile[op.outputs[0]] = (y, out)
        return tile[stage[-1].outputs[0]][0]

    def concatenation(self, parts: list[int], axis: int, like: Tensor, region: Region, name: str) -> int:
        """A band's patches side by side: one tensor of `like`'s `region`."""
        y = self.tensor(like, region, name)
        self.ops.append(Op(-1, "CONCATENATION", 1, tuple(parts), (y,), ConcatenationOptions(axis=axis),
                           origin=self.ops[-1].origin, part=name))
        return y

    def tensor(self, like: Tensor, region: Region, band: str, name: str = "") -> int:
        shape = list(like.shape)
        for axis, (a, b) in zip(self.axes.get(like.index, (1, 2)), region):
            shape[axis] = b - a
        index = len(self.tensors)
        self.tensors.append(dataclasses.replace(like, index=index, shape=tuple(shape), name=f"{like.name}_{name or band}",
                                                data=None, dynamic=False))
        self.axes[index] = self.axes.get(like.index, (1, 2))
        return index

    def const(self, name: str, values: list[int]) -> int:
        index = len(self.tensors)
        self.tensors.append(Tensor(index, name, (len(values),), "int32", data=np.array(values, np.int32)))
        return index

    def region_of(self, t: int, held: Region, region: Region, band: str, origin: int) -> tuple[int, Region]:
        """Tensor t holding `held` of its whole as `region` (a STRIDED_SLICE where they differ, named after the
        file's op `origin` that reads them)."""
        if region == held:
            return t, held
        if (t, region) in self.slices:  # another input of the same layer (ADD(x, x)) or layer reads these
            return self.slices[t, region], region
        like = self.tensors[t]
        (r0, r1), (c0, c1) = region
        y = self.tensor(like, region, band, f"rows{r0}_{r1}" + (f"_cols{c0}_{c1}" if region[1] != held[1] else ""))
        begin, end = [0] * len(like.shape), list(like.shape)
        for axis, (a, b), (first, _) in zip(self.axes.get(t, (1, 2)), region, held):
            begin[axis], end[axis] = a - first, b - first
        consts = [self.const(f"{self.tensors[y].name}_{what}", v) for what, v in
                  (("begin", begin), ("end", end), ("strides", [1] * len(like.shape)))]
        self.ops.append(Op(-1, "STRIDED_SLICE", 1, (t, *consts), (y,), StridedSliceOptions(), origin=origin,
                           part=f"{band}_rows{r0}_{r1}" + (f"_cols{c0}_{c1}" if region[1] != held[1] else "")))
        self.slices[t, region] = y
        return y, region
