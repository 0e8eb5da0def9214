"""State kept across invocations becomes Graph.variables: resource variables and variable tensors.

A kernel's own state (OpDef.own_state: TFLM's spectral subtraction keeps its noise estimate in a
persistent buffer, no tensor) becomes a Variable too, Facts.state[OWN_STATE].

Variable tensors (is_variable: SVDF's activation state, LSTM's output and cell state) are inputs
the op's kernel updates in place (OpDef.state_inputs). TFLM gives each its own persistent buffer
and fills it, at boot and on reset, with its zero point as a byte when it is int8, else with zeros
(MicroInterpreterGraph::ResetTensorData; a buffer in the file is ignored). Each becomes a Variable
with that value; the op names it in Facts.state (input position -> variable), and the tensor
loses any data, so that no pass mistakes it for a constant. A variable tensor an op reads anywhere
else stays, and check_support refuses it.

Resource variables (streaming state, e.g. microWakeWord's), as TFLM's MicroResourceVariables keeps them:

Prepare runs over every subgraph in order. Each VAR_HANDLE gets a resource id: the first variable
with its shared_name and container (a handle without a container matches any), else a new one.
The first ASSIGN_VARIABLE of an id allocates its buffer: that value's bytes, each the int8 zero
point of its quantization. Every later READ_VARIABLE or ASSIGN_VARIABLE copies that many bytes,
raw, whatever the tensors' types (TFLM only DCHECKs the count: a file whose counts disagree is
refused, and so is a read of a variable nothing allocates, a CALL_ONCE naming no other subgraph,
a handle without a shared_name; one line each). The CALL_ONCE op runs an initialisation subgraph
on the first invoke. That subgraph assigns constants, so it is run here, at build time: each
Variable's `initial` value is what a freshly booted target holds after it, and what `reset`
restores. VAR_HANDLE and CALL_ONCE leave the graph; READ_VARIABLE keeps only its output and
ASSIGN_VARIABLE only its value, each naming its variable in Facts.variable.

A graph that uses them otherwise (an initialisation that computes, a handle from elsewhere, a
read before CALL_ONCE) is left as it is, and check_support names what it can't run.
"""
from __future__ import annotations

import dataclasses
import math
from typing import NoReturn

import numpy as np

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph, Op, Variable
from mcugen.ir.options import CallOnceOptions, Options, VarHandleOptions

FIX = "the file is corrupt or was not written by the TFLite converter; re-export it"


BYTES = ("int8", "uint8", "int16", "int32", "float32")  # the variables' types a buffer of bytes can hold here


def resolve_variables(g: Graph) -> Graph:
    return _variable_tensors(_resource_variables(g))


def _variable_tensors(g: Graph) -> Graph:
    number: dict[int, int] = {}
    variables = list(g.variables)
    new_ops = []
    for op in g.ops:
        opdef = ops.definition(g, op)
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
        own = _own_state(g, op, opdef)
        if own is not None:
            state[ops.OWN_STATE] = len(variables)
            variables.append(Variable(f"{op.opcode.removeprefix('CUSTOM:')}_{op.origin}_state", own))
        new_ops.append(dataclasses.replace(op, facts=dataclasses.replace(op.facts, state=state)) if state else op)
    if len(variables) == len(g.variables):
        return g
    tensors = tuple(dataclasses.replace(t, data=None) if t.index in number else t for t in g.tensors)
    return dataclasses.replace(g.replace_ops(new_ops), tensors=tensors, variables=tuple(variables))


def _own_state(g: Graph, op: Op, opdef: ops.OpDef | None) -> np.ndarray | None:
    try:
        return opdef.own_state(g, op) if opdef else None
    except ValueError:  # options check_support refuses
        return None


RESOURCE_OPS = ("VAR_HANDLE", "CALL_ONCE", "READ_VARIABLE", "ASSIGN_VARIABLE")


def _resource_variables(g: Graph) -> Graph:
    if not any(op.opcode in RESOURCE_OPS for sub in (g, *g.subgraphs) for op in sub.ops):
        return g
    graphs, main = g.file_subgraphs(), g.subgraph_index
    ids = _resource_ids(g, graphs)
    values = _allocate(g, graphs, ids)
    calls = [op for op in g.ops if op.opcode == "CALL_ONCE"]
    for op in calls:
        if op.inputs or op.outputs:
            _refuse(g, op, "a CALL_ONCE takes no input and makes no output")
        index = op.options_as(CallOnceOptions).init_subgraph_index
        if not 0 <= index < len(graphs) or index == main:  # itself for ever; a negative one reads past TFLM's table
            _refuse(g, op, f"init_subgraph_index {index} names no other subgraph (the file has {len(graphs)})")
    uses = [op for op in g.ops if op.opcode in ("READ_VARIABLE", "ASSIGN_VARIABLE")]
    if any((main, op.inputs[0]) not in ids for op in uses) or len(calls) > 1 \
            or (calls and uses and uses[0].index < calls[0].index):
        return g  # a handle from elsewhere, several initialisations, a read before it: check_support names it
    rest = g.subgraphs
    if calls:
        index = calls[0].options_as(CallOnceOptions).init_subgraph_index
        if not _run_init(g, graphs[index], index, ids, values):
            return g
        at = index - (index > main)  # its place among the other subgraphs
        rest = g.subgraphs[:at] + g.subgraphs[at + 1:]
    for op in uses:
        if op.opcode == "READ_VARIABLE" and ids[(main, op.inputs[0])] not in values:
            _refuse(g, op, "reads a resource variable that no ASSIGN_VARIABLE gives a buffer (TFLM reads a null one)")
    if any(op.opcode in RESOURCE_OPS for sub in rest for op in sub.ops):
        return g
    number = {k: n for n, k in enumerate(sorted({ids[(main, op.inputs[0])] for op in uses}))}
    variables = tuple(Variable(_name(g, ids, k), values[k]) for k in number)
    ops = []
    for op in g.ops:
        if op.opcode in ("VAR_HANDLE", "CALL_ONCE"):
            continue
        if op.opcode in ("READ_VARIABLE", "ASSIGN_VARIABLE"):
            op = dataclasses.replace(op, inputs=op.inputs[1:], options=Options(),
                                     facts=dataclasses.replace(op.facts, variable=number[ids[(main, op.inputs[0])]]))
        ops.append(op)
    return dataclasses.replace(g.renumber(ops), variables=variables, subgraphs=rest)


Handle = tuple[int, int]  # (subgraph, tensor) of a VAR_HANDLE's output


def _refuse(g: Graph, op: Op, problem: str, sub: int | None = None) -> NoReturn:
    where = f"subgraph {sub}: " if sub is not None and sub != g.subgraph_index else ""
    raise McugenError(f"{g.name}: invalid model: {where}{op.opcode} at index {op.origin}: {problem}", FIX)


def _resource_ids(g: Graph, graphs: tuple[Graph, ...]) -> dict[Handle, int]:
    """Each VAR_HANDLE's resource id as TFLM's Prepare hands them out, subgraph after subgraph:
    the first variable whose shared_name matches and whose container matches (a handle without a
    container matches any), else a new one."""
    made: list[tuple[bytes | None, bytes]] = []
    ids: dict[Handle, int] = {}
    for s, sub in enumerate(graphs):
        for op in sub.ops:
            if op.opcode != "VAR_HANDLE":
                continue
            container, name = op.options_as(VarHandleOptions).container, op.options_as(VarHandleOptions).shared_name
            if name is None or len(op.outputs) != 1 or op.inputs:
                _refuse(g, op, "no shared_name" if name is None else "a VAR_HANDLE takes no input and makes one",
                        s)
            if container is not None and any(c is None for c, _ in made):
                # TFLM compares this container with a null one (strcmp on a null pointer)
                _refuse(g, op, "a container where an earlier handle has none", s)
            found = [k for k, (c, n) in enumerate(made) if n == name and (container is None or c == container)]
            if not found and any(n == name for _, n in made):
                # TFLM's own runtimes count variables by shared_name and run out of them here
                _refuse(g, op, f"shared_name {name!r} names two variables in different containers", s)
            if not found:
                made.append((container, name))
            ids[(s, op.outputs[0])] = found[0] if found else len(made) - 1
    return ids


def _allocate(g: Graph, graphs: tuple[Graph, ...], ids: dict[Handle, int]) -> dict[int, np.ndarray]:
    """The buffer TFLM allocates for a variable when the first ASSIGN_VARIABLE (in Prepare's order)
    names it: that tensor's bytes, each the int8 zero point of its quantization (0 without one).
    Every later assignment and every read copies exactly that many bytes; TFLM only DCHECKs it, so a
    file that says otherwise is refused."""
    values: dict[int, np.ndarray] = {}
    for s, sub in enumerate(graphs):
        for op in sub.ops:
            if op.opcode not in ("READ_VARIABLE", "ASSIGN_VARIABLE"):
                continue
            reading = op.opcode == "READ_VARIABLE"
            if len(op.inputs) != 2 - reading or len(op.outputs) != reading or min(op.inputs) < 0:
                _refuse(g, op, "READ_VARIABLE takes a handle and makes a value; ASSIGN_VARIABLE takes a handle "
                        "and a value", s)
            handle = sub.tensors[op.inputs[0]]
            if handle.dtype not in ("resource", "int32") or math.prod(handle.shape) != 1:
                _refuse(g, op, f"input 0 '{handle.name}' is {handle.dtype} {list(handle.shape)}, not a resource handle",
                        s)
            t = sub.tensors[op.outputs[0] if reading else op.inputs[1]]
            if t.dtype not in BYTES or any(d < 1 for d in t.shape):
                _refuse(g, op, f"value '{t.name}' is {t.dtype} {list(t.shape)}: mcugen keeps variables of "
                        f"{', '.join(BYTES)} with static shapes", s)
            key = ids.get((s, op.inputs[0]))
            if key is None:
                continue  # a handle from elsewhere: _resource_variables leaves it to check_support
            if key not in values and not reading:
                fill = (t.quant.zp if t.quant is not None else 0) & 0xFF
                values[key] = np.full(t.nbytes, fill, np.uint8).view(t.dtype).reshape(t.shape)
            elif key in values and values[key].nbytes != t.nbytes:
                _refuse(g, op, f"'{t.name}' has {t.nbytes} bytes, its resource variable {values[key].nbytes}", s)
    return values


def _name(g: Graph, ids: dict[Handle, int], key: int) -> str:
    handle = next(op for op in g.ops if op.opcode == "VAR_HANDLE" and ids[(g.subgraph_index, op.outputs[0])] == key)
    return bytes(handle.options_as(VarHandleOptions).shared_name or b"").decode("utf-8", "replace")


def _run_init(g: Graph, sub: Graph, index: int, ids: dict[Handle, int], values: dict[int, np.ndarray]) -> bool:
    """Run an initialisation subgraph of VAR_HANDLEs and ASSIGN_VARIABLEs of constants into
    `values` (raw bytes, in the buffer's own type and shape); False if it does anything else."""
    for op in sub.ops:
        if op.opcode == "VAR_HANDLE":
            continue
        if op.opcode != "ASSIGN_VARIABLE" or (index, op.inputs[0]) not in ids \
                or not sub.tensors[op.inputs[1]].is_const:
            return False
        data = np.ascontiguousarray(sub.tensors[op.inputs[1]].data)
        key = ids[(index, op.inputs[0])]
        values[key] = np.frombuffer(data.tobytes(), values[key].dtype).reshape(values[key].shape).copy()
    return True
