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
    readers: dict[int, list[Op]] = {}
    for op in g.ops:
        for t in set(op.inputs):
            readers.setdefault(t, []).append(op)
    folded: dict[int, Op] = {}  # conv index -> the conv reading the unpadded input with SAME padding
    dropped = set()
    for op in g.ops:
        conv = _folds_into(g, op, readers)
        if conv is not None:
            pads = np.asarray(op.input(g, 1).data, np.int64).reshape(4, 2)[1:3].tolist()
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
    pads = op.input(g, 1).data
    if pads is None or pads.size != 8:
        return None
    (n0, n1), (top, bottom), (left, right), (c0, c1) = np.asarray(pads, np.int64).reshape(4, 2).tolist()
    value = op.optional_input(g, 2)
    fill = int(value.data.reshape(-1)[0]) if value is not None and value.data is not None else int(y.q.zp)
    if (n0, n1, c0, c1) != (0, 0, 0, 0) or fill != int(y.q.zp) or (value is not None and value.data is None):
        return None
    kernel = conv.input(g, 1).shape[1:3]
    height = _same_pads(x.shape[1], kernel[0], conv.attrs.get("stride_h", 1), conv.attrs.get("dilation_hfactor", 1))
    width = _same_pads(x.shape[2], kernel[1], conv.attrs.get("stride_w", 1), conv.attrs.get("dilation_wfactor", 1))
    if (top, bottom) != height or (left, right) != width or top + bottom + left + right == 0:
        return None
    same_out = tuple(tflm_out_size("SAME", x.shape[k + 1], kernel[k], conv.attrs.get(f"stride_{a}", 1),
                                   conv.attrs.get(f"dilation_{a}factor", 1)) for k, a in enumerate("hw"))
    return conv if tuple(conv.output(g).shape[1:3]) == same_out else None  # no placeholder output shape


def _same_pads(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """The (leading, trailing) pads TFLM's SAME padding gives a side of `size`."""
    out = tflm_out_size("SAME", size, kernel, stride, dilation)
    total = max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size)
    lead = pad_before(size, kernel, stride, dilation, out)
    return lead, total - lead
