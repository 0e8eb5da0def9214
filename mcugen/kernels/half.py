"""The fp16 layers' Helium kernels (ops/half_layers.py): the same order of operations eight lanes at a time.
Their tables are keyed OPCODE:float16, the rows of the float16 kernel family."""
from __future__ import annotations

import dataclasses

from mcugen import ops
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call
from mcugen.kernels.variant import Build, Variant, always, when
from mcugen.ops.float_conv import FloatConvData


def renamed(kernel: str) -> Build:
    """The reference call's arguments, on `kernel` (the variants take the reference kernel's prototype)."""
    def build(g: Graph, op: Op) -> Call:
        call = ops.get(g, op).lower(g, op)
        assert call is not None
        return dataclasses.replace(call, kernel=kernel, note=f"{call.note}, Helium: eight lanes")
    return build


@when
def one_per_channel(g: Graph, op: Op) -> bool:
    """Depth multiplier 1: output channel c reads input channel c."""
    return op.prepared(FloatConvData).depth_multiplier == 1


TABLES = {
    "FULLY_CONNECTED:float16": (
        Variant("mcu_fully_connected_f16_mve", "mve", always, renamed("mcu_fully_connected_f16_mve")),),
    "CONV_2D:float16": (Variant("mcu_conv2d_f16_mve", "mve", always, renamed("mcu_conv2d_f16_mve")),),
    "DEPTHWISE_CONV_2D:float16": (
        Variant("mcu_depthwise_conv2d_f16_mve", "mve", one_per_channel, renamed("mcu_depthwise_conv2d_f16_mve")),),
}
