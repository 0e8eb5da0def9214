"""Keep INT4 filters two to a byte in flash: every weight array a call passes for a layer whose
filter is INT4 (in any layout its kernel takes, int8 or widened to int16, the filter of a conv fused
into its consumer's call included) becomes a Packed, which the generated C unpacks into the call's
scratch just before the call (mcu_unpack_s4, mcu_unpack_s4_s16), as TFLM unpacks an INT4 filter into
a scratch buffer before its int8 kernel. Arrays named filter* are a call's weights (mcugen/ops/); one
whose values a layout moved out of [-8, 7] stays as it is.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen import ops
from mcugen.ir.graph import Graph
from mcugen.ir.lowering import Call, Const, Packed, layer_name


def pack_int4(g: Graph) -> Graph:
    int4_layers = {layer_name(g, op) for op in g.ops if ops.int4_filter(g, op)}
    if not int4_layers:
        return g

    def fits(a: Const, own: str) -> bool:
        return (a.name.startswith("filter") and (a.layer or own) in int4_layers and a.data.dtype in (np.int8, np.int16)
                and a.data.size > 0 and -8 <= a.data.min() <= a.data.max() <= 7)

    def packed(call: Call, own: str) -> Call:
        args = tuple(Packed(a) if isinstance(a, Const) and fits(a, own) else a for a in call.args)
        unpacks = tuple(sorted({a.kernel for a in args if isinstance(a, Packed)}))
        return dataclasses.replace(call, args=args, extra_kernels=(*call.extra_kernels, *unpacks)) if unpacks else call

    return g.replace_ops(dataclasses.replace(op, call=packed(op.call, layer_name(g, op))) if op.call is not None else op
                         for op in g.ops)
