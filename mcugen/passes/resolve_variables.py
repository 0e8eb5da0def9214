"""State kept across invocations becomes Graph.variables: resource variables and variable tensors.

Variable tensors (is_variable: SVDF's activation state, LSTM's output and cell state) are inputs
the op's kernel updates in place (OpDef.state_inputs). TFLM gives each its own persistent buffer
and fills it, at boot and on reset, with its zero point as a byte when it is int8, else with zeros
(MicroInterpreterGraph::ResetTensorData; a buffer in the file is ignored). Each becomes a Variable
with that value; the op names it in attrs["state"] (input position -> variable), and the tensor
loses any data, so that no pass mistakes it for a constant. A variable tensor an op reads anywhere
else stays, and check_support refuses it.

Resource variables (streaming state, e.g. microWakeWord's):

TFLM keys a resource variable by VAR_HANDLE's (container, shared_name); READ_VARIABLE copies its
bytes into a tensor and ASSIGN_VARIABLE copies a tensor's bytes into it, raw, whatever the two
tensors' quantization. Its buffer starts filled with the zero point (as a byte) of the first
tensor assigned to it, in the order TFLM prepares ops (the main subgraph first); the CALL_ONCE op
then runs an initialisation subgraph on the first invoke. That subgraph assigns constants, so it
is run here, at build time: each Variable's `initial` value is what a freshly booted target holds
after it, and what `reset` restores. VAR_HANDLE and CALL_ONCE leave the graph; READ_VARIABLE
keeps only its output and ASSIGN_VARIABLE only its value, each naming its variable in
attrs["variable"].

A graph that uses them otherwise (an initialisation that computes, a handle from elsewhere, a
read before CALL_ONCE) is left as it is, and check_support names what it can't run.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from mcugen import ops
from mcugen.ir import Graph, Op, Variable


BYTES = ("int8", "uint8", "int16", "int32", "float32")  # the variables' types a buffer of bytes can hold here


def resolve_variables(g: Graph) -> Graph:
    return _variable_tensors(_resource_variables(g))


def _variable_tensors(g: Graph) -> Graph:
    number: dict[int, int] = {}
    variables = list(g.variables)
    new_ops = []
    for op in g.ops:
        opdef = ops.lookup(op.opcode)
        state = {}
        for k in opdef.state_inputs if opdef else ():
            t = op.optional_input(g, k)
            if t is None or not t.variable or t.dtype not in BYTES or any(d < 1 for d in t.shape):
                continue
            if t.index not in number:
                number[t.index] = len(variables)
                fill = (t.quant.zp if t.quant is not None and t.dtype == "int8" else 0) & 0xFF
                variables.append(Variable(t.name, np.full(t.nbytes, fill, np.uint8).view(t.dtype).reshape(t.shape)))
            state[k] = number[t.index]
        new_ops.append(dataclasses.replace(op, attrs={**op.attrs, "state": state}) if state else op)
    if not number:
        return g
    tensors = tuple(dataclasses.replace(t, data=None) if t.index in number else t for t in g.tensors)
    return dataclasses.replace(g.replace_ops(new_ops), tensors=tensors, variables=tuple(variables))


def _resource_variables(g: Graph) -> Graph:
    opcodes = [op.opcode for op in g.ops]
    if "VAR_HANDLE" not in opcodes and "CALL_ONCE" not in opcodes:
        return g
    handles = {op.outputs[0]: _key(op) for op in g.ops if op.opcode == "VAR_HANDLE" and op.outputs}
    uses = [op for op in g.ops if op.opcode in ("READ_VARIABLE", "ASSIGN_VARIABLE")]
    if any(not op.inputs or op.inputs[0] not in handles for op in uses):
        return g
    calls = [op for op in g.ops if op.opcode == "CALL_ONCE"]
    if len(calls) > 1 or (calls and uses and uses[0].index < calls[0].index):
        return g
    keys = list(dict.fromkeys(handles.values()))
    # the buffer each variable gets when its first ASSIGN_VARIABLE is prepared
    values: dict[Key, np.ndarray] = {}
    for op in uses:
        reading = op.opcode == "READ_VARIABLE"
        if len(op.inputs) != 2 - reading or len(op.outputs) != reading:
            return g
        t = g.tensors[op.outputs[0]] if reading else (g.tensors[op.inputs[1]] if op.inputs[1] >= 0 else None)
        if t is None or t.dtype not in BYTES or any(d < 1 for d in t.shape):
            return g
        key = handles[op.inputs[0]]
        if not reading and key not in values:
            fill = (t.quant.zp if t.quant is not None else 0) & 0xFF
            values[key] = np.full(t.nbytes, fill, np.uint8).view(t.dtype).reshape(t.shape)
    rest = g.subgraphs
    if calls:
        index = calls[0].attrs.get("init_subgraph_index", 0)
        if not 1 <= index <= len(g.subgraphs) or not _run_init(g.subgraphs[index - 1], values):
            return g
        rest = g.subgraphs[:index - 1] + g.subgraphs[index:]
    if set(keys) != set(values):
        return g  # a variable that is read but never assigned has no buffer in TFLM either
    variables = tuple(Variable(key[1].decode("utf-8", "replace"), values[key]) for key in keys)
    number = {key: k for k, key in enumerate(keys)}
    ops = []
    for op in g.ops:
        if op.opcode in ("VAR_HANDLE", "CALL_ONCE"):
            continue
        if op.opcode in ("READ_VARIABLE", "ASSIGN_VARIABLE"):
            variable = number[handles[op.inputs[0]]]
            if g.tensors[op.inputs[-1] if op.opcode == "ASSIGN_VARIABLE" else op.outputs[0]].nbytes \
                    != variables[variable].nbytes:
                return g
            op = dataclasses.replace(op, inputs=op.inputs[1:], attrs={"variable": variable})
        ops.append(op)
    return dataclasses.replace(g.renumber(ops), variables=variables, subgraphs=rest)


Key = tuple[bytes, bytes]  # a resource variable's container and shared name


def _key(op: Op) -> Key:
    return (bytes(op.attrs.get("container") or b""), bytes(op.attrs.get("shared_name") or b""))


def _run_init(sub: Graph, values: dict[Key, np.ndarray]) -> bool:
    """Run an initialisation subgraph of VAR_HANDLEs and ASSIGN_VARIABLEs of constants into
    `values`; False if it does anything else."""
    handles = {}
    for op in sub.ops:
        if op.opcode == "VAR_HANDLE" and op.outputs:
            handles[op.outputs[0]] = _key(op)
        elif op.opcode == "ASSIGN_VARIABLE" and len(op.inputs) == 2 and op.inputs[0] in handles \
                and 0 <= op.inputs[1] < len(sub.tensors) and sub.tensors[op.inputs[1]].is_const:
            data = np.ascontiguousarray(sub.tensors[op.inputs[1]].data)
            key = handles[op.inputs[0]]
            if key not in values:
                values[key] = data.copy()
            elif values[key].nbytes == data.nbytes:  # raw bytes, in the buffer's own type and shape
                values[key] = np.frombuffer(data.tobytes(), values[key].dtype).reshape(values[key].shape).copy()
            else:
                return False
        else:
            return False
    return True
