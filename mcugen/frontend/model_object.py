"""A .tflite file as LiteRT's schema object tree, for the few places mcugen rewrites a model
(the oracles' entry subgraph, the quantizer's input and output).

`load` brings data stored after the FlatBuffer (a buffer's offset and size, which the LiteRT
quantizer writes for models with 256 KB of constants or more) into the buffers themselves: TFLM
reads only a buffer's own data, so a file is written back with every buffer inline.
"""
from __future__ import annotations

from typing import Any


def schema() -> Any:
    from ai_edge_litert import schema_py_generated

    return schema_py_generated


def load(content: bytes) -> Any:
    import numpy as np

    model = schema().ModelT.InitFromPackedBuf(content, 0)
    for buffer in model.buffers or []:
        if buffer.offset > 1:
            buffer.data = np.frombuffer(content, dtype=np.uint8, count=buffer.size, offset=buffer.offset)
            buffer.offset = buffer.size = 0
    return model


def save(model: Any) -> bytes:
    import flatbuffers

    builder = flatbuffers.Builder(1 << 16)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())
