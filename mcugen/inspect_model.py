"""What `mcugen inspect` reports: I/O, ops with MACs and weight bytes, and a verdict."""
from __future__ import annotations

from mcugen import ops
from mcugen.golden import describe
from mcugen.ir import Graph, Tensor
from mcugen.passes.check_support import find_problems


def _io(t: Tensor) -> dict:
    return dict(name=t.name, shape=list(t.shape), dtype=t.dtype,
                scale=t.quant.s if t.quant else None, zero_point=t.quant.zp if t.quant else None)


def summarize(g: Graph) -> dict:
    problems = find_problems(g)
    rows = []
    for op in g.ops:
        opdef = ops.lookup(op.opcode)
        try:
            macs = opdef.macs(g, op) if opdef else 0
        except (IndexError, AttributeError, TypeError):  # malformed op: reported as a problem
            macs = 0
        weights = sum(g.tensors[i].nbytes for i in op.inputs if i >= 0 and g.tensors[i].is_const)
        out = op.output(g) if op.outputs else None
        rows.append(dict(index=op.origin, op=op.opcode, version=op.version,
                         output_shape=list(out.shape) if out else [], macs=macs, weight_bytes=weights))
    return dict(model=g.name, sha256=g.sha256,
                inputs=[_io(g.tensors[i]) for i in g.inputs],
                outputs=[_io(g.tensors[i]) for i in g.outputs],
                ops=rows,
                totals=dict(ops=len(g.ops), tensors=len(g.tensors),
                            macs=sum(r["macs"] for r in rows),
                            weight_bytes=sum(t.nbytes for t in g.tensors if t.is_const)),
                supported=not problems, problems=problems)


def format_text(s: dict) -> str:
    def io_line(k, t):
        q = f"scale {t['scale']:.6g}  zero point {t['zero_point']}" if t["scale"] is not None else "not quantized"
        return f"  {k}  {t['name']}  {describe(t['dtype'], t['shape'])}  {q}"

    lines = [f"model    {s['model']}  (sha256 {s['sha256'][:16]}…)", "inputs"]
    lines += [io_line(k, t) for k, t in enumerate(s["inputs"])]
    lines += ["outputs"] + [io_line(k, t) for k, t in enumerate(s["outputs"])]
    lines += ["ops", f"  {'idx':>4}  {'op':<24} {'output shape':<20} {'MACs':>12} {'weight B':>10}"]
    for r in s["ops"]:
        shape = "[" + ", ".join(map(str, r["output_shape"])) + "]"
        lines.append(f"  {r['index']:>4}  {r['op']:<24} {shape:<20} {r['macs']:>12,} {r['weight_bytes']:>10,}")
    t = s["totals"]
    lines.append(f"totals   {t['ops']} ops, {t['tensors']} tensors, {t['macs']:,} MACs, "
                 f"{t['weight_bytes']:,} weight bytes")
    if s["supported"]:
        lines.append("verdict  supported")
    else:
        lines.append(f"verdict  not supported ({len(s['problems'])} problem(s)):")
        lines += [f"  - {p}" for p in s["problems"]]
    return "\n".join(lines)
