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


def with_fp16_layers(content: bytes, names: list[str]) -> bytes:
    """The file with its `mcugen.fp16` metadata naming `names` (the output tensors of the layers a precision
    plan made fp16: read_tflite.FP16_METADATA), replacing any it had."""
    import numpy as np

    from mcugen.frontend.read_tflite import FP16_METADATA

    s = schema()
    model = load(content)
    model.metadata = [m for m in model.metadata or [] if m.name.decode("utf-8", "replace") != FP16_METADATA]
    if names:
        buffer = s.BufferT()
        buffer.data = np.frombuffer("".join(f"{n}\n" for n in names).encode(), dtype=np.uint8)
        model.buffers.append(buffer)
        entry = s.MetadataT()
        entry.name, entry.buffer = FP16_METADATA.encode(), len(model.buffers) - 1
        model.metadata.append(entry)
    return save(model)
