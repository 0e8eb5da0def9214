"""Refuse what mcugen cannot run exactly like TFLM, naming every reason.

Full-integer only: int8 activations, int8 weights, int32 biases, one subgraph,
static shapes, builtin ops that have a kernel here (see mcugen/ops/).
"""
from __future__ import annotations

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir import Graph

FLOAT_FIX = ("mcugen needs a full-integer int8 model: convert with TFLiteConverter using "
             "optimizations=[tf.lite.Optimize.DEFAULT], a representative_dataset, "
             "target_spec.supported_ops=[tf.lite.OpsSet.TFLITE_BUILTINS_INT8] and "
             "inference_input_type=inference_output_type=tf.int8")
CONST_TYPES = ("int8", "int32")


def find_problems(g: Graph) -> list[str]:
    """Every reason the model is unsupported, in model order; empty means supported."""
    problems = []
    if g.subgraph_count != 1:
        problems.append(f"model has {g.subgraph_count} subgraphs (control flow); "
                        "mcugen runs single-subgraph models")
    io = [("input", i) for i in g.inputs] + [("output", i) for i in g.outputs]
    for role, idx in io:
        t = g.tensors[idx]
        if t.dtype.startswith("float"):
            problems.append(f"{t.dtype} model ({role} '{t.name}' is {t.dtype})")
        elif t.dtype != "int8":
            problems.append(f"{role} '{t.name}' is {t.dtype}, not int8")
    dynamic = [t for t in g.tensors if t.dynamic]
    if dynamic:
        problems.append(f"dynamic shapes: {len(dynamic)} tensor(s) with unknown dimensions, "
                        f"e.g. '{dynamic[0].name}' {list(dynamic[0].shape)} "
                        "(re-export with fixed shapes)")
    seen = set()
    for op in g.ops:
        if op.opcode.startswith("CUSTOM:"):
            problems.append(f"unsupported op {op.opcode} (custom/flex op) at index {op.index}")
            continue
        opdef = ops.lookup(op.opcode)
        if opdef is None:
            problems.append(f"unsupported op {op.opcode} at index {op.index}")
            continue
        type_problems = []
        for idx in op.inputs + op.outputs:
            if idx < 0 or idx in seen:
                continue
            seen.add(idx)
            t = g.tensors[idx]
            if t.is_const:
                if t.dtype not in CONST_TYPES:
                    type_problems.append(f"constant '{t.name}' is {t.dtype}")
            elif t.dtype == "int16":
                type_problems.append(f"tensor '{t.name}' is int16 (16x8 activations are not supported)")
            elif t.dtype != "int8":
                type_problems.append(f"tensor '{t.name}' is {t.dtype}, not int8")
            elif t.quant is None:
                type_problems.append(f"int8 tensor '{t.name}' has no quantization parameters")
            elif t.quant.per_channel:
                type_problems.append(f"activation '{t.name}' is quantized per channel")
        if not type_problems:
            type_problems = opdef.check(g, op)
        problems.extend(f"{op.opcode} at index {op.index}: {p}" for p in type_problems)
    return problems


def check_support(g: Graph) -> Graph:
    problems = find_problems(g)
    if problems:
        fix = FLOAT_FIX if any("float" in p for p in problems) else \
            "run `mcugen inspect MODEL` for the full list"
        raise McugenError(f"{g.name}: unsupported model: " + "; ".join(problems[:4])
                          + (f"; and {len(problems) - 4} more" if len(problems) > 4 else ""), fix)
    return g
