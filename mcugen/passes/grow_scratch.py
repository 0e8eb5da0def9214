"""Give a kernel more scratch where the planned arena has the bytes free at its step.

The channel-at-a-time depthwise kernel (mcu_depthwise_conv2d_s8_x2) fills four channels' windows from one pass
over the image where its scratch holds four (2.6 cycles a value on the M4, against 4.5 a window at a time). As
the layer is lowered the arena is not planned, so it takes four only within DW3_GROUP_BYTES (a patch stage's
layer, one: patches are chosen for the arena); planned, a layer whose four windows need more gets them where
the bytes past its scratch buffer are free at its step and inside the arena (VWW's 48 x 48 x 8 layer: 20 KB of
scratch at a step 21 KB below the arena's peak, 541 K -> 494 K estimated M4 cycles). The arena never grows.
"""
from __future__ import annotations

import dataclasses

from mcugen.ir.graph import Compiled
from mcugen.ir.planner import Buffer, Plan
from mcugen.kernels.depthwise import depthwise_x2_call, x2_scratch, x2_windows
from mcugen.ops.depthwise_conv_2d import DepthwiseData

KERNEL = "mcu_depthwise_conv2d_s8_x2"


def grow_scratch(g: Compiled) -> Compiled:
    plan = g.arena.plan
    ops, buffers = list(g.ops), list(plan.buffers)
    for op in g.ops:
        if op.call is None or op.call.kernel != KERNEL or op.index not in g.arena.scratch_of:
            continue
        p, x_shape = op.prepared(DepthwiseData), op.input(g, 0).shape
        if x2_windows(p, x_shape, limit=None) != 4 or x2_scratch(p, x_shape, 4).bytes <= op.call.scratch:
            continue  # four do not fit the kernel's rule, or it has them already
        call = depthwise_x2_call(g, op, windows=4)
        k = g.arena.scratch_of[op.index]
        if _free(plan, buffers, k, call.scratch):
            ops[op.index] = dataclasses.replace(op, call=call)
            buffers[k] = dataclasses.replace(buffers[k], size=call.scratch)
    if buffers == list(plan.buffers):
        return g
    return dataclasses.replace(g, ops=tuple(ops), arena=dataclasses.replace(g.arena, plan=dataclasses.replace(
        plan, buffers=tuple(buffers))))


def _free(plan: Plan, buffers: list[Buffer], k: int, size: int) -> bool:
    """Whether buffer k may take `size` bytes from its offset: inside its region's arena, and no other buffer of
    its region live at its step there."""
    at, b, region = plan.offsets[k], buffers[k], plan.region(k)
    end = dict(plan.region_sizes).get(region, plan.size) if plan.region_sizes else plan.size
    return at + size <= end and not any(
        j != k and plan.region(j) == region and other.overlaps_in_time(b)
        and plan.offsets[j] < at + size and at < plan.offsets[j] + other.size
        for j, other in enumerate(buffers))
