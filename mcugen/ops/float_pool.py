"""AVERAGE_POOL_2D and MAX_POOL_2D in float32: TFLM's reference_ops::AveragePool and MaxPool.

Average: the in-image taps summed from 0.0f row by row (np.add.accumulate, left to right; a padded
tap adds +0.0, which changes no sum), divided by their count as a float. Max: from the lowest float,
each in-image tap taken where the running maximum is below it (std::max: NaN taps are passed over).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, dims, reads, tile, writes
from mcugen.ir.options import Pool2DOptions, Windowed
from mcugen.ops import Outputs, register
from mcugen.ops._float import F32, FLT_MAX, FloatActivation
from mcugen.ops._window import Pair, Taps, Window, declared_hw, geometry
from mcugen.ops.pool_2d import AveragePool2D, MaxPool2D


@dataclass(frozen=True)
class FloatPoolData:
    window: Window
    kernel: Pair
    activation: FloatActivation
    taps: Taps = field(compare=False, repr=False)


class _FloatPool:
    kernel = ""

    def check(self, g: Graph, op: Op) -> list[str]:
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        x = op.input(g, 0)
        kernel = (op.options_as(Pool2DOptions).filter_height, op.options_as(Pool2DOptions).filter_width)
        window = geometry(op.options_as(Windowed), x.shape[1:3], kernel, declared_hw(op.output(g).shape), op.facts.folded_pad)
        return FloatPoolData(window, kernel, FloatActivation.of(op), Taps.of(window, x.shape[1:3], kernel))

    def taps(self, g: Graph, op: Op, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """x's taps [N, P, T, C] (+0.0 in the padding) and which are in the image [P, T]."""
        p = op.prepared(FloatPoolData)
        return p.taps.gather(x, 0), p.taps.pixel != x.shape[1] * x.shape[2]

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(FloatPoolData)
        params = Struct("mcu_float_pool_params", "params", dict(
            stride=tile(p.window.stride), padding=tile(p.window.pad), filter=tile(p.kernel),
            activation=p.activation.fields()))
        return Call(self.kernel, (params, dims("input_dims", op.input(g, 0).shape), reads(op),
                                  dims("output_dims", op.output(g).shape), writes(op)),
                    note=p.window.describe(p.kernel, op.options_as(Windowed).padding))


@register("AVERAGE_POOL_2D", dtype="float32")
class FloatAveragePool2D(_FloatPool, AveragePool2D):
    kernel = "mcu_avgpool_f32"

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        cols, valid = self.taps(g, op, xs[0])
        start = np.zeros((*cols.shape[:2], 1, cols.shape[3]), F32)
        total = np.add.accumulate(np.concatenate([start, cols], axis=2), axis=2)[:, :, -1, :]
        count = valid.sum(axis=1).astype(F32)[None, :, None]
        # a window with no pixel: 0 here, TFLM's arena's bytes there (AveragePool2D.defined)
        mean = np.where(count > 0, total / np.maximum(count, F32(1)), F32(0))
        return op.prepared(FloatPoolData).activation.clamp(mean).reshape(op.output(g).shape)

    def pixel_counts(self, g: Graph, op: Op) -> np.ndarray:
        return (op.prepared(FloatPoolData).taps.pixel != int(np.prod(op.input(g, 0).shape[1:3]))).sum(axis=1)


@register("MAX_POOL_2D", dtype="float32")
class FloatMaxPool2D(_FloatPool, MaxPool2D):
    kernel = "mcu_maxpool_f32"

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        cols, valid = self.taps(g, op, xs[0])
        best = np.full((cols.shape[0], cols.shape[1], cols.shape[3]), -FLT_MAX, F32)
        for t in range(cols.shape[2]):
            take = (best < cols[:, :, t, :]) & valid[None, :, t, None]
            best = np.where(take, cols[:, :, t, :], best)
        return op.prepared(FloatPoolData).activation.clamp(best).reshape(op.output(g).shape)
