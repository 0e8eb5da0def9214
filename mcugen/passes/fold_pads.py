"""A PAD before a convolution as the convolution's own padding: the padded copy never exists.

Converters from PyTorch and ONNX (onnx2tf, litert-torch) and Keras' ZeroPadding2D write an explicit PAD
(or PADV2) before a VALID CONV_2D or DEPTHWISE_CONV_2D, which TFLM runs as a copy of the whole input,
padded, beside it in the arena. Where the PAD's amounts on height and width are exactly those the conv's
SAME padding would give the unpadded input (TFLM's ComputePaddingWithOffset: the leading pad, any odd
extra after), the conv reads the PAD's input with SAME padding instead and the PAD goes. Bit for bit the
same: an int8 PAD fills with the zero point, which a quantized conv's input offset makes a zero term, as
SAME's skipped taps are; an int16 one fills with 0 (its zero point). Only where nothing else reads the
padded tensor, it is no graph output, the PAD leaves quantization, batch and channels as they are and its
value is the zero point. Float32 layers keep their PAD: 0 x a non-finite weight is not a skipped tap.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ops._window import pad_before, tflm_out_size

CONVS = ("CONV_2D", "DEPTHWISE_CONV_2D")


def fold_pads(g: Graph) -> Graph:
    readers = g.readers()
    folded: dict[int, Op] = {}  # conv index -> the conv reading the unpadded input with SAME padding
    dropped = set()
    for op in g.ops:
        conv = _folds_into(g, op, readers)
        if conv is not None:
            pads = np.asarray(op.input(g, 1).values, np.int64).reshape(4, 2)[1:3].tolist()
            attrs = dict(conv.attrs, padding="SAME", folded_pad=pads)
            folded[conv.index] = dataclasses.replace(conv, inputs=(op.inputs[0], *conv.inputs[1:]), attrs=attrs)
            dropped.add(op.index)
    if not dropped:
        return g
    return g.renumber(folded.get(op.index, op) for op in g.ops if op.index not in dropped)


def _folds_into(g: Graph, op: Op, readers: dict[int, list[Op]]) -> Op | None:
    """The conv the PAD `op` folds into, or None."""
    if op.opcode not in ("PAD", "PADV2") or len(op.outputs) != 1 or op.outputs[0] in g.outputs:
        return None
    x, y = op.input(g, 0), op.output(g)
    users = readers.get(op.outputs[0], [])
    if len(users) != 1 or users[0].opcode not in CONVS or len(x.shape) != 4 or x.dtype not in ("int8", "int16"):
        return None
    conv = users[0]
    if conv.inputs[0] != op.outputs[0] or op.outputs[0] in conv.inputs[1:] or conv.attrs.get("padding") != "VALID":
        return None
    if x.quant is None or y.quant is None or x.quant.per_channel or (float(x.q.s), int(x.q.zp)) != (float(y.q.s),
                                                                                                  int(y.q.zp)):
        return None
    # check_support has required the paddings and the pad value constant
    amounts = np.asarray(op.input(g, 1).values, np.int64).reshape(4, 2).tolist()
    (n0, n1), (top, bottom), (left, right), (c0, c1) = amounts
    value = op.optional_input(g, 2)
    fill = int(value.values.reshape(-1)[0]) if value is not None else int(y.q.zp)
    if (n0, n1, c0, c1) != (0, 0, 0, 0) or fill != int(y.q.zp) or top + bottom + left + right == 0:
        return None
    steps = [(conv.attrs.get(f"stride_{a}", 1), conv.attrs.get(f"dilation_{a}factor", 1)) for a in "hw"]
    sides = [_same_padding(x.shape[k + 1], conv.input(g, 1).shape[k + 1], *steps[k]) for k in range(2)]
    if [(top, bottom), (left, right)] != [pads for pads, _ in sides]:
        return None
    # no placeholder output shape: the conv's must be the one SAME computes
    return conv if list(conv.output(g).shape[1:3]) == [out for _, out in sides] else None


def _same_padding(size: int, kernel: int, stride: int, dilation: int) -> tuple[tuple[int, int], int]:
    """The (leading, trailing) pads TFLM's SAME padding gives a side of `size`, and its output size."""
    out = tflm_out_size("SAME", size, kernel, stride, dilation)
    total = max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size)
    lead = pad_before(size, kernel, stride, dilation, out)
    return (lead, total - lead), out
