"""The JSON reports of `mcugen build --json` and `mcugen test --json`, for CI and dashboards.

Their shape is fixed by JSON Schemas in mcugen/schemas/ (the tests validate every report against
them); SCHEMA_VERSION changes whenever a field changes meaning or goes away. Sizes are in bytes,
times in the unit the report names (`time_unit`) and in milliseconds at the board's clock.
"""
from __future__ import annotations

import statistics

from mcugen import __version__, ops
from mcugen.build import BuildResult
from mcugen.ir import Graph
from mcugen.lowering import layer_name

SCHEMA_VERSION = 1


def _header(kind: str, g: Graph, model: str, board: str) -> dict:
    return dict(schema=f"mcugen-{kind}-report", schema_version=SCHEMA_VERSION, mcugen_version=__version__,
                model=model, model_sha256=g.sha256, board=board)


def _layers(g: Graph) -> list[dict]:
    def kernel(op):
        call = g.ops[op.fused_into].call if op.fused_into is not None else op.call
        return call.kernel if call else None

    layers = [dict(index=k, op=op.opcode, name=layer_name(g, op), model_index=op.origin, kernel=kernel(op),
                   macs=ops.lookup(op.opcode).macs(g, op))
              for k, op in enumerate(g.ops)]
    for layer, op in zip(layers, g.ops):
        if op.fused_into is not None:
            layer["fused_into"] = op.fused_into
    if g.tuning is not None:  # what --tune measured, per kernel, on which board
        for k, measured in g.tuning.layers.items():
            layers[k]["tuned"] = dict(board=g.tuning.measured_on, unit=g.tuning.unit, time=measured.times)
    return layers


def build_report(g: Graph, model: str, board: str, r: BuildResult) -> dict:
    plan = g.arena.plan
    firmware = (dict(flash_bytes=r.image.flash, ram_bytes=r.image.ram, stack_bytes=r.stack_bytes)
                if r.image.flash else None)
    return dict(
        _header("build", g, model, board),
        arena_bytes=plan.size,
        constants_bytes=r.model.rodata, weights_bytes=sum(t.nbytes for t in g.tensors if t.is_const),
        code_bytes=dict(model=r.model.text, kernels=r.kernels.text, total=r.code_bytes),
        firmware=firmware,
        kernels=sorted({k for op in g.ops if op.call for k in (op.call.kernel, *op.call.extra_kernels)}),
        macs=sum(ops.lookup(op.opcode).macs(g, op) for op in g.ops),
        layers=_layers(g),
        arena=dict(strategy=plan.strategy,
                   buffers=[dict(name=b.name, offset=off, bytes=b.size, first_step=b.first, last_step=b.last)
                            for b, off in zip(plan.buffers, plan.offsets)]))


def _spread(values: list[float]) -> dict:
    return dict(min=min(values), median=statistics.median(values), max=max(values))


def test_report(g: Graph, model: str, board: str, results, sizes: dict, *, data: str | None, seed: int | None,
                accuracy: dict | None = None, metrics: list[dict] | None = None) -> dict:
    unit = results[0].unit
    times = [r.time for r in results]
    report = dict(
        _header("test", g, model, board),
        inputs=dict(data=data, seed=seed, samples=len(results)),
        passed=sum(r.passed for r in results), failed=sum(not r.passed for r in results),
        max_abs_diff=max((d.max_abs_diff for r in results for d in r.outputs), default=0),
        sizes=sizes,
        time_unit=unit.name,
        inference=dict(_spread(times), ms=_spread([t * unit.ms for t in times])),
        per_sample=[dict(index=r.index, passed=r.passed, time=r.time,
                         outputs=[dict(max_abs_diff=d.max_abs_diff, unit=d.unit, differing=d.differing,
                                       rmse=d.rmse, cosine=d.cosine) for d in r.outputs])
                    for r in results],
        layers=_layers(g) if g.tuning is not None else None, accuracy=accuracy, metrics=metrics or [])
    if results[0].layer_cycles:
        counts = [[unit.count(c) for c in r.layer_cycles] for r in results]
        report["layers"] = [dict(layer, time=_spread([c[k] for c in counts]))
                            for k, layer in enumerate(_layers(g))]
    return report
