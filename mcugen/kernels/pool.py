"""The pooling kernels: four channels a word on the DSP extension, eight or sixteen a vector on Helium."""
from __future__ import annotations

import dataclasses

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call
from mcugen.kernels.variant import Variant, int8
from mcugen.ops.pool_2d import pool_call


def _avgpool_x4(g: Graph, op: Op) -> Call:
    call = pool_call(g, op, "mcu_avgpool_s8_x4", ", four channels per word")
    return dataclasses.replace(call, extra_kernels=("mcu_avgpool",))  # windows of over 255 taps


TABLES = {
    "AVERAGE_POOL_2D": (
        Variant("mcu_avgpool_s8_mve", "mve", int8, lambda g, op: pool_call(
            g, op, "mcu_avgpool_s8_mve", ", Helium: eight channels per vector (four past 256 taps)")),
        Variant("mcu_avgpool_s8_x4", "dsp", int8, _avgpool_x4),
    ),
    "MAX_POOL_2D": (
        Variant("mcu_maxpool_s8_mve", "mve", int8, lambda g, op: pool_call(
            g, op, "mcu_maxpool_s8_mve", ", Helium: sixteen channels per vector")),
    ),
}
