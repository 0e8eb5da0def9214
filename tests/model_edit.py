"""Edit a real .tflite file through the FlatBuffer object API of the schema the LiteRT oracle ships
(ai_edge_litert.schema_py_generated): unpack, change any field, pack. For hostile-input tests and the
fuzzer's real base models, where tflite_writer builds small models from nothing."""
from __future__ import annotations

from pathlib import Path

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

from mcugen.ir.calls import nibbles

OPCODE_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}


def load(path: Path) -> schema.ModelT:
    """The model with every vector an edit may change as a writable copy (the unpacked ones view the file)."""
    model = schema.ModelT.InitFromPackedBuf(path.read_bytes(), 0)
    for sub in model.subgraphs:
        for item in [*sub.tensors, *sub.operators]:
            for field in ("shape", "shapeSignature", "inputs", "outputs", "intermediates"):
                if getattr(item, field, None) is not None:
                    setattr(item, field, [int(v) for v in getattr(item, field)])
    for buffer in model.buffers:
        if buffer.data is not None:
            buffer.data = bytes(buffer.data)
    return model


def pack(model: schema.ModelT) -> bytes:
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def opcode(model: schema.ModelT, op) -> str:
    """As TFLM resolves it: the larger of builtin_code and deprecated_builtin_code."""
    code = model.operatorCodes[op.opcodeIndex]
    return OPCODE_NAMES.get(max(code.builtinCode, code.deprecatedBuiltinCode), "?")


def ops_of(model: schema.ModelT, name: str, subgraph: int = 0) -> list:
    return [op for op in model.subgraphs[subgraph].operators or [] if opcode(model, op) == name]


def with_signatures(models: dict[str, bytes]) -> bytes:
    """One file holding each model's (single) subgraph as a signature of that name, in order, as LiteRT
    2.x writes a model with several entry points."""
    merged = None
    for key, blob in models.items():
        model = schema.ModelT.InitFromPackedBuf(blob, 0)
        sub = model.subgraphs[0]
        if merged is None:
            merged, sub.name = model, key.encode()
            merged.signatureDefs = []
        else:
            first_buffer, codes = len(merged.buffers), []
            merged.buffers += model.buffers[1:]  # buffer 0 is the empty sentinel
            for t in sub.tensors:
                t.buffer = t.buffer + first_buffer - 1 if t.buffer else 0
            for code in model.operatorCodes:
                codes.append(len(merged.operatorCodes))
                merged.operatorCodes.append(code)
            for op in sub.operators:
                op.opcodeIndex = codes[op.opcodeIndex]
            sub.name = key.encode()
            merged.subgraphs.append(sub)
        signature = schema.SignatureDefT()
        signature.signatureKey, signature.subgraphIndex = key.encode(), len(merged.subgraphs) - 1
        signature.inputs = [_tensor_map(sub, t) for t in sub.inputs]
        signature.outputs = [_tensor_map(sub, t) for t in sub.outputs]
        merged.signatureDefs.append(signature)
    return pack(merged)


def _tensor_map(sub, index: int):
    entry = schema.TensorMapT()
    entry.name, entry.tensorIndex = sub.tensors[index].name, int(index)
    return entry


def with_int4_filters(path: Path, out: Path) -> Path:
    """The model with each CONV_2D's and DEPTHWISE_CONV_2D's int8 filter re-quantized to INT4 (per channel, scale
    max |w| / 7: a size and speed study's model, not an accurate one), written to `out`."""
    model = load(path)
    sub = model.subgraphs[0]
    for op in sub.operators:
        if opcode(model, op) not in ("CONV_2D", "DEPTHWISE_CONV_2D"):
            continue
        t = sub.tensors[op.inputs[1]]
        q = t.quantization
        values = np.frombuffer(model.buffers[t.buffer].data, np.int8).reshape(t.shape).astype(np.float64)
        others = [d for d in range(values.ndim) if d != q.quantizedDimension]
        real = values * np.expand_dims(np.asarray(q.scale), others)
        peak = np.max(np.abs(real), axis=tuple(others))
        scale = np.where(peak > 0, peak / 7, 1.0).astype(np.float32)
        w4 = np.clip(np.round(real / np.expand_dims(scale, others)), -8, 7)
        model.buffers[t.buffer].data = nibbles(w4).tobytes()
        q.scale = [float(s) for s in scale]
        t.type = schema.TensorType.INT4
        # the bias keeps its int32 values: TFLM reads them as they are (scale input x filter only in Prepare's check)
    out.write_bytes(pack(model))
    return out
