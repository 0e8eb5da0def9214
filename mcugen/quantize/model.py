"""The float model as the quantizer takes it, and the layers whose precision can be chosen.

The quantizer names each op by its output tensors' names (its "scope"), calibrates through a signature,
and quantizes float32 weights. So a file without a signature is given one (its subgraph's inputs and
outputs under their tensor names), and weights stored as float16 behind a DEQUANTIZE (what the
converter's float16 option writes) become the float32 constants they stand for, the DEQUANTIZE gone.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.graph import Graph

# the precisions a layer can take: int8 activations and weights, int16 activations with int8 weights,
# int8 activations with int4 weights, or no quantization
PRECISIONS = ("int8", "16x8", "w4a8", "float16", "fp16", "dynamic", "float32")
# precisions whose layers keep float32 activations in the file: float16 is weights stored as float16 (the
# converter's float16 option), fp16 the same file with the layers marked to be computed in fp16 where the core
# can (passes/compute_fp16.py), dynamic int8 weights with each input quantized at run time (its dynamic-range
# option); LiteRT's reference kernels run the three, TFLM none
FLOAT_PRECISIONS = ("float16", "fp16", "dynamic", "float32")
IO_TYPES = ("int8", "uint8", "float32")  # the model's inputs and outputs
COSTS = ("time", "flash", "ram")  # what the search's "cheapest" may mean
# the ops whose filter may be INT4: TFLM takes them in conv, depthwise and (per tensor) fully-connected
# layers, the quantizer's policy writes them for conv and fully-connected ones (recipe.py takes_int4)
INT4_OPS = frozenset({"CONV_2D", "FULLY_CONNECTED"})
# layers with weights: the ones a precision search chooses for (the others take the model's default)
WEIGHTED_OPS = frozenset({"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "TRANSPOSE_CONV", "BATCH_MATMUL"})
ENTRY = "serving_default"


@dataclass(frozen=True)
class Layer:
    index: int  # the op's index in the float model's graph
    origin: int  # its index in the file (what `mcugen inspect` prints, and a plan names it by)
    opcode: str
    scope: str  # the quantizer's name for it: its output tensors' names, each followed by ';'
    output: str  # the name of its (first) output tensor, which the quantized model keeps
    weights: int  # weight elements (0: none)


@dataclass(frozen=True)
class FloatModel:
    content: bytes  # the file as the quantizer takes it
    signature: str  # the signature the quantizer calibrates through
    input_names: tuple[str, ...]  # the signature's name of each graph input, in graph order
    graph: Graph  # the float model as the golden model runs it
    layers: tuple[Layer, ...]  # every op, in order

    @property
    def weighted(self) -> tuple[Layer, ...]:
        return tuple(layer for layer in self.layers if layer.opcode in WEIGHTED_OPS and layer.weights)


def load_float_model(source: Path, signature: str | None = None) -> FloatModel:
    """The float model of a .tflite, a Keras model or a SavedModel (front_end.py)."""
    from mcugen.codegen.pipeline import lower, read
    from mcugen.quantize.front_end import float_tflite

    with tempfile.TemporaryDirectory(prefix="mcugen-quantize-") as work:
        path = float_tflite(source, Path(work))
        float_graph = read(path, signature)
        refuse_quantized(float_graph, source)
        refuse_nonfinite(float_graph, source)
        content, entry, names = _as_quantizer_takes(path.read_bytes(), signature)
        prepared = Path(work) / f"{source.stem}.tflite"  # a converted file is read by now
        prepared.write_bytes(content)
        graph = lower(prepared, (), entry)
    layers = []
    for op in graph.ops:
        names_out = [graph.tensors[i].name for i in op.outputs if i >= 0]
        weights = sum(int(data.size) for i in op.inputs[1:2] if i >= 0 and (data := graph.tensors[i].data) is not None)
        layers.append(Layer(op.index, op.origin, op.opcode, "".join(f"{n};" for n in names_out), names_out[0],
                            weights))
    return FloatModel(content, entry, names, graph, tuple(layers))


def refuse_nonfinite(g: Graph, path: Path) -> None:
    """A float model whose constants hold a NaN or an infinity (a diverged training) has no range to quantize."""
    for t in g.tensors:
        if t.data is not None and t.data.dtype.kind == "f" and not np.isfinite(t.data).all():
            raise McugenError(f"{path}: constant '{t.name}' holds {int(np.count_nonzero(~np.isfinite(t.data))):,} NaN "
                              "or infinite value(s)", "retrain or repair the model: quantization needs finite weights")


def refuse_quantized(g: Graph, path: Path) -> None:
    quantized = next((t for t in g.tensors if t.dtype != "float32" and t.quant is not None), None)
    if quantized is not None:
        raise McugenError(f"{path} is already quantized ('{quantized.name}' is {quantized.dtype})",
                          "quantize takes the float model the converter wrote before quantization")
    if not any(t.dtype == "float32" and not t.is_const for t in g.tensors):
        raise McugenError(f"{path} computes nothing in float32", "quantize takes a float32 model")


def _as_quantizer_takes(content: bytes, signature: str | None) -> tuple[bytes, str, tuple[str, ...]]:
    """(the file with a signature and float32 weights, the signature's key, its input names)."""
    from mcugen.frontend import model_object

    schema = model_object.schema()
    model = model_object.load(content)
    if not model.signatureDefs:
        sub = model.subgraphs[0]

        def entry(i: int):
            m = schema.TensorMapT()
            m.name, m.tensorIndex = sub.tensors[i].name, i
            return m

        sig = schema.SignatureDefT()
        sig.signatureKey, sig.subgraphIndex = ENTRY.encode(), 0
        sig.inputs, sig.outputs = [entry(i) for i in sub.inputs], [entry(i) for i in sub.outputs]
        model.signatureDefs = [sig]
    sig = next(s for s in model.signatureDefs
               if signature is None or s.signatureKey.decode("utf-8", "replace") == signature)
    if len(model.signatureDefs) > 1:  # the quantizer calibrates every signature; keep the chosen one
        model.signatureDefs = [sig]
    _unfold_float16(model, schema)
    for code in model.operatorCodes or []:
        # the quantizer reads builtin_code alone; files older than the field say their op only in
        # deprecated_builtin_code (builtin_code 0 is ADD, whose inputs it would quantize alike)
        code.builtinCode = max(code.builtinCode, code.deprecatedBuiltinCode)
    sub = model.subgraphs[sig.subgraphIndex]
    by_index = {m.tensorIndex: m.name.decode("utf-8", "replace") for m in sig.inputs}
    names = tuple(by_index[i] for i in sub.inputs)
    return model_object.save(model), sig.signatureKey.decode("utf-8", "replace"), names


def _unfold_float16(model, schema) -> None:
    """A float16 constant read through a DEQUANTIZE becomes the float32 constant it decodes to."""
    dequantize = {k for k, code in enumerate(model.operatorCodes or [])
                  if max(code.builtinCode, code.deprecatedBuiltinCode) == schema.BuiltinOperator.DEQUANTIZE}
    for sub in model.subgraphs:
        kept = []
        for op in sub.operators or []:
            source = sub.tensors[op.inputs[0]] if op.opcodeIndex in dequantize and len(op.inputs) else None
            data = model.buffers[source.buffer].data if source is not None else None
            if source is None or source.type != schema.TensorType.FLOAT16 or data is None or not len(data):
                kept.append(op)
                continue
            values = np.frombuffer(bytes(bytearray(data)), dtype="<f2").astype("<f4")
            out = sub.tensors[op.outputs[0]]
            buffer = schema.BufferT()
            buffer.data = np.frombuffer(values.tobytes(), dtype=np.uint8)
            model.buffers.append(buffer)
            out.buffer = len(model.buffers) - 1
        sub.operators = kept
    _drop_unread(model)


def _drop_unread(model) -> None:
    """Tensors nothing reads or writes (the float16 originals unfolded above) and the buffers only they
    held: the quantizer copies every tensor through, so they would stay in the written file as dead bytes."""
    for k, sub in enumerate(model.subgraphs):
        sigs = [s for s in model.signatureDefs or [] if s.subgraphIndex == k]
        used = {t for op in sub.operators or [] for t in [*op.inputs, *(op.outputs or [])] if t >= 0}
        used |= {*sub.inputs, *sub.outputs} | {m.tensorIndex for s in sigs for m in [*s.inputs, *s.outputs]}
        used |= {t for t, tensor in enumerate(sub.tensors) if tensor.isVariable}
        new = {old: n for n, old in enumerate(sorted(used))}
        sub.tensors = [sub.tensors[old] for old in sorted(used)]
        for op in sub.operators or []:
            op.inputs = [new[t] if t >= 0 else t for t in op.inputs]
            op.outputs = [new[t] if t >= 0 else t for t in op.outputs or []]
            if op.intermediates is not None:
                op.intermediates = [new[t] for t in op.intermediates if t in new]
        sub.inputs, sub.outputs = [new[t] for t in sub.inputs], [new[t] for t in sub.outputs]
        for m in (m for s in sigs for m in [*s.inputs, *s.outputs]):
            m.tensorIndex = new[m.tensorIndex]
    held = {t.buffer for sub in model.subgraphs for t in sub.tensors}
    for b, buffer in enumerate(model.buffers):
        if b and b not in held:
            buffer.data = None  # emptied, not removed: other tables (metadata) may name buffers by index
