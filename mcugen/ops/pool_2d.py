"""AVERAGE_POOL_2D and MAX_POOL_2D: TFLM reference_integer_ops pooling.

Only in-image taps count: the average divides by the number of valid taps and
rounds half away from zero with C integer division, as TFLM does.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Struct, activation, dims, reads, tile, writes
from mcugen.ir.options import Pool2DOptions, Windowed
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._quant import fused_range, problems_fused_activation
from mcugen.ops._window import Pair, Taps, Window, declared_hw, geometry, window_shape


@dataclass(frozen=True)
class PoolGolden:
    """Host-only: which input pixels each output's taps read, and (AVERAGE_POOL_2D) how many of
    them are inside the image."""

    taps: Taps
    count: np.ndarray | None = None


@dataclass(frozen=True)
class PoolData:
    window: Window
    kernel: Pair
    act_min: int
    act_max: int
    golden: PoolGolden = field(compare=False, repr=False)


class _Pool(OpDef):
    input_types = output_types = ("int8", "int16")
    def output_shape(self, g: Graph, op: Op) -> Shapes:
        x = op.input(g, 0)
        kernel = (op.options_as(Pool2DOptions).filter_height, op.options_as(Pool2DOptions).filter_width)
        return window_shape(op.options_as(Windowed), x.shape, kernel, x.shape[-1] if x.shape else 0, op.output(g).shape)

    def check(self, g: Graph, op: Op) -> list[str]:
        problems = problems_fused_activation(op)
        x, y = op.input(g, 0), op.output(g)
        if x.quant and y.quant and (x.q.s != y.q.s or x.q.zp != y.q.zp):
            problems.append("input and output quantization differ (TFLM int8 pooling requires equal)")
        return problems

    def prepare(self, g: Graph, op: Op) -> object:
        x = op.input(g, 0)
        kernel = (op.options_as(Pool2DOptions).filter_height, op.options_as(Pool2DOptions).filter_width)
        window = geometry(op.options_as(Windowed), x.shape[1:3], kernel, declared_hw(op.output(g).shape), op.facts.folded_pad)
        return PoolData(window, kernel, *fused_range(g, op), PoolGolden(Taps.of(window, x.shape[1:3], kernel)))

    def lower(self, g: Graph, op: Op) -> Call | None:
        return pool_call(g, op, "mcu_avgpool" if op.opcode == "AVERAGE_POOL_2D" else "mcu_maxpool", "")


def pool_call(g: Graph, op: Op, kernel: str, how: str) -> Call:
    p = op.prepared(PoolData)
    pool = Struct("mcu_pool_params", "params", dict(
        stride=tile(p.window.stride), padding=tile(p.window.pad), filter=tile(p.kernel),
        activation=activation(p.act_min, p.act_max), bits=np.iinfo(op.input(g, 0).dtype).bits))
    return Call(kernel, (pool, dims("input_dims", op.input(g, 0).shape), reads(op),
                         dims("output_dims", op.output(g).shape), writes(op)),
                note=p.window.describe(p.kernel, op.options_as(Windowed).padding) + how)


@register("AVERAGE_POOL_2D")
class AveragePool2D(_Pool):
    def prepare(self, g: Graph, op: Op) -> object:
        p = super().prepare(g, op)
        assert isinstance(p, PoolData)
        ones = np.ones((1,) + op.input(g, 0).shape[1:3] + (1,), dtype=np.int64)
        return dataclasses.replace(p, golden=PoolGolden(p.golden.taps, p.golden.taps.gather(ones, 0).sum(axis=2)))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(PoolData)
        taps = p.golden.taps.gather(xs[0], 0).sum(axis=2, dtype=np.int64)
        count = self.pixel_counts(g, op).reshape(1, -1, 1)
        # TFLM: (sum +- count / 2) / count in C, which truncates: ties go away from zero; a window with no pixel
        # (a declared output past the image) leaves 0 here, TFLM its arena's bytes (defined())
        avg = np.sign(taps) * ((np.abs(taps) + count // 2) // np.maximum(count, 1))
        return np.clip(avg, p.act_min, p.act_max).astype(xs[0].dtype).reshape(op.output(g).shape)

    def pixel_counts(self, g: Graph, op: Op) -> np.ndarray:
        """How many pixels of the image each output position's window holds."""
        count = op.prepared(PoolData).golden.count
        assert count is not None
        return count.reshape(-1)

    def defined(self, g: Graph, op: Op, k: int, given: list[np.ndarray | None]) -> np.ndarray | None:
        """TFLM's kernel stops at the first window with no pixel of the image: what it has not written by
        then is the arena's (only a declared output larger than the options compute has such a window)."""
        empty = np.flatnonzero(self.pixel_counts(g, op) == 0)
        if not len(empty) or given[0] is not None:  # (a mean of an undefined input is refused there)
            return super().defined(g, op, k, given)
        y = op.output(g)
        mask = np.zeros(int(np.prod(y.shape)), bool)
        mask[:empty[0] * y.shape[-1]] = True  # positions in TFLM's order (batch 0 first), channels last
        return mask.reshape(y.shape)


@register("MAX_POOL_2D")
class MaxPool2D(_Pool):
    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(PoolData)
        # out-of-image taps don't count in TFLM; as the type's minimum they never win a max with an in-image tap
        low = int(np.iinfo(xs[0].dtype).min)
        m = p.golden.taps.gather(xs[0], low).max(axis=2).reshape(op.output(g).shape)
        return np.clip(m, p.act_min, p.act_max).astype(xs[0].dtype)
