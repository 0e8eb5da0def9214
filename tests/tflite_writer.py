"""A small .tflite writer for tests, on the `tflite` package's FlatBuffer builders.

    m = ModelSpec()
    x = m.tensor("x", [1, 8, 8, 3], "int8", scale=0.02, zp=-3)
    w = m.tensor("w", [4, 3, 3, 3], "int8", scale=[0.01] * 4, zp=[0] * 4, data=weights)
    y = m.tensor("y", [1, 8, 8, 4], "int8", scale=0.05, zp=1)
    m.op("CONV_2D", [x, w, -1], [y], "Conv2DOptions", Padding=0, StrideW=1, StrideH=1)
    m.inputs, m.outputs = [x], [y]
    blob = m.build()

Option fields are the schema's CamelCase names; lists become vectors.
"""
from __future__ import annotations

import flatbuffers
import numpy as np
import tflite
from tflite.utils import BUILTIN_OPCODE2NAME

OPCODES = {name: code for code, name in BUILTIN_OPCODE2NAME.items()}
TYPES = {k.lower(): v for k, v in vars(tflite.TensorType).items() if not k.startswith("_")}
PADDING = {"SAME": tflite.Padding.SAME, "VALID": tflite.Padding.VALID}
ACT = {k: v for k, v in vars(tflite.ActivationFunctionType).items() if not k.startswith("_")}


def _vector(b, start_fn, values, kind):
    start_fn(b, len(values))
    prepend = {"int32": b.PrependInt32, "int64": b.PrependInt64, "float32": b.PrependFloat32,
               "uoffset": b.PrependUOffsetTRelative, "uint8": b.PrependUint8}[kind]
    for v in reversed(list(values)):
        prepend(v)
    return b.EndVector()


class ModelSpec:
    def __init__(self):
        self.tensors: list[dict] = []
        self.ops: list[dict] = []
        self.inputs: list[int] = []
        self.outputs: list[int] = []
        self.extra_subgraphs = 0
        self.deprecated_codes: dict[str, int] = {}  # opcode -> a deprecated_builtin_code to write instead

    def tensor(self, name, shape, dtype, scale=None, zp=None, axis=0, data=None, signature=None,
               variable=False) -> int:
        self.tensors.append(dict(name=name, shape=list(shape), dtype=dtype, scale=scale, zp=zp,
                                 axis=axis, data=data, signature=signature, variable=variable))
        return len(self.tensors) - 1

    def const(self, name, array: np.ndarray, dtype: str, **quant) -> int:
        array = np.asarray(array, dtype="int8" if dtype == "int4" else dtype)  # int4: values in [-8, 7]
        return self.tensor(name, array.shape, dtype, data=array, **quant)

    def op(self, opcode, inputs, outputs, options=None, custom=None, version=1, options_type=None,
           custom_options: bytes | None = None, **fields):
        """`options_type`: the union type to declare instead of the table's own (hostile files)."""
        self.ops.append(dict(opcode=opcode, inputs=list(inputs), outputs=list(outputs),
                             options=options, fields=fields, custom=custom, version=version,
                             custom_options=custom_options,
                             options_type=options_type))

    # -- serialisation ------------------------------------------------------
    def build(self) -> bytes:
        b = flatbuffers.Builder(1024)
        buffers = [self._buffer(b, None)]
        tensor_offsets = []
        for t in self.tensors:
            buffer_index = 0
            if t["data"] is not None:
                raw = np.ascontiguousarray(t["data"])  # a raw type code: the bytes as given
                if t["dtype"] == "int4":  # two to a byte, the low nibble first (TFLM's packing)
                    nibbles = np.append(raw.reshape(-1).astype(np.int8), np.int8(0))[:(raw.size + 1) // 2 * 2]
                    packed = (nibbles[0::2] & 0x0F) | (nibbles[1::2] << 4)
                    buffers.append(self._buffer(b, packed.astype(np.int8).tobytes()))
                else:
                    buffers.append(self._buffer(b, (raw if isinstance(t["dtype"], int) else raw.astype(
                        np.dtype(t["dtype"]).newbyteorder("<"))).tobytes()))
                buffer_index = len(buffers) - 1
            tensor_offsets.append(self._tensor(b, t, buffer_index))
        codes = sorted({(o["opcode"], o["custom"], o["version"]) for o in self.ops}, key=str)
        code_offsets = [self._opcode(b, *c, self.deprecated_codes.get(c[0])) for c in codes]
        op_offsets = [self._op(b, o, codes.index((o["opcode"], o["custom"], o["version"])))
                      for o in self.ops]
        subgraphs = [self._subgraph(b, tensor_offsets, op_offsets)]
        subgraphs += [self._subgraph(b, [], []) for _ in range(self.extra_subgraphs)]

        sub_vec = _vector(b, tflite.ModelStartSubgraphsVector, subgraphs, "uoffset")
        code_vec = _vector(b, tflite.ModelStartOperatorCodesVector, code_offsets, "uoffset")
        buf_vec = _vector(b, tflite.ModelStartBuffersVector, buffers, "uoffset")
        desc = b.CreateString("mcugen test model")
        tflite.ModelStart(b)
        tflite.ModelAddVersion(b, 3)
        tflite.ModelAddOperatorCodes(b, code_vec)
        tflite.ModelAddSubgraphs(b, sub_vec)
        tflite.ModelAddDescription(b, desc)
        tflite.ModelAddBuffers(b, buf_vec)
        b.Finish(tflite.ModelEnd(b), file_identifier=b"TFL3")
        return bytes(b.Output())

    @staticmethod
    def _buffer(b, payload):
        data = None
        if payload is not None:
            b.StartVector(1, len(payload), 16)
            for byte in reversed(payload):
                b.PrependUint8(byte)
            data = b.EndVector()
        tflite.BufferStart(b)
        if data is not None:
            tflite.BufferAddData(b, data)
        return tflite.BufferEnd(b)

    @staticmethod
    def _tensor(b, t, buffer_index):
        quant = None
        if t["scale"] is not None:
            scales = np.atleast_1d(np.asarray(t["scale"], dtype=np.float32))
            zps = np.atleast_1d(np.asarray(t["zp"] if t["zp"] is not None else 0, dtype=np.int64))
            zps = np.broadcast_to(zps, scales.shape)
            s_vec = _vector(b, tflite.QuantizationParametersStartScaleVector, scales.tolist(), "float32")
            z_vec = _vector(b, tflite.QuantizationParametersStartZeroPointVector, zps.tolist(), "int64")
            tflite.QuantizationParametersStart(b)
            tflite.QuantizationParametersAddScale(b, s_vec)
            tflite.QuantizationParametersAddZeroPoint(b, z_vec)
            tflite.QuantizationParametersAddQuantizedDimension(b, t["axis"])
            quant = tflite.QuantizationParametersEnd(b)
        name = b.CreateString(t["name"])
        shape = _vector(b, tflite.TensorStartShapeVector, t["shape"], "int32")
        signature = None
        if t["signature"] is not None:
            signature = _vector(b, tflite.TensorStartShapeSignatureVector, t["signature"], "int32")
        tflite.TensorStart(b)
        tflite.TensorAddShape(b, shape)
        if signature is not None:
            tflite.TensorAddShapeSignature(b, signature)
        # a number: that TensorType code as is (hostile files: types outside the schema, or no numpy twin)
        tflite.TensorAddType(b, t["dtype"] if isinstance(t["dtype"], int) else TYPES[t["dtype"]])
        tflite.TensorAddBuffer(b, buffer_index)
        tflite.TensorAddName(b, name)
        tflite.TensorAddIsVariable(b, t["variable"])
        if quant is not None:
            tflite.TensorAddQuantization(b, quant)
        return tflite.TensorEnd(b)

    @staticmethod
    def _opcode(b, opcode, custom, version, deprecated=None):
        code = OPCODES[opcode]
        custom_str = b.CreateString(custom) if custom else None
        tflite.OperatorCodeStart(b)
        tflite.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, 127) if deprecated is None else deprecated)
        tflite.OperatorCodeAddBuiltinCode(b, code)
        tflite.OperatorCodeAddVersion(b, version)
        if custom_str is not None:
            tflite.OperatorCodeAddCustomCode(b, custom_str)
        return tflite.OperatorCodeEnd(b)

    @staticmethod
    def _op(b, o, code_index):
        options = None
        if o["options"]:
            name = o["options"]
            vectors = {k: _vector(b, getattr(tflite, f"{name}Start{k}Vector"), v, "int32")
                       for k, v in o["fields"].items() if isinstance(v, (list, tuple))}
            getattr(tflite, f"{name}Start")(b)
            for k, v in o["fields"].items():
                value = vectors.get(k, v)
                if k == "Padding" and isinstance(v, str):
                    value = PADDING[v]
                if k == "FusedActivationFunction" and isinstance(v, str):
                    value = ACT[v]
                getattr(tflite, f"{name}Add{k}")(b, value)
            options = getattr(tflite, f"{name}End")(b)
        ins = _vector(b, tflite.OperatorStartInputsVector, o["inputs"], "int32")
        outs = _vector(b, tflite.OperatorStartOutputsVector, o["outputs"], "int32")
        custom = (_vector(b, tflite.OperatorStartCustomOptionsVector, o["custom_options"], "uint8")
                  if o.get("custom_options") else None)
        tflite.OperatorStart(b)
        if custom is not None:
            tflite.OperatorAddCustomOptions(b, custom)
        tflite.OperatorAddOpcodeIndex(b, code_index)
        tflite.OperatorAddInputs(b, ins)
        tflite.OperatorAddOutputs(b, outs)
        if o["options_type"] is not None:
            tflite.OperatorAddBuiltinOptionsType(b, o["options_type"])
        elif options is not None:
            tflite.OperatorAddBuiltinOptionsType(b, getattr(tflite.BuiltinOptions, o["options"]))
        if options is not None:
            tflite.OperatorAddBuiltinOptions(b, options)
        return tflite.OperatorEnd(b)

    def _subgraph(self, b, tensor_offsets, op_offsets):
        t_vec = _vector(b, tflite.SubGraphStartTensorsVector, tensor_offsets, "uoffset")
        o_vec = _vector(b, tflite.SubGraphStartOperatorsVector, op_offsets, "uoffset")
        in_vec = _vector(b, tflite.SubGraphStartInputsVector, self.inputs if op_offsets else [], "int32")
        out_vec = _vector(b, tflite.SubGraphStartOutputsVector, self.outputs if op_offsets else [], "int32")
        tflite.SubGraphStart(b)
        tflite.SubGraphAddTensors(b, t_vec)
        tflite.SubGraphAddOperators(b, o_vec)
        tflite.SubGraphAddInputs(b, in_vec)
        tflite.SubGraphAddOutputs(b, out_vec)
        return tflite.SubGraphEnd(b)
