"""Refuse a file whose fields a kernel would trust and TFLM would refuse, crash on or misread.

For every op mcugen has a kernel for, and every tensor such an op (or the graph's ends) touches:

- counts: inputs (omitted optional ones included) and outputs within what TFLM's kernel takes
  (OpDef.arity), the first `minimum` inputs present;
- tensors: a type mcugen has values for (not INT4, STRING, ..., nor a number the schema does not
  define); every dimension >= 1 and at most MAX_ELEMENTS elements (a corrupt dimension must not
  allocate gigabytes; no microcontroller holds a tensor that big); no scale that is not a finite
  number, on any tensor (an int32 bias too: TFLM compares it, and NaN passes every comparison);
  quantized 8- and 16-bit tensors with scales in [MIN_SCALE, MAX_SCALE] (finite, positive, and
  far from float32's underflow and overflow, so that every product and ratio of two scales a
  kernel forms is a normal number), zero points within the type, per-channel vectors as long as
  the dimension `quantized_dimension` names;
- shapes: the declared output shapes equal what the op computes from its inputs, options and
  constant parameters (OpDef.output_shape, which raises ValueError naming a value that makes no
  sense: an axis out of range, a zero stride, paddings of the wrong count).

Ops without a kernel are left to check_support, which names them; their tensors are not judged.
Each refusal is one line naming the op (by its index in the file), the field and the value.
"""
from __future__ import annotations

import math

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph, Op, Tensor

MAX_ELEMENTS = 1 << 26  # 64 MiB of int8: past every board's flash and RAM by far
MIN_SCALE, MAX_SCALE = 2.0 ** -60, 2.0 ** 60
ZERO_POINT_RANGE = {"int4": (-8, 7), "int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767)}
# types that have numpy values (read_tflite reads their constants); resource handles are resolved
# into state before this pass (passes/resolve_variables.py)
VALUE_TYPES = {"float32", "float16", "float64", "int4", "int8", "uint8", "int16", "int32", "int64", "uint16",
               "uint32", "uint64", "bool", "resource"}
HANDLE_READERS = ("READ_VARIABLE", "ASSIGN_VARIABLE")  # the only kernels a resource tensor may reach
UNRUN_TYPE = "a type mcugen does not run"  # a valid schema type: the model needs converting, not mending
FIX = "the file is corrupt or was not written by the TFLite converter; re-export it"
TYPE_FIX = ("convert the model with int8 (or 16x8) full-integer quantization: mcugen runs int8, int16 and "
            "float32 layers (and INT4 filters), with uint8 or int32 at the model's ends")


def _tensor_problem(t: Tensor) -> str | None:
    if t.dtype.startswith("type"):  # read_tflite's name for a number the schema does not define
        return f"tensor '{t.name}' has type {t.dtype[4:]}, not a TensorType of the TFLite schema"
    if t.dtype not in VALUE_TYPES:
        return f"tensor '{t.name}' is {t.dtype.upper()}, {UNRUN_TYPE}"
    if t.dtype == "int4" and t.data is None:
        return f"tensor '{t.name}' is INT4, {UNRUN_TYPE} but as a constant filter (as TFLM)"
    if any(d == 0 or d < -1 for d in t.shape):
        return f"tensor '{t.name}' has shape {list(t.shape)}"
    if math.prod(max(d, 1) for d in t.shape) > MAX_ELEMENTS:
        return f"tensor '{t.name}' {list(t.shape)} has more than {MAX_ELEMENTS:,} elements (no board holds it)"
    q = t.quant
    if q is not None and not all(math.isfinite(s) for s in q.scale.tolist()):
        return f"tensor '{t.name}' has scale {[s for s in q.scale.tolist() if not math.isfinite(s)][0]:g}"
    if q is None or t.dtype not in ZERO_POINT_RANGE:
        return None
    bad = [float(s) for s in q.scale if not MIN_SCALE <= float(s) <= MAX_SCALE]
    if bad:
        return f"tensor '{t.name}' has scale {bad[0]:g} (a scale must be in [2^-60, 2^60])"
    low, high = ZERO_POINT_RANGE[t.dtype]
    wrong = [int(z) for z in q.zero_point if not low <= z <= high]
    if wrong:
        return f"tensor '{t.name}' has zero point {wrong[0]}, outside {t.dtype}'s [{low}, {high}]"
    if q.per_channel:
        rank = len(t.shape)
        if not 0 <= q.axis < rank or t.shape[q.axis] != q.scale.size:
            return (f"tensor '{t.name}' {list(t.shape)} has {q.scale.size} per-channel scales on "
                    f"quantized_dimension {q.axis}")
    return None


def _holds_bytes(t: Tensor) -> bool:
    """What TFLM's TfLiteEvalTensorByteLength says is not 0 (a type without a size fails it too)."""
    return t.dtype not in VALUE_TYPES or t.dtype == "resource" or math.prod(t.shape) != 0


def _fix(problem: str) -> str:
    return TYPE_FIX if UNRUN_TYPE in problem else FIX


def _op_problem(g: Graph, op: Op, opdef: ops.OpDef) -> str | None:
    if op.options_problem and op.opcode not in opdef.options_unread:
        return op.options_problem
    (in_low, in_high), (out_low, out_high) = opdef.counts(op.opcode)
    if not in_low <= len(op.inputs) <= in_high:
        return f"{len(op.inputs)} inputs, TFLM's kernel takes {in_low}" + (
            f" to {in_high}" if in_high != in_low else "")
    if not out_low <= len(op.outputs) <= out_high:
        return f"{len(op.outputs)} outputs, TFLM's kernel makes {out_low}" + (
            f" to {out_high}" if out_high != out_low else "")
    required = len(op.inputs) if opdef.variadic else in_low
    omitted = [k for k in range(required) if op.inputs[k] < 0 and k not in opdef.optional_inputs]
    if omitted:  # only inputs past the minimum count are optional, and those the op lists
        return f"input {omitted[0]} is omitted, TFLM's kernel needs it"
    tensors = [op.optional_input(g, i) for i in range(len(op.inputs))] + [op.output(g, i) for i in range(len(op.outputs))]
    for k, t in enumerate(tensors):
        if t is not None and t.dtype == "resource" and not (k == 0 and op.opcode in HANDLE_READERS):
            return f"tensor '{t.name}' is a resource handle, which {op.opcode} does not take"
        problem = t is not None and _tensor_problem(t)
        if problem:
            return problem
    if any(t.dynamic for t in [op.optional_input(g, i) for i in range(len(op.inputs))] if t is not None):
        return None  # check_support names dynamic shapes
    try:
        expected = opdef.output_shape(g, op)
    except ValueError as exc:
        return str(exc)
    if expected is None:
        return None
    for k, shape in enumerate(expected if isinstance(expected, list) else [expected]):
        declared = tuple(op.output(g, k).shape)
        if tuple(shape) != declared:
            which = f"output {k}" if len(op.outputs) > 1 else "output"
            return f"declared {which} shape {list(declared)}, the op computes {list(shape)}"
    return None


def validate_model(g: Graph) -> Graph:
    for ends, what in ((g.inputs, "inputs"), (g.outputs, "outputs")):
        if not ends:
            raise McugenError(f"{g.name}: invalid model: the graph declares no {what}", FIX)
    for idx in (*g.inputs, *g.outputs):
        problem = (_tensor_problem(g.tensors[idx]) if g.tensors[idx].dtype != "resource"
                   else f"tensor '{g.tensors[idx].name}' is a resource handle, not data")
        if problem:
            raise McugenError(f"{g.name}: invalid model: {problem}", _fix(problem))
    for ends, what in ((g.inputs, "input"), (g.outputs, "output")):
        constant = [g.tensors[t].name for t in ends if g.tensors[t].is_const]
        if constant:  # an input the file fills in itself; an output no op computes
            raise McugenError(f"{g.name}: invalid model: {what} '{constant[0]}' is a constant tensor", FIX)
    for op in g.ops:
        sized = [t for t in op.intermediates if not 0 <= t < len(g.tensors) or _holds_bytes(g.tensors[t])]
        if sized:  # TFLM's allocator refuses the model ("intermediate tensor with non-zero size")
            what = (f"'{g.tensors[sized[0]].name}' {list(g.tensors[sized[0]].shape)} holds bytes"
                    if 0 <= sized[0] < len(g.tensors) else f"{sized[0]} is no tensor")
            raise McugenError(f"{g.name}: invalid model: {op.opcode} at index {op.origin}: intermediate tensor {what}, "
                              "where TFLM allows intermediate tensors none", FIX)
        opdef = ops.definition(g, op)
        if opdef is None or opdef.declared_by_user:
            continue
        problem = _op_problem(g, op, opdef)
        if problem:
            raise McugenError(f"{g.name}: invalid model: {op.opcode} at index {op.origin}: {problem}",
                              _fix(problem))
    return g
