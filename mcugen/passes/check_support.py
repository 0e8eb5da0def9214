"""Refuse what mcugen cannot run exactly like TFLM, naming every reason.

mcugen runs int8 and 16x8 layers (int8 or int16 activations, int8 weights, int32 or int64 biases) and
float32 layers of the ops with a float kernel (mcugen/ops/float_*.py), static shapes, one subgraph,
builtin ops that have a kernel here (see mcugen/ops/). Each OpDef lists the activation dtypes its
kernel takes and makes (QUANTIZE from float32 or uint8, DEQUANTIZE to float32, ARG_MAX to int32, ...).
"""
from __future__ import annotations

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph, Op

FLOAT_FIX = ("quantize those layers (TFLiteConverter with optimizations=[tf.lite.Optimize.DEFAULT], a "
             "representative_dataset and target_spec.supported_ops=[tf.lite.OpsSet.TFLITE_BUILTINS_INT8]); "
             "mcugen's float32 kernels: {}")
LEGACY_FIX = ("re-convert the model with full-integer int8 quantization (TFLiteConverter with a "
              "representative_dataset)")
QUANTIZED = ("int8", "uint8", "int16")  # types that are always quantized where a kernel reads them
STATE = "mcugen keeps variable tensors only where TFLM's kernel updates them (SVDF, LSTM state inputs)"


def _legacy_uint8(g: Graph) -> str | None:
    """TFLite's old quantization (uint8 weights): TFLM refuses it ("Hybrid models are not supported")."""
    for op in g.ops:
        if op.opcode.startswith("CUSTOM:"):  # a custom op's byte blobs are its own business
            continue
        for t in op.inputs:
            if t >= 0 and g.tensors[t].is_const and g.tensors[t].dtype == "uint8":
                return (f"legacy uint8-quantized model ({op.opcode} at index {op.origin} has uint8 weights "
                        f"'{g.tensors[t].name}'); TFLM refuses such models and so does mcugen")
    return None


def _tensor_problems(g: Graph, op: Op, opdef: ops.OpDef, seen: set[object], bad: set[int]) -> list[str]:
    """The op's tensors that its kernel can't take; each tensor named once (its index then joins
    `bad`, and no later op that touches it is prepared: its problem is already said)."""
    problems = []
    parameters = opdef.parameter_types(op.opcode)
    for k, idx in enumerate(op.inputs):
        t = g.tensors[idx] if idx >= 0 else None
        if k in parameters and t is not None and t.dtype not in parameters[k]:
            problems.append(f"input {k} '{t.name}' is {t.dtype}; TFLM's kernel reads {' or '.join(parameters[k])} there")
        elif k in parameters and t is not None and t.dtype in QUANTIZED and t.quant is None \
                and not opdef.copies_values:
            problems.append(f"input {k} '{t.name}' is {t.dtype} without quantization parameters; TFLM's kernel "
                            "reads its scale")
    roles = ([(t, opdef.input_types) for k, t in enumerate(op.inputs) if k not in parameters]
             + [(t, opdef.output_types) for t in op.outputs])
    types = {g.tensors[t].dtype for t, _ in roles if t >= 0}
    if not opdef.converts and len(types) > 1:
        return [f"its inputs and outputs mix {' and '.join(sorted(types))}; TFLM's kernel takes one type for all"]
    for idx, allowed in roles:
        t = g.tensors[idx] if idx >= 0 else None
        # a tensor's type is judged once per set of types a kernel takes; its missing quantization by every
        # op that reads it
        key = (idx, allowed) if t is None or t.quant is not None or opdef.copies_values else ("reads scale", idx)
        if t is None or key in seen:
            continue
        seen.add(key)
        said = len(problems)
        if t.dtype == "int16" and "int16" not in allowed:
            problems.append(f"tensor '{t.name}' is int16: an int16 {op.opcode} is not supported "
                            f"({' or '.join(allowed)} only)")
        elif t.dtype.startswith("float") and t.dtype not in allowed:
            problems.append(f"tensor '{t.name}' is {t.dtype}: mcugen has no {t.dtype} {op.opcode} kernel (a float "
                            "layer)")
        elif t.dtype not in allowed:
            problems.append(f"tensor '{t.name}' is {t.dtype}; this op runs on {' or '.join(allowed)}")
        elif t.dtype in QUANTIZED and t.quant is None and not (opdef.copies_values or opdef.unquantized_as_zero):
            problems.append(f"{t.dtype} tensor '{t.name}' has no quantization parameters")
        elif t.quant is not None and t.quant.per_channel:
            problems.append(f"activation '{t.name}' is quantized per channel")
        if len(problems) > said:
            bad.add(idx)
    return problems


def _prepare_problems(g: Graph, op: Op, opdef: ops.OpDef) -> list[str]:
    """What TFLM's Prepare would compute and mcugen can't represent (a rescale beyond int32)."""
    try:
        opdef.prepare(g, op)
    except McugenError as exc:
        return [exc.problem]
    return []


def diagnose(g: Graph) -> tuple[list[str], dict[int, list[str]]]:
    """Why the model can't run: problems of the whole model, and each op's (keyed by position),
    every message naming the op by its index in the model file. Both empty means supported."""
    model: list[str] = []
    by_op: dict[int, list[str]] = {}
    if any(sub.ops for sub in g.subgraphs):  # other signatures' subgraphs are empty stand-ins
        model.append(f"model has {g.subgraph_count} subgraphs: mcugen runs one, plus a CALL_ONCE "
                     "initialisation of resource variables (WHILE, IF and other subgraph uses are not supported)")
    legacy = _legacy_uint8(g)
    if legacy:
        return model + [legacy], by_op
    dynamic = [t for t in g.tensors if t.dynamic]
    if dynamic:
        model.append(f"dynamic shapes: {len(dynamic)} tensor(s) with unknown dimensions, "
                     f"e.g. '{dynamic[0].name}' {list(dynamic[0].shape)} (re-export with fixed shapes)")
    seen: set[object] = set()
    bad: set[int] = set()
    written = set(g.inputs)
    for op in g.ops:
        where = f"{op.opcode} at index {op.origin}"
        problems = []
        kept = op.facts.state
        state = [g.tensors[t].name for k, t in enumerate(op.inputs)
                 if t >= 0 and g.tensors[t].variable and k not in kept]
        if state:
            problems.append(f"{where}: keeps state in variable tensor '{state[0]}'; {STATE}")
        opdef = ops.definition(g, op)
        if op.opcode.startswith("CUSTOM:") and opdef is None:
            problems.append(f"unsupported op {op.opcode} (custom op: only a runtime that registers it "
                            f"can run it; bring its kernel with --ops FILE.py) at index {op.origin}")
        elif opdef is None:
            problems.append(f"unsupported op {op.opcode} at index {op.origin}")
        elif not op.outputs and opdef.counts(op.opcode)[1][0] > 0:
            problems.append(f"{where}: has no output")
        else:
            unwritten = [g.tensors[t].name for t in op.inputs
                         if t >= 0 and not g.tensors[t].is_const and t not in written
                         and not g.tensors[t].variable]
            own = [f"reads tensor '{unwritten[0]}' that no earlier op writes"] if unwritten else []
            own = own or _tensor_problems(g, op, opdef, seen, bad)
            if not own and not bad.intersection(op.inputs + op.outputs):
                own = opdef.check(g, op) or _prepare_problems(g, op, opdef)
            problems.extend(f"{where}: {p}" for p in own)
        if problems:
            by_op[op.index] = problems
        written.update(op.outputs)
    for t in g.outputs:
        if t not in written and not g.tensors[t].is_const:
            model.append(f"output '{g.tensors[t].name}' is never written")
    return model, by_op


def find_problems(g: Graph) -> list[str]:
    """Every reason the model is unsupported, in model order; empty means supported."""
    model, by_op = diagnose(g)
    return model + [p for k in sorted(by_op) for p in by_op[k]]


def check_support(g: Graph) -> Graph:
    problems = find_problems(g)
    if problems:
        fix = (LEGACY_FIX if problems[-1].startswith("legacy") else
               FLOAT_FIX.format(", ".join(ops.float_opcodes())) if any("float" in p for p in problems) else
               "run `mcugen inspect MODEL` for the full list")
        raise McugenError(f"{g.name}: unsupported model: " + "; ".join(problems[:4])
                          + (f"; and {len(problems) - 4} more" if len(problems) > 4 else ""), fix)
    return g
