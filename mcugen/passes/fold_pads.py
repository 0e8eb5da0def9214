"""A PAD before a convolution as the convolution's own padding: the padded copy never exists.

Converters from PyTorch and ONNX (onnx2tf, litert-torch) and Keras' ZeroPadding2D write an explicit PAD
(or PADV2) before a VALID CONV_2D or DEPTHWISE_CONV_2D, which TFLM runs as a copy of the whole input,
padded, beside it in the arena. The conv reads the PAD's input instead, its windows placed as on the padded
one (Facts.folded_pad: the amounts, whatever they are, SAME's or PyTorch's symmetric ones), and the PAD
goes. Bit for bit the same: an int8 PAD fills with the zero point, which a quantized conv's input offset
makes a zero term, as a window's skipped taps are; an int16 one fills with 0 (its zero point). Only where
every layer reading the padded tensor is such a conv (each then pads for itself), it is no graph output, the
PAD leaves quantization, batch and channels as they are, its value is the zero point and every window still
covers a pixel of the image (a window of padding alone is a constant no kernel is written for). Float32
layers keep their PAD: 0 x a non-finite weight is not a skipped tap.

A MAX_POOL_2D pads for itself too where that is provably the same: its padding is skipped, the PAD's fill
takes part in the max, so the fill may be no larger than any value the window holds: the type's least value
(PADV2 -128, as onnx2tf writes PyTorch's MaxPool2d(padding=1)), or one no larger than the least its producer
writes (the zero point after a fused RELU/RELU6: a ResNet's stem conv -> PAD -> max pool). An average pool
never: it divides by the pixels alone.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.options import Pool2DOptions, Windowed
from mcugen.ops._quant import fused_range
from mcugen.ops._window import tflm_out_size

CONVS = ("CONV_2D", "DEPTHWISE_CONV_2D")
# producers whose kernels clamp their output to the fused activation's range
CLAMPING = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "MAX_POOL_2D", "AVERAGE_POOL_2D")


def fold_pads(g: Graph) -> Graph:
    readers = g.readers()
    folded: dict[int, Op] = {}  # conv or pool index -> that layer reading the unpadded input, padding it itself
    dropped = set()
    for op in g.ops:
        layers = _folds_into(g, op, readers)
        for layer in layers:
            (top, bottom), (left, right) = np.asarray(op.input(g, 1).values, np.int64).reshape(4, 2)[1:3].tolist()
            facts = dataclasses.replace(layer.facts, folded_pad=((top, bottom), (left, right)))
            folded[layer.index] = dataclasses.replace(layer, inputs=(op.inputs[0], *layer.inputs[1:]), facts=facts)
        if layers:
            dropped.add(op.index)
    if not dropped:
        return g
    return g.renumber(folded.get(op.index, op) for op in g.ops if op.index not in dropped)


def _folds_into(g: Graph, op: Op, readers: dict[int, list[Op]]) -> tuple[Op, ...]:
    """The convs and max pools the PAD `op` folds into (every layer that reads it: a MobileNet's branches may
    share one), or none."""
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
    if (n0, n1, c0, c1) != (0, 0, 0, 0) or top + bottom + left + right == 0:
        return ()
    layers = tuple({u.index: u for u in users}.values())
    sides = ((top, bottom), (left, right))
    least = _least_value(g, op.inputs[0])
    fits = {"MAX_POOL_2D": fill <= least, **{conv: fill == int(y.q.zp) for conv in CONVS}}
    return layers if all(fits.get(u.opcode, False) and _pads_itself(g, u, op.outputs[0], x.shape[1:3], sides)
                         for u in layers) else ()


def _least_value(g: Graph, t: int) -> int:
    """The least value tensor t can hold: its producer's fused activation's low end where the producer clamps
    to it, else its type's least."""
    producer = next((op for op in g.ops if t in op.outputs), None)
    if producer is not None and producer.opcode in CLAMPING and producer.output(g).quant is not None:
        return fused_range(g, producer)[0]
    return int(np.iinfo(g.tensors[t].dtype).min)


def _pads_itself(g: Graph, layer: Op, padded: int, in_hw: tuple[int, ...], sides: tuple[tuple[int, int], ...]) -> bool:
    """Whether `layer`, a VALID conv or pool reading the padded tensor as its input only, can pad the image
    itself."""
    options = layer.options_as(Windowed)
    if layer.inputs[0] != padded or padded in layer.inputs[1:] or options.padding != "VALID":
        return False
    kernel = ((options.filter_height, options.filter_width) if isinstance(options, Pool2DOptions)
              else layer.input(g, 1).shape[1:3])
    steps = zip((options.stride_h, options.stride_w), options.dilation)
    for size, k, (stride, dilation), (lead, trail), out in zip(in_hw, kernel, steps, sides,
                                                              layer.output(g).shape[1:3]):
        span = (k - 1) * dilation + 1
        # the output size VALID gives the padded side (no placeholder shape), each window touching the image
        if out != tflm_out_size("VALID", size + lead + trail, k, stride, dilation) or not (
                min(lead, trail) >= 0 and out >= 1 and lead < span and (out - 1) * stride - lead < size):
            return False
    return True
