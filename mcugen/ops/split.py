"""SPLIT, SPLIT_V and UNPACK: one tensor cut along an axis into several outputs, values copied as
they are (TFLM's kernels copy raw bytes). UNPACK cuts into slices of one and drops the axis."""
from __future__ import annotations

import numpy as np

from mcugen.lowering import Call, Const, Slice, Struct, reads
from mcugen.ops import OpDef, register
from mcugen.ops._quant import axis_problems, require_const

# where each op keeps its data input and its axis (a constant tensor, or an attribute)
_DATA_INPUT = {"SPLIT": 1, "SPLIT_V": 0, "UNPACK": 0}


@register("SPLIT", "SPLIT_V", "UNPACK")
class Split(OpDef):
    arity = {"SPLIT": ((2, 2), (1, 65536)), "SPLIT_V": ((3, 3), (1, 65536)), "UNPACK": ((1, 1), (1, 65536))}
    foldable = True

    def check(self, g, op):
        what = {"SPLIT": {0: "the axis"}, "SPLIT_V": {1: "the split sizes", 2: "the axis"}, "UNPACK": {}}
        problems = require_const(g, op, what[op.opcode])
        if problems:
            return problems
        x = op.input(g, _DATA_INPUT[op.opcode])
        axis = (op.attrs.get("axis", 0) if op.opcode == "UNPACK"
                else int(op.input(g, 0 if op.opcode == "SPLIT" else 2).data.reshape(-1)[0]))
        problems = axis_problems(axis, len(x.shape))
        if not problems:
            sizes = self.prepare(g, op)["sizes"]
            if sum(sizes) != x.shape[axis % len(x.shape)]:
                problems.append(f"the outputs take {sum(sizes)} of the axis's {x.shape[axis % len(x.shape)]}")
        return problems

    def prepare(self, g, op):
        x = op.input(g, _DATA_INPUT[op.opcode])
        rank = len(x.shape)
        if op.opcode == "UNPACK":
            axis = op.attrs.get("axis", 0) % rank
        else:
            axis = int(op.input(g, 0 if op.opcode == "SPLIT" else 2).data.reshape(-1)[0]) % rank
        sizes = [op.output(g, k).shape[axis] if op.opcode != "UNPACK" else 1 for k in range(len(op.outputs))]
        return dict(axis=axis, sizes=sizes)

    def run(self, g, op, xs):
        p = op.params
        parts = np.split(xs[_DATA_INPUT[op.opcode]], np.cumsum(p["sizes"])[:-1], axis=p["axis"])
        return [part.reshape(op.output(g, k).shape) for k, part in enumerate(parts)]

    def lower(self, g, op):
        p = op.params
        shape = op.input(g, _DATA_INPUT[op.opcode]).shape
        inner = int(np.prod(shape[p["axis"] + 1:]))
        split = Struct("mcu_concat_params", "params", dict(
            outer=int(np.prod(shape[:p["axis"]])), count=len(p["sizes"]),
            inner=Const("inner", np.array([n * inner for n in p["sizes"]], dtype=np.int32))))
        return Call("mcu_split_s8", (split, reads(op, _DATA_INPUT[op.opcode]),
                                     Slice(tuple(op.outputs), writable=True, as_array=True)),
                    note=f"axis {p['axis']} into {p['sizes']}")
