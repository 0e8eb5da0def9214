"""Read a .tflite FlatBuffer into a Graph (the first pass of the pipeline).

Parsing uses the generated schema classes of the `tflite` package. The reader is
permissive about *what* the model contains (float, int16, custom ops are all
read, so `inspect` can describe them); `passes/check_support.py` decides what
mcugen can run. It is strict about the file itself: anything that is not a
complete, well-formed TFLite FlatBuffer is a McugenError (check_flatbuffer.py
walks the whole file first, as TFLite's own loaders do).
"""
from __future__ import annotations

import dataclasses
import hashlib
import inspect
import re
import shlex
import struct
from pathlib import Path

import flatbuffers
import numpy as np
from flatbuffers import flexbuffers
import tflite
from tflite.utils import BUILTIN_OPCODE2NAME

from mcugen.frontend.check_flatbuffer import check_flatbuffer
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph, Op, Quant, Tensor
from mcugen.ir.options import SHARED_TABLES, CallOnceOptions, CustomOptions, Options, record_of


def _enum_names(enum_cls) -> dict[int, str]:
    return {v: k for k, v in vars(enum_cls).items() if not k.startswith("_") and isinstance(v, int)}


_TENSOR_TYPES = {v: k.lower() for v, k in _enum_names(tflite.TensorType).items()}
_OPTION_TYPES = _enum_names(tflite.BuiltinOptions)
_ENUM_FIELDS = {
    "padding": _enum_names(tflite.Padding),
    "fused_activation_function": _enum_names(tflite.ActivationFunctionType),
}
_NUMPY_TYPES = {"float32", "float16", "float64", "int8", "uint8", "int16", "int32", "int64",
                "uint16", "uint32", "uint64", "bool"}


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


_OPTION_NAMES = {name.lower(): name for name in _OPTION_TYPES.values()}


def _options_type(opcode: str) -> str:
    """The options table an opcode's parser reads: its name + Options as the schema spells it (Conv2D,
    not Conv2d), but for the shared ones."""
    plain = opcode.replace("_", "").lower() + "options"
    return SHARED_TABLES.get(opcode, _OPTION_NAMES.get(plain, plain))


def _options(op, opcode: str) -> tuple[Options, str | None]:
    """The op's builtin options table as its typed record (ir/options.py; Options() where no op of mcugen
    reads the table).

    TFLM reads an op's options only through the union's declared type, and only when it is the op's
    own options type; otherwise its parser hands the kernel parameters that are all zero (not the
    schema's defaults: dilation 0, not 1), which no converter writes. Such an op is refused where its
    options have fields and its kernel reads them (the problem returned says why; validate_model
    decides), read as those zeros meanwhile so that `inspect` can still describe the op."""
    expected = _options_type(opcode)
    if not hasattr(tflite, expected):  # the op has no options (or is custom)
        return Options(), None
    type_name = _OPTION_TYPES.get(op.BuiltinOptionsType(), f"type {op.BuiltinOptionsType()}")
    table = op.BuiltinOptions()
    if type_name == expected and table is not None:
        return _record(opcode, _fields(getattr(tflite, expected), table)), None
    zeros = {k: (_ENUM_FIELDS[k].get(0, 0) if k in _ENUM_FIELDS else () if isinstance(v, tuple) else type(v)(0))
             for k, v in _fields(getattr(tflite, expected), _empty_table()).items()}
    if not zeros:
        return Options(), None
    what = ("the file declares no options" if type_name == "NONE" else "its table is missing"
            if type_name == expected else f"the file gives {type_name}")
    return _record(opcode, zeros), (f"no options ({what} where TFLM reads {expected}; TFLM would run it with "
                                      "every parameter zero, which no converter writes: re-export the model)")


def _record(opcode: str, fields: dict) -> Options:
    """The record of the opcode's table, its fields matched to the schema's by name (the schema's
    DilationHFactor is dilation_h_factor)."""
    kind = record_of(opcode)
    read = {name.replace("_", ""): value for name, value in fields.items()}
    return kind(**{f.name: read[f.name.replace("_", "")] for f in dataclasses.fields(kind)})


def _empty_table():
    builder = flatbuffers.Builder(16)
    builder.StartObject(0)
    builder.Finish(builder.EndObject())
    table = flatbuffers.table.Table(builder.Output(), 0)
    table.Pos = flatbuffers.encode.Get(flatbuffers.packer.uoffset, table.Bytes, 0)
    return table


def _fields(options_class, table) -> dict:
    options = options_class()
    options.Init(table.Bytes, table.Pos)
    attrs = {}
    for name, method in inspect.getmembers(options, inspect.ismethod):
        if name.startswith(("Init", "GetRoot")) or name.endswith(("Length", "IsNone")):
            continue
        params = inspect.signature(method).parameters
        if name.endswith("AsNumpy"):
            value = method()
            attrs[_snake(name[:-7])] = () if isinstance(value, int) else tuple(int(v) for v in value)
        elif not params:
            key = _snake(name)
            value = method()
            attrs[key] = _ENUM_FIELDS[key].get(value, value) if key in _ENUM_FIELDS else value
    return attrs


def _opcode_name(code) -> str:
    """The op as TFLM's schema utilities resolve it (GetBuiltinCode): the larger of builtin_code and
    the int8 deprecated_builtin_code, whatever the two say (files older than the field keep
    builtin_code 0; the LiteRT quantizer writes the ops it adds with deprecated_builtin_code 0)."""
    # the field itself: the tflite package's BuiltinCode() already answers the deprecated one below 127
    offset = code._tab.Offset(10)  # noqa: SLF001 - the generated accessor hides the stored value
    builtin = code._tab.Get(flatbuffers.number_types.Int32Flags, offset + code._tab.Pos) if offset else 0  # noqa: SLF001
    builtin = max(builtin, code.DeprecatedBuiltinCode())
    name = BUILTIN_OPCODE2NAME.get(builtin, f"BUILTIN_{builtin}")
    if name == "CUSTOM":
        custom = code.CustomCode()
        return "CUSTOM:" + (custom.decode("utf-8", "replace") if custom else "?")
    return name


class SparseTensor(Exception):
    """A tensor stored sparse (TFLite's sparsity parameters, for a DENSIFY op)."""


def _buffer_bytes(model, raw: bytes, index: int) -> tuple[bytes, bytes] | None:
    """A buffer's data, and as many of the file's bytes after it (fewer at the file's end)."""
    if index >= model.BuffersLength():
        raise IndexError(f"a tensor refers to buffer {index}, the file has {model.BuffersLength()}")
    if index == 0:  # buffer 0 is the converter's empty sentinel
        return None
    buf = model.Buffers(index)
    if buf.Offset() > 1:
        # Data kept after the FlatBuffer (models over 2 GB; the LiteRT quantizer's above 256 KB of
        # constants): TFLM reads only a buffer's own data, and would take the tensor for an
        # activation nobody writes, its values whatever the arena holds.
        raise McugenError(f"buffer {index} keeps its data after the FlatBuffer (offset {buf.Offset()}), "
                          "which TFLM does not read",
                          "write the model with its buffers inline (mcugen quantize does; or the converter "
                          "without external buffers)")
    if buf.DataLength() == 0:
        return None
    start = buf._tab.Vector(buf._tab.Offset(4))  # noqa: SLF001 - where the data lies in the file
    end = start + buf.DataLength()
    return raw[start:end], raw[end:end + buf.DataLength()]


def _quant(t, name: str) -> Quant | None:
    q = t.Quantization()
    if q is None or q.ScaleLength() == 0:
        return None
    if q.ZeroPointLength() != q.ScaleLength():
        # TFLM reads one zero point per scale, past the end of a shorter vector
        raise McugenError(f"tensor '{name}' has {q.ScaleLength()} scale(s) but {q.ZeroPointLength()} zero point(s)",
                          "the file is corrupt or was not written by the TFLite converter; re-export it")
    return Quant(scale=np.asarray(q.ScaleAsNumpy(), dtype=np.float32).copy(),
                 zero_point=np.asarray(q.ZeroPointAsNumpy(), dtype=np.int64).copy(),
                 axis=int(q.QuantizedDimension()))


def _tensor(model, raw: bytes, t, index: int) -> Tensor:
    shape = tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()
    dtype = _TENSOR_TYPES.get(t.Type(), f"type{t.Type()}")
    name = t.Name().decode("utf-8", "replace") if t.Name() else f"tensor{index}"
    data = None
    payload, after = _buffer_bytes(model, raw, t.Buffer()) or (None, b"")
    if payload is not None and dtype in _NUMPY_TYPES:
        count = int(np.prod(shape, dtype=np.int64))
        expected = count * np.dtype(dtype).itemsize
        if len(payload) != expected and t.Sparsity() is not None:
            # the compressed form, which only DENSIFY reads (TFLM ignores sparsity: dense bytes run as they are)
            raise SparseTensor(f"'{name}' is stored sparse ({len(payload)} bytes for {list(shape)})")
        if len(payload) != expected:
            raise IndexError(f"tensor {index} has {len(payload)} data bytes, shape needs {expected}")
        data = np.frombuffer(payload, dtype=np.dtype(dtype).newbyteorder("<")).reshape(shape)
    elif payload is not None and dtype == "int4":
        data = _unpack_int4(payload, int(np.prod(shape, dtype=np.int64)), index).reshape(shape)
    # TFLM allocates from `shape` and never reads shape_signature: a -1 there (a batch or time axis the
    # converter left open) runs as the stored shape does, so only an unknown stored dimension is dynamic.
    dynamic = any(d < 0 for d in shape)
    return Tensor(index=index, name=name, shape=shape, dtype=dtype, quant=_quant(t, name), data=data,
                  dynamic=dynamic, variable=bool(t.IsVariable()), after=after if dtype == "int32" else b"")


def _unpack_int4(payload: bytes, count: int, index: int) -> np.ndarray:
    """INT4 values as TFLM's UnpackDenseInt4IntoInt8 reads them: two to a byte, the low nibble first,
    each sign-extended; an odd count leaves the last byte's high nibble unused."""
    if len(payload) != (count + 1) // 2:
        raise IndexError(f"tensor {index} has {len(payload)} data bytes, {count} int4 values need {(count + 1) // 2}")
    packed = np.frombuffer(payload, dtype=np.int8)
    low = (packed << 4).astype(np.int8) >> 4
    high = packed >> 4
    return np.stack([low, high], axis=-1).reshape(-1)[:count].astype(np.int8)


MAX_FILE_BYTES = 1 << 30  # TFLite's own FlatBuffer limit is 2 GiB; no microcontroller model comes near


# the float models `mcugen quantize` converts (quantize/front_end.py), by how their files are named
_QUANTIZE_TAKES = {".keras": "a Keras model", ".h5": "a Keras model", ".pt2": "a PyTorch program (torch.export)",
                   ".onnx": "an ONNX model"}


def _quantize_first(path: Path) -> str:
    """The advice for a float model of a kind `mcugen quantize` takes ("" for other files)."""
    kind = "a SavedModel" if (path / "saved_model.pb").is_file() else _QUANTIZE_TAKES.get(path.suffix.lower())
    if kind is None:
        return ""
    return (f"it looks like {kind}: `mcugen quantize {shlex.quote(str(path))} --data CALIB.npz --out model.tflite` "
            "makes the int8 .tflite this command takes")


def read_tflite(path: str | Path, signature: str | None = None) -> Graph:
    """The model's graph: `signature`'s subgraph where one is named (LiteRT 2.x writes one per entry point),
    else subgraph 0 as TFLM runs it, or the file's only signature's subgraph."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir() and not path.is_file():  # a FIFO would block, a device never end
            raise McugenError(f"{path}: not a regular file", "pass the .tflite file itself")
        if path.is_file() and path.stat().st_size > MAX_FILE_BYTES:
            raise McugenError(f"{path}: {path.stat().st_size:,} bytes, larger than any TFLite model "
                              f"mcugen reads ({MAX_FILE_BYTES:,})", "pass the .tflite file itself")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise McugenError(f"{path}: no such file", "check the path to the .tflite model") from None
    except IsADirectoryError:
        raise McugenError(f"{path}: is a directory", _quantize_first(path) or "pass the .tflite file itself") from None
    except OSError as exc:
        raise McugenError(f"{path}: cannot read ({exc.strerror})", "check the file's permissions") from None
    if len(raw) < 8 or raw[4:8] != b"TFL3":
        raise McugenError(f"{path}: not a TFLite model (no 'TFL3' FlatBuffer identifier)",
                          _quantize_first(path) or "pass a .tflite file produced by the TFLite converter")
    try:
        check_flatbuffer(raw)
        return _parse(raw, path.stem, signature, path)
    except SparseTensor as sparse:
        raise McugenError(f"{path}: tensor {sparse}, which only a DENSIFY op reads: TFLM has no DENSIFY "
                          "kernel", "convert the model without sparsity (leave out "
                          "tf.lite.Optimize.EXPERIMENTAL_SPARSITY)") from None
    except (IndexError, struct.error, ValueError, TypeError, UnicodeDecodeError, AttributeError) as exc:
        raise McugenError(f"{path}: corrupt or truncated TFLite file ({exc})",
                          "re-export or re-download the model") from None


def _custom_options(raw: bytes) -> dict:
    """A custom op's options: the FlexBuffer map its converter writes, decoded; else the bytes."""
    try:
        decoded = flexbuffers.Loads(raw)
    except Exception:  # not a FlexBuffer: the op's own format, which only its kernel reads
        decoded = None
    return decoded if isinstance(decoded, dict) else {"bytes": raw}


def _option_words(raw: bytes) -> tuple[int, ...]:
    """A FlexBuffer map's values as TFLM's FlexbufferWrapper reads them (ElementAsInt64): each slot's bytes
    as a signed integer of the map's width, whatever its type (a float's bits, a string's offset). Empty for
    what is no map."""
    try:
        root = flexbuffers.GetRoot(raw)
        if not root.IsMap:
            return ()
        values = root.AsMap.Values
        width = values._byte_width  # noqa: SLF001 - the slots' width, which the accessors hide
        slots = values._buf  # noqa: SLF001 - likewise
        return tuple(int.from_bytes(bytes(slots[k * width:(k + 1) * width]), "little", signed=True)
                     for k in range(len(values)))
    except Exception:  # not a FlexBuffer
        return ()


def _call_once_options(op) -> CallOnceOptions:
    """CallOnceOptions' one field, read from the table (the tflite package predates it)."""
    table = op.BuiltinOptions()
    offset = table.Offset(4) if table is not None else 0
    return CallOnceOptions(table.Get(flatbuffers.number_types.Int32Flags, table.Pos + offset) if offset else 0)


def signatures(model) -> dict[str, int]:
    """Signature key -> the subgraph it runs, in file order."""
    found = {}
    for k in range(model.SignatureDefsLength()):
        sig = model.SignatureDefs(k)
        key = sig.SignatureKey().decode("utf-8", "replace") if sig.SignatureKey() else f"signature{k}"
        found[key] = int(sig.SubgraphIndex())
    return found


def _main_subgraph(named: dict[str, int], signature: str | None, path: Path, count: int) -> tuple[int, str]:
    """(the subgraph to run, the signature that names it where it is not simply subgraph 0)."""
    if signature is not None and signature not in named:
        raise McugenError(f"{path}: no signature '{signature}' (the file has "
                          f"{', '.join(named) if named else 'none'})",
                          "pass one of them to --signature, or leave the flag out" if named else
                          "leave --signature out: the file's one subgraph runs")
    if signature is None and (len(named) != 1 or next(iter(named.values())) == 0):
        return 0, ""  # what TFLM runs: subgraph 0, whatever the signatures say
    key = signature if signature is not None else next(iter(named))
    if not 0 <= named[key] < count:
        raise ValueError(f"signature '{key}' runs subgraph {named[key]}, the file has {count}")
    # the oracles run a subgraph other than 0 only when told which (Graph.signature)
    return named[key], signature or (key if named[key] else "")


def _parse(raw: bytes, name: str, signature: str | None, path: Path) -> Graph:
    model = tflite.Model.GetRootAs(raw, 0)
    if model.SubgraphsLength() < 1:
        raise ValueError("the model has no subgraph")
    if model.BuffersLength() < 1:
        raise ValueError("the model has no buffers (TFLM refuses that)")
    named = signatures(model)
    main, picked = _main_subgraph(named, signature, path, model.SubgraphsLength())
    _refuse_reduce_past_subgraph_0(model, path)
    entries = set(named.values()) - {main}  # other signatures' subgraphs: other programs
    codes = [model.OperatorCodes(i) for i in range(model.OperatorCodesLength())]
    # an empty stand-in keeps the indices
    graphs = [_subgraph(model, raw, codes, model.Subgraphs(k), name) if k not in entries else
              Graph(name=name, tensors=(), ops=(), inputs=(), outputs=()) for k in range(model.SubgraphsLength())]
    return dataclasses.replace(graphs[main], sha256=hashlib.sha256(raw).hexdigest(),
                               subgraph_count=model.SubgraphsLength(), subgraph_index=main,
                               subgraphs=tuple(graphs[:main] + graphs[main + 1:]), signature=picked,
                               signatures=tuple(named), fp16_layers=_fp16_layers(model, raw))


FP16_METADATA = "mcugen.fp16"  # the layers a precision plan made fp16: their output tensors' names, a line each


def _fp16_layers(model, raw: bytes) -> tuple[str, ...]:
    for k in range(model.MetadataLength()):
        entry = model.Metadata(k)
        if (entry.Name() or b"").decode("utf-8", "replace") == FP16_METADATA:
            data = _buffer_bytes(model, raw, entry.Buffer())
            text = data[0].decode("utf-8", "replace") if data is not None else ""
            return tuple(line for line in text.splitlines() if line)
    return ()


# TFLM prepares every subgraph of a file, whichever it runs; these kernels' Prepare reads tensors by index from
# subgraph 0's, and in any other subgraph TFLM crashes (measured on the oracle: a segmentation fault)
CRASH_PAST_SUBGRAPH_0 = ("MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN")


def _refuse_reduce_past_subgraph_0(model, path: Path) -> None:
    codes = [_opcode_name(model.OperatorCodes(i)) for i in range(model.OperatorCodesLength())]
    for k in range(1, model.SubgraphsLength()):
        sub = model.Subgraphs(k)
        for i in range(sub.OperatorsLength()):
            index = sub.Operators(i).OpcodeIndex()
            opcode = codes[index] if index < len(codes) else ""
            if opcode in CRASH_PAST_SUBGRAPH_0:
                raise McugenError(f"{path}: subgraph {k} has a {opcode} (op {i}), and TFLM, which prepares every "
                                  "subgraph of a file, crashes preparing one outside subgraph 0",
                                  f"put the {opcode} in the file's first subgraph (or its entry point in a file "
                                  "of its own)")


def _subgraph(model, raw: bytes, codes, sub, name: str) -> Graph:
    tensors = tuple(_tensor(model, raw, sub.Tensors(i), i) for i in range(sub.TensorsLength()))
    ops = []
    for k in range(sub.OperatorsLength()):
        op = sub.Operators(k)
        code = codes[op.OpcodeIndex()]
        opcode = _opcode_name(code)
        options, problem = (_call_once_options(op), None) if opcode == "CALL_ONCE" else _options(op, opcode)
        if opcode.startswith("CUSTOM:"):
            raw_options = op.CustomOptionsAsNumpy().tobytes() if op.CustomOptionsLength() else b""
            options = CustomOptions(_custom_options(raw_options), _option_words(raw_options)) if raw_options else \
                CustomOptions()
        ops.append(Op(index=k, opcode=opcode, version=int(code.Version()),
                      inputs=tuple(int(i) for i in op.InputsAsNumpy()) if op.InputsLength() else (),
                      outputs=tuple(int(i) for i in op.OutputsAsNumpy()) if op.OutputsLength() else (),
                      options=options, origin=k, options_problem=problem,
                      intermediates=tuple(int(i) for i in op.IntermediatesAsNumpy()) if op.IntermediatesLength() else ()))
    return Graph(name=name, tensors=tensors, ops=tuple(ops),
                 inputs=tuple(int(i) for i in sub.InputsAsNumpy()) if sub.InputsLength() else (),
                 outputs=tuple(int(i) for i in sub.OutputsAsNumpy()) if sub.OutputsLength() else ())
