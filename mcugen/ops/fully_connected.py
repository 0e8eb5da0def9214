"""FULLY_CONNECTED: TFLM reference_integer_ops::FullyConnected (double rounding).

LiteRT's reference FC rounds once, in float, so it can differ from this by one
LSB per layer; TFLM is the target.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Const, Slice, Struct, reads, writes
from mcugen.ir.options import FullyConnectedOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._conv import FullyConnectedData, Golden, fc_params, reference_filter, wide_problems
from mcugen.ops._int16 import Wide
from mcugen.ops._quant import Rescale, int4_problems, problems_fused_activation, require_bias_length, weight_problems


@register("FULLY_CONNECTED")
class FullyConnected(OpDef):
    arity = ((2, 3), (1, 1))
    bias_input = 2
    # weights (INT4 with int8 activations), bias
    parameters: Mapping[int, tuple[str, ...]] = {1: ("int8", "int4"), 2: ("int32", "int64")}
    input_types = output_types = ("int8", "int16")

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x, w = op.input(g, 0), op.input(g, 1)
        if len(w.shape) != 2 or not x.shape or math.prod(x.shape) % w.shape[1]:
            raise ValueError(f"weights {list(w.shape)} do not fit input {list(x.shape)}")
        require_bias_length(op.optional_input(g, 2), w.shape[0])
        if op.options_as(FullyConnectedOptions).keep_num_dims:
            return (*x.shape[:-1], w.shape[0])
        return (math.prod(x.shape) // w.shape[1], w.shape[0])

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = weight_problems(g, op) + problems_fused_activation(op)
        if op.options_as(FullyConnectedOptions).weights_format != 0:
            problems.append("shuffled weights format is not supported")
        x, w, b, y = op.input(g, 0), op.input(g, 1), op.optional_input(g, 2), op.output(g)
        if w is not None and len(w.shape) != 2:
            problems.append(f"weights of rank {len(w.shape)}, expected 2")
        if b is not None and x.quant and w.quant and y.quant:
            # TFLM's Prepare (GetQuantizedConvolutionMultipler) holds the bias to the scale of the
            # products it is added to: within 2% of the output scale (an unquantized bias has scale 0)
            product = float(x.q.s) * float(w.q.scale[0])
            bias_scale = float(b.q.scale[0]) if b.quant else 0.0
            if abs(product - bias_scale) / float(y.q.s) > 0.02:
                problems.append(f"bias scale {bias_scale:.9g} is not input scale x weight scale ({product:.9g}); "
                                "TFLM refuses it")
        return problems + wide_problems(g, op) + int4_problems(g, op, per_channel=False)

    def prepare(self, g: Graph, op: Op) -> object:
        x, w, y = op.input(g, 0), op.input(g, 1), op.output(g)
        q = Rescale.of(g, op, x, w, y, w.shape[0])  # TFLM's int16 FC adds its zero points too
        wide = Wide.of(g, op, 2, w.shape[0]) if x.dtype == "int16" else None
        weights = (w.values.astype(np.float64) - w.q.zp).T.copy()
        return FullyConnectedData(q, w.q.zp, wide, Golden.of(g, op, weights, None, q, wide, w.shape[0]))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(FullyConnectedData)
        # float64 is exact here: every partial sum is an integer below 2^53.
        # np.dot: matmul's generality costs microseconds here, and these layers are tiny
        x = xs[0].reshape(-1, xs[1].shape[1]).astype(np.float64)
        if p.wide is not None:
            return p.wide.output(np.dot(x - p.quant.input_zp, p.golden.weights), p.quant).reshape(op.output(g).shape)
        assert p.golden.output is not None
        return p.golden.output(np.dot(x, p.golden.weights)).reshape(op.output(g).shape)

    def macs(self, g: Graph, op: Op) -> int:
        w = op.input(g, 1)
        return int(np.prod(op.input(g, 0).shape)) // w.shape[1] * w.shape[0] * w.shape[1]

    def lower(self, g: Graph, op: Op) -> Call | None:
        w, b = op.input(g, 1), op.optional_input(g, 2)
        p = op.prepared(FullyConnectedData)
        rows_in, tail, note = fc_rows(g, op)
        if p.wide is not None:
            return Call("mcu_fully_connected_s16", (fc_layer_params(p), p.quant.per_channel(), p.wide.bits, *rows_in,
                                                    Const("filter", w.values), Const("bias", p.wide.bias), *tail),
                        note=note + f", int16 activations, int{p.wide.bits} accumulator")
        kernel, filter_arg = reference_filter(g, op, "mcu_fully_connected_s8", w.values)
        return Call(kernel, (fc_layer_params(p), p.quant.per_channel(), *rows_in, filter_arg,
                             Const("bias", b.values) if b is not None else None, *tail), note=note)


def fc_layer_params(p: FullyConnectedData, per_tensor: bool = False) -> Struct:
    return fc_params(p.quant, p.filter_zp, per_tensor)


def fc_rows(g: Graph, op: Op) -> tuple[tuple[Struct, Slice], tuple[Struct, Slice], str]:
    """The input as rows of `depth` and the output as rows of `units`: dims and data, and the note."""
    x, w = op.input(g, 0), op.input(g, 1)
    units, depth = w.shape
    rows = int(np.prod(x.shape)) // depth
    return ((Struct("mcu_dims", "input_dims", dict(n=rows, h=1, w=1, c=depth)), reads(op)),
            (Struct("mcu_dims", "output_dims", dict(n=rows, h=1, w=1, c=units)), writes(op)),
            f"{rows} row(s) of {depth} -> {units} units")


