"""The file's builtin options: one typed record per schema table an op of mcugen reads.

Each record is named after its table (schema.fbs) and its fields after the table's, snake_cased, enums as
their names. The reader (frontend/read_tflite.py) fills every field from the file; the defaults are the
schema's, for records the passes make. A table no op reads is `Options()`: its fields stay in the file.
Shared bases carry the fields ops read across tables (the fused activation, a window's padding and
strides, the hybrid kernels' input quantization), so that a helper reads them without knowing the opcode.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Options:
    """An op without options mcugen reads."""


@dataclass(frozen=True)
class Activated(Options):
    fused_activation_function: str = "NONE"


@dataclass(frozen=True)
class Hybrid(Options):
    """A kernel that may take float inputs against int8 weights (LiteRT's hybrid path)."""

    asymmetric_quantize_inputs: bool = False


@dataclass(frozen=True)
class BiasTyped(Options):
    """A kernel whose file may name its bias type where it has no bias (a TensorType: INT32, 2, asks a 16x8
    kernel for an int32 accumulator)."""

    quantized_bias_type: int = 0

    @property
    def int32_bias(self) -> bool:
        return self.quantized_bias_type == 2


@dataclass(frozen=True)
class Windowed(Activated):
    """A window slid over the image: its padding scheme and strides (rows, then columns)."""

    padding: str = "SAME"
    stride_h: int = 1
    stride_w: int = 1

    @property
    def dilation(self) -> tuple[int, int]:
        return 1, 1


@dataclass(frozen=True)
class Dilated(Windowed):
    dilation_h_factor: int = 1
    dilation_w_factor: int = 1

    @property
    def dilation(self) -> tuple[int, int]:
        return self.dilation_h_factor, self.dilation_w_factor


@dataclass(frozen=True)
class Conv2DOptions(Dilated, BiasTyped):
    pass


@dataclass(frozen=True)
class DepthwiseConv2DOptions(Dilated):
    depth_multiplier: int = 0


@dataclass(frozen=True)
class Pool2DOptions(Windowed):
    filter_height: int = 0
    filter_width: int = 0


@dataclass(frozen=True)
class TransposeConvOptions(Windowed, BiasTyped):
    pass


@dataclass(frozen=True)
class FullyConnectedOptions(Activated, Hybrid, BiasTyped):
    weights_format: int = 0  # 0: DEFAULT; 1: SHUFFLED4x16INT8, which TFLM refuses
    keep_num_dims: bool = False


@dataclass(frozen=True)
class AddOptions(Activated):
    pot_scale_int16: bool = True


@dataclass(frozen=True)
class SubOptions(Activated):
    pot_scale_int16: bool = True


@dataclass(frozen=True)
class MulOptions(Activated):
    pass


@dataclass(frozen=True)
class DivOptions(Activated):
    pass


@dataclass(frozen=True)
class Axial(Options):
    """An op along one axis of its tensors (negative: from the last)."""

    axis: int = 0


@dataclass(frozen=True)
class ConcatenationOptions(Activated, Axial):
    pass


@dataclass(frozen=True)
class SoftmaxOptions(Options):
    beta: float = 0.0


@dataclass(frozen=True)
class LeakyReluOptions(Options):
    alpha: float = 0.0


@dataclass(frozen=True)
class BatchMatMulOptions(Hybrid):
    adj_x: bool = False
    adj_y: bool = False


@dataclass(frozen=True)
class ReducerOptions(Options):
    keep_dims: bool = False


@dataclass(frozen=True)
class GatherOptions(Axial):
    batch_dims: int = 0


@dataclass(frozen=True)
class PackOptions(Axial):
    values_count: int = 0


@dataclass(frozen=True)
class UnpackOptions(Axial):
    num: int = 0


@dataclass(frozen=True)
class StridedSliceOptions(Options):
    begin_mask: int = 0
    end_mask: int = 0
    ellipsis_mask: int = 0
    new_axis_mask: int = 0
    shrink_axis_mask: int = 0
    offset: bool = False


@dataclass(frozen=True)
class Blocked(Options):
    block_size: int = 0


@dataclass(frozen=True)
class SpaceToDepthOptions(Blocked):
    pass


@dataclass(frozen=True)
class DepthToSpaceOptions(Blocked):
    pass


@dataclass(frozen=True)
class Resized(Options):
    align_corners: bool = False
    half_pixel_centers: bool = False

    @property
    def flags(self) -> list[str]:
        """The flags set, by name (for a layer's comment)."""
        return [name for name in ("align_corners", "half_pixel_centers") if getattr(self, name)]


@dataclass(frozen=True)
class ResizeBilinearOptions(Resized):
    pass


@dataclass(frozen=True)
class ResizeNearestNeighborOptions(Resized):
    pass


@dataclass(frozen=True)
class UnidirectionalSequenceLSTMOptions(Activated, Hybrid):
    cell_clip: float = 0.0
    proj_clip: float = 0.0
    time_major: bool = False
    diagonal_recurrent_tensors: bool = False


@dataclass(frozen=True)
class SVDFOptions(Activated, Hybrid):
    rank: int = 0


@dataclass(frozen=True)
class VarHandleOptions(Options):
    container: bytes | None = None
    shared_name: bytes | None = None


@dataclass(frozen=True)
class CallOnceOptions(Options):
    init_subgraph_index: int = 0


@dataclass(frozen=True)
class CustomOptions(Options):
    """A custom op's options: the FlexBuffer map its converter writes, decoded (else {"bytes": raw}), and the
    map's slots as TFLM's FlexbufferWrapper reads them (each a signed integer of the map's width)."""

    values: dict[str, Any] = field(default_factory=dict)
    words: tuple[int, ...] = ()


TABLES: dict[str, type[Options]] = {cls.__name__: cls for cls in (
    Conv2DOptions, DepthwiseConv2DOptions, Pool2DOptions, TransposeConvOptions, FullyConnectedOptions, AddOptions,
    SubOptions, MulOptions, DivOptions, ConcatenationOptions, SoftmaxOptions, LeakyReluOptions,
    BatchMatMulOptions, ReducerOptions, GatherOptions, PackOptions, UnpackOptions, StridedSliceOptions,
    SpaceToDepthOptions, DepthToSpaceOptions, ResizeBilinearOptions, ResizeNearestNeighborOptions,
    UnidirectionalSequenceLSTMOptions, SVDFOptions, VarHandleOptions, CallOnceOptions)}
# the tables several opcodes share; the others are named after their opcode (CONV_2D: Conv2DOptions)
SHARED_TABLES = {"AVERAGE_POOL_2D": "Pool2DOptions", "MAX_POOL_2D": "Pool2DOptions", "L2_POOL_2D": "Pool2DOptions",
                 "MEAN": "ReducerOptions", "REDUCE_MAX": "ReducerOptions", "REDUCE_MIN": "ReducerOptions",
                 "SUM": "ReducerOptions", "REDUCE_PROD": "ReducerOptions"}
_BY_LOWER = {name.lower(): name for name in TABLES}


def record_of(opcode: str) -> type[Options]:
    """The record an opcode's options table is read as (Options for a table no op of mcugen reads)."""
    if opcode.startswith("CUSTOM:"):
        return CustomOptions
    name = SHARED_TABLES.get(opcode, _BY_LOWER.get(opcode.replace("_", "").lower() + "options", ""))
    return TABLES.get(name, Options)
