"""Kernels: the optimized C kernels beside each op's reference kernel, one ordered table per opcode.

ops/ holds TFLM's semantics and each op's reference call (runtime_c/src/, every core); this layer
holds the kernels that compute the same thing faster on a core's ISA extension, a module per
kernel family: its call builders, its filter layouts, and its tables. A table is read top to bottom,
as CMSIS-NN's arm_convolve_wrapper_s8.c reads its if / else-if: a layer gets the first row whose
feature the target's core has (Graph.features, from the board) and whose `takes` holds, else its
reference call. Helium's rows come before the DSP extension's in every table (a core with Helium has
both). Adding a kernel variant is one row, its C file (runtime_c/<needs>/<kernel>.c) and its prototype.

`--tune` (validation/tune.py) measures a layer on each of its candidates (rows and reference) and
keeps the fastest; a `widens` row is taken where the board's flash has room (passes/lower_ops.py).
A variant computes exactly what the reference kernel computes: tests/test_variant_geometries.py
runs every row on the emulated core that has its feature.

strips.py: a conv run a strip of rows at a time inside its only consumer's call (passes/fuse_strips.py).

Imports: errors, runtime, ir, numerics, ops.
"""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call
from mcugen.kernels import conv, depthwise, elementwise, fully_connected, half, pool, recurrent
from mcugen.kernels.variant import Variant
from mcugen.ops._window import Window

TABLES: dict[str, tuple[Variant, ...]] = {**conv.TABLES, **depthwise.TABLES, **fully_connected.TABLES,
                                          **elementwise.TABLES, **pool.TABLES, **recurrent.TABLES, **half.TABLES}


def table(opcode: str) -> tuple[Variant, ...]:
    return TABLES.get(opcode, ())


def candidates(g: Graph, op: Op, features: frozenset[str], stop: int | None = None) -> list[Call | None]:
    """The layer's calls in order of preference: each row of its table the features allow that takes it,
    then the reference kernel's. `stop`: no more than that many rows are built (building a call lays out
    its constants)."""
    calls: list[Call | None] = []
    # the rows are the opcode's own kernel's, or where a layer runs a family's kernel that family's (OPCODE:float16;
    # float32 and int32 have none), and for a window whose output the tensor declares otherwise than the options
    # compute, the reference kernel's alone
    window = getattr(op.params, "window", None)
    own = ops.definition(g, op) is ops.lookup(op.opcode)
    rows = table(op.opcode if own else f"{op.opcode}:{ops.layer_type(g, op)}")
    for v in rows if not (isinstance(window, Window) and window.declared) else ():
        if stop is not None and len(calls) >= stop:
            break
        if v.needs in features and v.takes(g, op):
            call = v.build(g, op)
            calls.append(dataclasses.replace(call, widened=True) if v.widens and call is not None else call)
    return calls + [ops.get(g, op).lower(g, op)]


def widens(call: Call | None) -> bool:
    """Whether the call reads int8 weights widened to int16 in flash: its constants outgrow the next
    candidate's (a fused call's where the conv or layer it runs does)."""
    return call is not None and call.widened


def lower_layer(g: Graph, op: Op, features: frozenset[str], rank: int = 0) -> Call | None:
    """The layer's call: its rank-th candidate, or the reference kernel's when it has fewer."""
    calls = candidates(g, op, features, stop=rank + 1)
    return calls[min(rank, len(calls) - 1)]
