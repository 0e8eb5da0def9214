"""What `mcugen inspect` reports: I/O, ops with their precision, MACs, weight and output bytes, and a verdict."""
from __future__ import annotations

import shlex

from typing import Any

from mcugen import ops
from mcugen.validation.golden import describe
from mcugen.ir.graph import Graph, Tensor
from mcugen.passes.check_support import diagnose
from mcugen.passes.compute_fp16 import computes_in_fp16


def _io(t: Tensor) -> dict:
    return dict(name=t.name, shape=list(t.shape), dtype=t.dtype,
                scale=t.quant.s if t.quant else None, zero_point=t.quant.zp if t.quant else None)


def partition(g: Graph, by_op: dict[int, list[str]], macs: list[int]) -> dict:
    """The Edge TPU compiler's report, for a microcontroller: the ops that run before the first
    one mcugen can't, that blocker and every later one, and the tensors to cut the model at
    (`--outputs`) to build the part that runs."""
    first = min(by_op)
    blocker = g.ops[first]
    before = {t for op in g.ops[:first] for t in op.outputs} | set(g.inputs)
    cut = [g.tensors[t].name for t in blocker.inputs if t in before]
    return dict(runs=first, runs_macs=sum(macs[:first]),
                first_blocker=dict(index=blocker.origin, op=blocker.opcode, problems=by_op[first]),
                later_blockers=[dict(index=g.ops[k].origin, op=g.ops[k].opcode) for k in sorted(by_op)[1:]],
                cut_at=cut if first else [])


def precision(g: Graph, op) -> str:
    """The layer's arithmetic: its activations' type (int8, int16, float32; `a->b` where QUANTIZE
    and its kind change it), `16x8` for int16 activations with int8 weights, `w4a8` for int8 ones
    with INT4 weights, `float16` for float32 ones with weights the file holds as float16 (`fp16` where a precision
    plan marked the layer to be computed in fp16 on cores with half-precision arithmetic, or where it is),
    `dynamic` for float32 ones with int8 weights (quantized inputs at run time)."""
    data = [g.tensors[t] for t in op.inputs if t >= 0 and not g.tensors[t].is_const]
    x = data[0].dtype if data else None
    y = op.output(g).dtype if op.outputs else None
    weights = {g.tensors[t].stored or g.tensors[t].dtype for t in op.inputs[1:2] if t >= 0 and g.tensors[t].is_const}
    if x == y == "int16" and "int8" in weights:
        return "16x8"
    if x == y == "int8" and "int4" in weights:
        return "w4a8"
    if x == y == "float16" or (x == y == "float32" and computes_in_fp16(g, op)):
        return "fp16"
    if x == y == "float32" and weights & {"float16", "int8"}:
        return "float16" if "float16" in weights else "dynamic"
    if x is None or y is None or x == y:
        return x or y or "-"
    return f"{x}->{y}"


def summarize(g: Graph) -> dict:
    model_problems, by_op = diagnose(g)
    problems = model_problems + [p for k in sorted(by_op) for p in by_op[k]]
    rows: list[dict[str, Any]] = []
    for op in g.ops:
        opdef = ops.definition(g, op)
        try:
            macs = opdef.macs(g, op) if opdef else 0
        except (IndexError, AttributeError, TypeError):  # malformed op: reported as a problem
            macs = 0
        weights = sum(g.tensors[i].file_bytes for i in op.inputs if i >= 0 and g.tensors[i].is_const)
        out = op.output(g) if op.outputs else None
        rows.append(dict(index=op.origin, op=op.opcode, version=op.version, precision=precision(g, op),
                         output_shape=list(out.shape) if out else [], macs=macs, weight_bytes=weights,
                         output_bytes=sum(g.tensors[t].nbytes for t in op.outputs)))
    return dict(model=g.name, sha256=g.sha256, signatures=list(g.signatures),
                signature=g.signature or (g.signatures[0] if g.signatures else None),
                inputs=[_io(g.tensors[i]) for i in g.inputs],
                outputs=[_io(g.tensors[i]) for i in g.outputs],
                ops=rows,
                totals=dict(ops=len(g.ops), tensors=len(g.tensors),
                            macs=sum(r["macs"] for r in rows),
                            weight_bytes=g.weight_bytes),
                supported=not problems, problems=problems,
                partition=partition(g, by_op, [r["macs"] for r in rows]) if by_op and not model_problems else None)


def format_text(s: dict, path: str) -> str:
    def io_line(k, t):
        q = f"scale {t['scale']:.6g}  zero point {t['zero_point']}" if t["scale"] is not None else "not quantized"
        return f"  {k}  {t['name']}  {describe(t['dtype'], t['shape'])}  {q}"

    lines = [f"model    {s['model']}  (sha256 {s['sha256'][:16]}…)"]
    if s["signatures"]:
        lines.append(f"signature  {s['signature']}  (the file's: {', '.join(s['signatures'])})")
    lines.append("inputs")
    lines += [io_line(k, t) for k, t in enumerate(s["inputs"])]
    lines += ["outputs"] + [io_line(k, t) for k, t in enumerate(s["outputs"])]
    lines += ["ops", f"  {'idx':>4}  {'op':<24} {'precision':<14} {'output shape':<20} {'MACs':>12} "
                     f"{'weight B':>10} {'output B':>10}"]
    for r in s["ops"]:
        shape = "[" + ", ".join(map(str, r["output_shape"])) + "]"
        lines.append(f"  {r['index']:>4}  {r['op']:<24} {r['precision']:<14} {shape:<20} {r['macs']:>12,} "
                     f"{r['weight_bytes']:>10,} {r['output_bytes']:>10,}")
    t = s["totals"]
    lines.append(f"totals   {t['ops']} ops, {t['tensors']} tensors, {t['macs']:,} MACs, "
                 f"{t['weight_bytes']:,} weight bytes")
    if s["supported"]:
        lines.append("verdict  supported")
        lines.append(f"oracle   {s['oracle']}")
    else:
        lines.append(f"verdict  not supported ({len(s['problems'])} problem(s)):")
        lines += [f"  - {p}" for p in s["problems"]]
    part = s["partition"]
    if part:
        first = part["first_blocker"]
        lines.append(f"partition  the first {part['runs']} op(s) run ({part['runs_macs']:,} MACs); "
                     f"the first blocker is op {first['index']} {first['op']}")
        if part["later_blockers"]:
            lines.append("           later blockers: " + ", ".join(f"op {b['index']} {b['op']}"
                                                            for b in part["later_blockers"]))
        if part["cut_at"]:
            command = ["mcugen", "build", str(path), "--outputs", ",".join(part["cut_at"]), "--board", "BOARD"]
            lines.append(f"           to build the part that runs: {shlex.join(command)}")  # pastes as it is
    return "\n".join(lines)
