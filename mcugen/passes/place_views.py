"""Slices and concatenations that move no byte: the copy and its call go, the tensors share a buffer.

A STRIDED_SLICE that keeps one contiguous run of its input (every axis before some axis a single index,
axis a a range with step 1, every axis after it whole) is that run: its output is the input's bytes from an
offset; so are a SPLIT's, SPLIT_V's or UNPACK's outputs cut along the first axis of more than one element.
A CONCATENATION whose inputs lie one after another in its output (one element on every axis before the
concatenation's) has each input written in its place by the layer that makes it. Each such op gets
Op.aliases and no call; plan_memory places an aliased tensor inside the buffer it aliases.

A view is taken only of an activation in the arena (no constant, no variable's state), and is no graph
output. A concatenation's input is in its place
only where one call writes it as its first output (not a graph input, a constant, a view or another
concatenation's input), it is no graph output, and it appears once among the inputs. Every offset is a
multiple of the arena's alignment (kernels load and store activations a word, or two, at a time).
Otherwise the copy stays (values are copied raw either way: CONCATENATION and STRIDED_SLICE requantize
nothing).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.facts import Alias
from mcugen.ir.graph import Graph, Op
from mcugen.ir.planner import ALIGN
from mcugen.ops._quant import Axis
from mcugen.ops.split import DATA_INPUT, SplitData
from mcugen.ops.strided_slice import Indices


def place_views(g: Graph) -> Graph:
    made_by = {t: op for op in g.ops for t in op.outputs[:1]}
    taken: set[int] = set()  # tensors already inside another's buffer
    placed: dict[int, Op] = {}
    for op in g.ops:
        aliases = _aliases(g, op, made_by, taken)
        if aliases:
            taken |= {a.tensor for a in aliases}
            placed[op.index] = dataclasses.replace(op, call=None, aliases=aliases)
            # no call writes its output now: a concatenation whose inputs are in their places is no input
            # another concatenation can take in its place too (patches of a one-row band, then the bands)
            made_by.update({t: placed[op.index] for t in op.outputs[:1]})
    return g.replace_ops(placed.get(op.index, op) for op in g.ops) if placed else g


def _aliases(g: Graph, op: Op, made_by: dict[int, Op], taken: set[int]) -> tuple[Alias, ...]:
    if op.call is None or op.fused_into is not None:
        return ()
    if op.opcode == "STRIDED_SLICE":
        x = op.input(g, 0)
        run = _contiguous_start(x.shape, op.prepared(Indices).per_axis)
        if run is None or run * x.itemsize % ALIGN or not _viewable(g, x.index, taken) or op.outputs[0] in g.outputs:
            return ()
        return (Alias(op.outputs[0], op.inputs[0], run * x.itemsize),)
    if op.opcode in ("SPLIT", "SPLIT_V", "UNPACK"):
        p = op.prepared(SplitData)
        x = op.input(g, DATA_INPUT[op.opcode])
        starts = np.cumsum([0] + [g.tensors[t].nbytes for t in op.outputs[:-1]])
        if int(np.prod(x.shape[:p.axis])) != 1 or not _viewable(g, x.index, taken) or any(at % ALIGN for at in starts) \
                or any(t in g.outputs for t in op.outputs):
            return ()
        return tuple(Alias(t, x.index, int(at)) for t, at in zip(op.outputs, starts))
    if op.opcode == "CONCATENATION":
        y = op.output(g)
        axis = op.prepared(Axis).axis
        parts = op.inputs
        if int(np.prod(y.shape[:axis])) != 1 or len(set(parts)) != len(parts):
            return ()
        if not all(_written_in_place(g, t, made_by, taken) for t in parts):
            return ()
        starts = np.cumsum([0] + [g.tensors[t].nbytes for t in parts[:-1]])
        if any(at % ALIGN for at in starts):
            return ()
        return tuple(Alias(t, op.outputs[0], int(at)) for t, at in zip(parts, starts))
    return ()


def _viewable(g: Graph, t: int, taken: set[int]) -> bool:
    """Whether tensor t has arena bytes of its own a view may stand in."""
    return not g.tensors[t].is_const and not g.tensors[t].variable and t not in taken


def _written_in_place(g: Graph, t: int, made_by: dict[int, Op], taken: set[int]) -> bool:
    """Whether one call writes tensor t, its first output, into memory of the planner's choosing."""
    maker = made_by.get(t)
    return (maker is not None and t not in taken and t not in g.inputs and t not in g.outputs
            and maker.call is not None and maker.fused_into is None and not maker.aliases)


def _contiguous_start(shape: tuple[int, ...], per_axis: tuple[list[int], ...]) -> int | None:
    """The flat index a selection starts at where it is one contiguous run of the row-major array, else None."""
    if any(not i for i in per_axis):
        return None
    whole = [list(i) == list(range(dim)) for i, dim in zip(per_axis, shape)]
    ranged = [i == list(range(i[0], i[0] + len(i))) for i in per_axis]
    # the first axis (from the left) that is no single index must be a step-1 range, and all after it whole
    first = next((k for k, i in enumerate(per_axis) if len(i) > 1), len(shape))
    if first < len(shape) and not (ranged[first] and all(whole[first + 1:])):
        return None
    strides = np.cumprod((1, *shape[:0:-1]))[::-1]
    return int(sum(i[0] * s for i, s in zip(per_axis, strides)))
