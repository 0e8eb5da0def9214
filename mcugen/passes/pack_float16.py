"""Keep a float16 model's weights float16 in flash: a float32 weight array a call passes whose every
value is a float16 one (bit for bit: what DEQUANTIZE of the converter's float16 weights gave, folded at
build time) becomes a Packed `f16`, which the generated C widens into the call's scratch just before
the call (mcu_unpack_f16, exact). Half the flash for the layer's weights in RAM while it runs;
--optimize speed keeps them float32 in flash instead (no widening, no scratch), and so does a layer whose widened
weights, input and output together would not fit the RAM the board leaves the arena (`room`: a Cortex-M0 with
16 KB keeps a 32 KB FULLY_CONNECTED float32 in flash rather than fail to fit).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.calls import WEIGHTS_BYTES
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Packed


def pack_float16(g: Graph, optimize: str = "balanced", room: int | None = None) -> Graph:
    if optimize == "speed":
        return g

    def fits(a: Const) -> bool:
        if a.data.dtype != np.float32 or a.data.nbytes < WEIGHTS_BYTES:
            return False
        return bool(np.array_equal(a.data.astype(np.float16).astype(np.float32).view(np.uint32),
                                   a.data.view(np.uint32)))

    def packed(op: Op, call: Call) -> Call:
        around = sum(g.tensors[t].nbytes for t in (*op.inputs[:1], *op.outputs[:1]) if t >= 0)
        args = tuple(Packed(a, "f16") if isinstance(a, Const) and fits(a) and
                     (room is None or a.data.nbytes + around <= room) else a for a in call.args)
        if all(new is old for new, old in zip(args, call.args)):
            return call
        return dataclasses.replace(call, args=args, extra_kernels=(*call.extra_kernels, "mcu_unpack_f16"))

    return g.replace_ops(dataclasses.replace(op, call=packed(op, op.call)) if op.call is not None else op
                         for op in g.ops)
