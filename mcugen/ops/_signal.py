"""What the TFLM signal library's ops (the micro_speech audio front end: signal/micro/kernels in
tflite-micro) share: their options, read as TFLM reads them, and its bit arithmetic.

TFLM reads a signal op's FlexBuffer options by position, the map's values in the order of their
sorted keys (FlexbufferWrapper::ElementAsInt32(i)), each slot's bytes as an integer whatever its type (a
float's bits); mcugen does the same (read_tflite's custom_option_words), so a file whose keys or types differ
from the converter's means what it means to TFLM.
"""
from __future__ import annotations

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.options import CustomOptions


def option(op: Op, index: int) -> int:
    """The op's index-th option (by sorted key) as TFLM's ElementAsInt32 reads it; ValueError when
    there is none (TFLM would read past the map)."""
    words = op.options_as(CustomOptions).words
    if index >= len(words):
        raise ValueError(f"it has {len(words)} option(s), TFLM reads option {index + 1}")
    low = int(words[index]) & 0xFFFFFFFF  # static_cast<int32_t>: the low 32 bits
    return low - (1 << 32) if low >= 1 << 31 else low


def options_problem(op: Op, count: int) -> list[str]:
    """One line when the op's options don't hold the `count` numbers TFLM reads."""
    try:
        for k in range(count):
            option(op, k)
    except ValueError as e:
        return [f"{e} (its options must be the FlexBuffer map the TFLM signal library's converter writes)"]
    return []


def msb32(x: np.ndarray) -> np.ndarray:
    """MostSignificantBit32 as TFLM's GCC build has it: the bit length, but 32 for 0."""
    x = np.asarray(x, np.uint64)
    bits = np.zeros(x.shape, np.int64)
    for k in range(32):
        bits = np.where(x >> np.uint64(k) != 0, k + 1, bits)
    return np.where(x == 0, 32, bits)


def shapes_1d(g: Graph, op: Op, inputs: range, outputs: range) -> list[str]:
    """TFLM's signal kernels check their tensors are 1-D (NumDimensions == 1)."""
    named = [op.input(g, k) for k in inputs] + [op.output(g, k) for k in outputs]
    bad = [t for t in named if len(t.shape) != 1]
    return [f"tensor '{bad[0].name}' is {len(bad[0].shape)}-D; TFLM's kernel takes 1-D tensors"] if bad else []


def first_written(g: Graph, op: Op, given: list[np.ndarray | None]) -> np.ndarray | None:
    """OpDef.defined of a kernel that writes one output element per input element and leaves the rest of a
    longer output as the arena held it: the first elements, as defined as the input's."""
    x, y = op.input(g, 0), op.output(g)
    if given[0] is None and y.shape[0] == x.shape[0]:
        return None
    mask = np.zeros(y.shape, bool)
    mask[:x.shape[0]] = True if given[0] is None else given[0]
    return mask
