"""PAD and PADV2, int8, int16 or float32, as TFLM: the pad value is the given constant, else the output
zero point (int8) or 0 (int16, float32). TFLM copies the input's values as they are, whatever the
input's and the output's quantization, and so does mcugen; an int8 pad value must be quantized as the
output. mcu_pad fills with the value's bits (a float32's as an int32)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, copy, reads, strides_of, writes
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import const_ints, require_const


@dataclass(frozen=True)
class PadData:
    paddings: tuple[tuple[int, int], ...]  # (before, after) per axis
    pad_value: int


@register("PAD", "PADV2")
class Pad(OpDef):
    arity = {"PAD": ((2, 3), (1, 1)), "PADV2": ((3, 3), (1, 1))}
    input_types = output_types = ("int8", "int16", "float32")
    parameters = {1: ("int32",)}

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        shape, pads = op.input(g, 0).shape, const_ints(op.input(g, 1))
        if pads is None:
            return None
        if len(pads) != 2 * len(shape) or min(pads, default=0) < 0:
            raise ValueError(f"paddings {pads} for an input of shape {list(shape)}")
        return tuple(d + pads[2 * k] + pads[2 * k + 1] for k, d in enumerate(shape))

    def check(self, g: Graph, op: Op) -> list[str]:
        value, x, y = op.optional_input(g, 2), op.input(g, 0), op.output(g)
        problems = require_const(g, op, {1: "the paddings", **({2: "the pad value"} if value is not None else {})})
        if len(x.shape) > 5:
            problems.append(f"input of rank {len(x.shape)} (TFLM pads ranks up to 5)")
        if value is not None:  # TFLM reads one value of the input's type (int8: quantized as the output)
            q = value.quant
            if value.dtype != x.dtype or math.prod(value.shape) != 1:
                problems.append(f"pad value '{value.name}' must be one {x.dtype} value")
            elif x.dtype == "int8" and (q is None or q.per_channel
                                        or (float(q.s), int(q.zp)) != (float(y.q.s), int(y.q.zp))):
                problems.append(f"pad value '{value.name}' must be quantized as the output")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        value = op.optional_input(g, 2)
        y = op.output(g)
        given = value.values.reshape(-1)[:1] if value is not None else None
        if y.dtype == "float32":  # its bits, which mcu_pad stores as an int32
            pad_value = int(given.astype(np.float32).view(np.int32)[0]) if given is not None else 0
        else:
            pad_value = int(given[0]) if given is not None else y.q.zp if y.dtype == "int8" else 0
        pairs = op.input(g, 1).values.astype(np.int64).reshape(-1, 2)  # TFLM reads flat pairs, whatever the shape
        return PadData(tuple((int(a), int(b)) for a, b in pairs), pad_value)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(PadData)
        value = np.int32(p.pad_value).view(np.float32) if xs[0].dtype == np.float32 else p.pad_value
        return np.pad(xs[0], p.paddings, mode="constant", constant_values=value)

    def lower(self, g: Graph, op: Op) -> Call | None:
        x_shape, y = op.input(g, 0).shape, op.output(g)
        out_stride = strides_of(y.shape)
        start = sum(before * s for (before, _), s in zip(op.prepared(PadData).paddings, out_stride))
        pad = Struct("mcu_pad_params", "params", dict(
            copy=copy(x_shape, strides_of(x_shape), out_stride, out_offset=start, itemsize=np.dtype(y.dtype).itemsize),
            output_size=int(np.prod(y.shape)), pad_value=op.prepared(PadData).pad_value, bits=8 * y.itemsize))
        return Call("mcu_pad", (pad, reads(op), writes(op)), extra_kernels=("mcu_copy_strided",),
                    note=f"paddings {[list(pair) for pair in op.prepared(PadData).paddings]}, "
                         f"value {op.prepared(PadData).pad_value}")
