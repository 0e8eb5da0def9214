"""A PAD before a convolution as the convolution's own padding: the padded copy never exists.

Converters from PyTorch and ONNX (onnx2tf, litert-torch) and Keras' ZeroPadding2D write an explicit PAD
(or PADV2) before a VALID CONV_2D or DEPTHWISE_CONV_2D, which TFLM runs as a copy of the whole input,
padded, beside it in the arena. The conv reads the PAD's input instead, its windows placed as on the padded
one (attrs `folded_pad`: the amounts, whatever they are, SAME's or PyTorch's symmetric ones), and the PAD
goes. Bit for bit the same: an int8 PAD fills with the zero point, which a quantized conv's input offset
makes a zero term, as a window's skipped taps are; an int16 one fills with 0 (its zero point). Only where
every layer reading the padded tensor is such a conv (each then pads for itself), it is no graph output, the
PAD leaves quantization, batch and channels as they are, its value is the zero point and every window still
covers a pixel of the image (a window of padding alone is a constant no kernel is written for). Float32
layers keep their PAD: 0 x a non-finite weight is not a skipped tap.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ops._window import tflm_out_size

CONVS = ("CONV_2D", "DEPTHWISE_CONV_2D")


def fold_pads(g: Graph) -> Graph:
    readers = g.readers()
    folded: dict[int, Op] = {}  # conv index -> the conv reading the unpadded input, padding it itself
    dropped = set()
    for op in g.ops:
        convs = _folds_into(g, op, readers)
        for conv in convs:
            pads = np.asarray(op.input(g, 1).values, np.int64).reshape(4, 2)[1:3].tolist()
            attrs = dict(conv.attrs, folded_pad=pads)
            folded[conv.index] = dataclasses.replace(conv, inputs=(op.inputs[0], *conv.inputs[1:]), attrs=attrs)
        if convs:
            dropped.add(op.index)
    if not dropped:
        return g
    return g.renumber(folded.get(op.index, op) for op in g.ops if op.index not in dropped)


def _folds_into(g: Graph, op: Op, readers: dict[int, list[Op]]) -> tuple[Op, ...]:
    """The convs the PAD `op` folds into (every layer that reads it: a MobileNet's branches may share one), or
    none."""
    if op.opcode not in ("PAD", "PADV2") or len(op.outputs) != 1 or op.outputs[0] in g.outputs:
        return ()
    x, y = op.input(g, 0), op.output(g)
    users = readers.get(op.outputs[0], [])
    if not users or len(x.shape) != 4 or x.dtype not in ("int8", "int16"):
        return ()
    if x.quant is None or y.quant is None or x.quant.per_channel or (float(x.q.s), int(x.q.zp)) != (float(y.q.s),
                                                                                                  int(y.q.zp)):
        return ()
    # check_support has required the paddings and the pad value constant
    amounts = np.asarray(op.input(g, 1).values, np.int64).reshape(4, 2).tolist()
    (n0, n1), (top, bottom), (left, right), (c0, c1) = amounts
    value = op.optional_input(g, 2)
    fill = int(value.values.reshape(-1)[0]) if value is not None else int(y.q.zp)
    if (n0, n1, c0, c1) != (0, 0, 0, 0) or fill != int(y.q.zp) or top + bottom + left + right == 0:
        return ()
    convs = tuple({u.index: u for u in users}.values())
    sides = ((top, bottom), (left, right))
    return convs if all(_pads_itself(g, conv, op.outputs[0], x.shape[1:3], sides) for conv in convs) else ()


def _pads_itself(g: Graph, conv: Op, padded: int, in_hw: tuple[int, ...], sides: tuple[tuple[int, int], ...]) -> bool:
    """Whether `conv`, a VALID conv reading the padded tensor as its input only, can pad the image itself."""
    if conv.opcode not in CONVS or conv.inputs[0] != padded or padded in conv.inputs[1:] or \
            conv.attrs.get("padding") != "VALID":
        return False
    steps = [(conv.attrs.get(f"stride_{a}", 1), conv.attrs.get(f"dilation_{a}factor", 1)) for a in "hw"]
    for size, k, (stride, dilation), (lead, trail), out in zip(in_hw, conv.input(g, 1).shape[1:3], steps, sides,
                                                              conv.output(g).shape[1:3]):
        span = (k - 1) * dilation + 1
        # the output size VALID gives the padded side (no placeholder shape), each window touching the image
        if out != tflm_out_size("VALID", size + lead + trail, k, stride, dilation) or not (
                min(lead, trail) >= 0 and out >= 1 and lead < span and (out - 1) * stride - lead < size):
            return False
    return True
