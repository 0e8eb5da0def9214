"""The JSON reports of `mcugen build --json` and `mcugen test --json`, for CI and dashboards.

Their shape is fixed by JSON Schemas in mcugen/schemas/ (the tests validate every report against
them); SCHEMA_VERSION changes whenever a field changes meaning or goes away. Sizes are in bytes,
times in the unit the report names (`time_unit`) and in milliseconds at the board's clock.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from mcugen import __version__, ops
from mcugen.validation.accuracy import accuracy, classes_of, output_metrics, reference_summary
from mcugen.codegen.build import BuildResult
from mcugen.ir.graph import Compiled, Graph
from mcugen.ir.lowering import const_arrays, const_bytes, layer_name
from mcugen.kernels import widens

SCHEMA_VERSION = 3  # 3: a test's inference.ms from estimated cycles where --profile made them (ms_from)


def _header(kind: str, g: Graph, model: str, board: str) -> dict:
    return dict(schema=f"mcugen-{kind}-report", schema_version=SCHEMA_VERSION, mcugen_version=__version__,
                model=model, model_sha256=g.sha256, board=board)


def _sample(r) -> dict:
    """One sample's entry: the verdict, the time, how each output differs, and what the summary needs."""
    entry = dict(index=r.index, passed=r.passed, time=r.time,
                 outputs=[dict(max_abs_diff=d.max_abs_diff, unit=d.unit, differing=d.differing, rmse=d.rmse,
                               cosine=d.cosine) for d in r.outputs],
                 judged=r.judged)
    if r.layer_cycles:
        entry["layer_times"] = [r.unit.count(c) for c in r.layer_cycles]
    return entry


def _summary(per_sample: list[dict], names: list[str], classes: int, reference_model: dict | None) -> dict:
    """Everything a test report says about its samples as a whole, from their entries alone (so that
    shard reports merge into exactly what one run reports)."""
    times = [s["time"] for s in per_sample]
    judged = [s["judged"] for s in per_sample]
    return dict(passed=sum(s["passed"] for s in per_sample), failed=sum(not s["passed"] for s in per_sample),
                max_abs_diff=max((o["max_abs_diff"] for s in per_sample for o in s["outputs"]), default=0),
                inference=_spread(times), accuracy=accuracy(judged, classes),
                metrics=output_metrics(judged, names), reference=reference_summary(judged, names, reference_model))


def _layers(g: Graph) -> list[dict]:
    def kernel(op):
        call = g.ops[op.fused_into].call if op.fused_into is not None else op.call
        return call.kernel if call else None

    layers = [dict(index=k, op=op.opcode, name=layer_name(g, op), model_index=op.origin, kernel=kernel(op),
                   macs=ops.get(g, op).macs(g, op), weights_bytes=sum(g.tensors[t].file_bytes for t in set(op.inputs)
                                                                      if t >= 0 and g.tensors[t].is_const),
                   constants_bytes=const_bytes(op.call) if op.call is not None else 0,
                   arrays=[dict(name=name, bytes=size) for name, size in const_arrays(op.call)],
                   widened=widens(op.call))
              for k, op in enumerate(g.ops)]
    for layer, op in zip(layers, g.ops):
        if op.fused_into is not None:
            layer["fused_into"] = op.fused_into
        if isinstance(g, Compiled) and op.index in g.arena.staged:
            layer["staged_bytes"] = sum(g.arena.plan.buffers[k].size for *_, k in g.arena.staged[op.index])
    tuning = g.tuning if isinstance(g, Compiled) else None
    if tuning is not None:  # what --tune measured, per kernel, on which board
        for k, measured in tuning.layers.items():
            layers[k]["tuned"] = dict(board=tuning.measured_on, unit=tuning.unit, time=measured.times)
    return layers


def build_report(g: Compiled, model: str, board: str, r: BuildResult, optimize: str,
                 estimate: dict | None = None, built_for: str | None = None) -> dict:
    """`estimate`: build --estimate's figures (commands/board.py BoardEstimate.as_json), if made;
    `built_for`: the board the firmware was linked for, where not `board` (its emulated twin)."""
    plan = g.arena.plan
    firmware = (dict(board=built_for or board, flash_bytes=r.image.flash, ram_bytes=r.image.ram,
                     stack_bytes=r.stack_bytes) if r.image.flash else None)
    return dict(
        _header("build", g, model, board),
        arena_bytes=plan.size,
        constants_bytes=r.model.rodata, weights_bytes=g.weight_bytes,
        optimize=optimize, estimate=estimate,
        code_bytes=dict(model=r.model.text, kernels=r.kernels.text, total=r.code_bytes),
        firmware=firmware,
        kernels=sorted({k for op in g.ops if op.call for k in (op.call.kernel, *op.call.extra_kernels)}),
        macs=sum(ops.get(g, op).macs(g, op) for op in g.ops),
        patches=None if g.banded is None else dict(
            first_layer=g.banded.first, last_layer=g.banded.last, bands=g.banded.bands, columns=g.banded.columns,
            whole_arena_bytes=g.banded.whole_arena, whole_macs=g.banded.whole_macs,
            whole_const_bytes=g.banded.whole_const_bytes),
        layers=_layers(g),
        arena=dict(strategy=plan.strategy,
                   regions=[dict(name=name, bytes=size) for name, size in plan.region_sizes or (("RAM", plan.size),)],
                   buffers=[dict(name=b.name, offset=off, bytes=b.size, first_step=b.first, last_step=b.last,
                                 region=plan.region(k) or "RAM",
                                 **({"shrinks": [dict(first_step=at, bytes=n) for at, n in b.shrinks]}
                                    if b.shrinks else {}))
                            for k, (b, off) in enumerate(zip(plan.buffers, plan.offsets))]))


def _spread(values: list[float]) -> dict:
    return dict(min=min(values), median=statistics.median(values), max=max(values))


def test_report(g: Graph, model: str, board: str, results, sizes: dict, *, data: str | None, seed: int | None,
                samples: int, shard: tuple[int, int] | None, oracle: str, estimate=None,
                reference_model: dict | None = None, cluster: dict | None = None) -> dict:
    """`samples`: how many the whole run has (a shard reports the slice `shard` = (K, N) of them);
    `estimate`: the estimated cycles of the run's first sample (mcugen/validation/cycles.py), if made;
    `reference_model`: the name and sha256 of the float model the samples were also run on (--reference);
    `cluster`: where the samples ran on a Dask cluster (validation/cluster.py), if on one."""
    unit = results[0].unit
    per_sample = [_sample(r) for r in results]
    names = [g.tensors[t].name for t in g.outputs]
    tuned = isinstance(g, Compiled) and g.tuning is not None
    layers = _layers(g) if tuned or results[0].layer_cycles else None
    return _finish(dict(
        _header("test", g, model, board),
        inputs=dict(data=data, seed=seed, samples=samples,
                    shard=dict(index=shard[0], count=shard[1]) if shard else None),
        oracle=oracle, sizes=sizes, time_unit=unit.name, ms_per_unit=unit.ms, classes=classes_of(g),
        output_names=names, reference_model=reference_model, per_sample=per_sample, layers=layers,
        **({"estimated_cycles": dict(estimate.as_json(), sample=results[0].index)} if estimate else {}),
        **({"cluster": cluster} if cluster else {})))


def _finish(report: dict) -> dict:
    """The summary fields, from the per-sample entries."""
    per_sample = report["per_sample"]
    summary = _summary(per_sample, report["output_names"], report["classes"], report.get("reference_model"))
    ms_per, basis = ms_basis(report)
    summary["inference"]["ms"] = {k: v * ms_per for k, v in summary["inference"].items()}
    summary["inference"]["ms_from"] = basis
    if report["layers"] is not None and "layer_times" in per_sample[0]:
        estimated = _estimated_layer_ms(report)
        report["layers"] = [dict(layer, time=(time := _spread([s["layer_times"][k] for s in per_sample])),
                                 ms=estimated[k] if estimated else time["median"] * ms_per)
                            for k, layer in enumerate(report["layers"])]
    return dict(report, **summary)


def _estimated_layer_ms(report: dict) -> list[float] | None:
    """Each layer's estimated cycles (with the flash's wait states where estimated) in ms, where ms_basis uses
    them: a layer's own CPI, not the run's."""
    estimate = report.get("estimated_cycles")
    if report["time_unit"] != "instructions" or estimate is None or estimate["timing"] is None:
        return None
    stalls = estimate["memory"]["stall_cycles"] if "memory" in estimate else [0] * len(estimate["layer_cycles"])
    return [(c + s) * report["ms_per_unit"] for c, s in zip(estimate["layer_cycles"], stalls)]


def ms_basis(report: dict) -> tuple[float, str]:
    """Milliseconds per time unit at the board's clock, and what they come from: under QEMU, where the run's
    first sample was estimated on the core's timing table (--profile), its estimated cycles (with the board's
    flash wait states where its file gives them) per instruction; else one instruction a cycle."""
    unit, per = report["time_unit"], report["ms_per_unit"]
    if unit == "ns":
        return per, "wall time on the host"
    mhz = f"{1e-3 / per:g} MHz"
    estimate = report.get("estimated_cycles")
    if unit != "instructions":
        return per, f"{unit} at {mhz}"
    if estimate is None or estimate["timing"] is None:
        return per, f"instructions at {mhz}, one a cycle; --profile estimates cycles"
    cycles = estimate["memory"]["cycles"] if "memory" in estimate else estimate["cycles"]
    flash = " with the board's flash wait states" if "memory" in estimate else ""
    cpi = cycles / max(estimate["instructions"], 1)
    return per * cpi, f"estimated cycles at {mhz}{flash}, CPI {cpi:.2f}"


# what every shard of one run shares; a report that differs in any of them is another run's
SAME_RUN = ("schema_version", "mcugen_version", "model", "model_sha256", "board", "oracle", "sizes", "time_unit",
            "ms_per_unit", "classes", "output_names", "reference_model")


def merge(reports: list[tuple[str, dict]]) -> dict:
    """Shard reports (name, report) of one run, joined into the report that run would have written
    whole; McugenError when they are not exactly the N shards of one run."""
    from mcugen.errors import McugenError

    fix = "pass the reports of all N shards of one `mcugen test --shard K/N` run, each once"
    (first_name, first), others = reports[0], reports[1:]
    for name, report in reports:
        if report.get("inputs", {}).get("shard") is None:
            raise McugenError(f"{name} is not a shard's report (its run had no --shard)", fix)
    for name, report in others:
        for key in SAME_RUN + ("inputs",):
            theirs: Any = report.get(key)
            ours: Any = first.get(key)
            if key == "inputs":
                theirs, ours = dict(theirs, shard=theirs["shard"]["count"]), dict(ours, shard=ours["shard"]["count"])
            if theirs != ours:
                raise McugenError(f"{name} is from another run than {first_name}: its {key} differs "
                                  f"({_short(theirs)} vs {_short(ours)})", fix)
    count = first["inputs"]["shard"]["count"]
    held = sorted(report["inputs"]["shard"]["index"] for _, report in reports)
    if held != list(range(1, count + 1)):
        twice = sorted({k for k in held if held.count(k) > 1})
        missing = sorted(set(range(1, count + 1)) - set(held))
        raise McugenError(f"the reports hold shards {', '.join(map(str, held))} of {count}: "
                          + (f"shard {twice[0]}/{count} twice" if twice else f"shard {missing[0]}/{count} is missing"),
                          fix)
    per_sample = sorted((s for _, report in reports for s in report["per_sample"]), key=lambda s: s["index"])
    merged = {k: v for k, v in first.items() if k in SAME_RUN or k in ("schema", "layers")}
    if merged["layers"] is not None:
        merged["layers"] = [{k: v for k, v in layer.items() if k != "time"} for layer in merged["layers"]]
    return _finish(dict(merged, inputs=dict(first["inputs"], shard=None), per_sample=per_sample))


def read_test_report(path: Path) -> dict:
    """A `mcugen test --json` report, checked against its schema."""
    return read_report(path, "test")


def read_report(path: Path, kind: str) -> dict:
    """A `mcugen test --json` (kind "test") or `mcugen build --json` ("build") report, checked against its
    schema."""
    import jsonschema

    from mcugen.errors import McugenError

    fix = f"pass reports written by `mcugen {kind} --json` of this mcugen version"
    try:
        report = json.loads(path.read_text())
    except FileNotFoundError:
        raise McugenError(f"{path}: no such file", fix) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise McugenError(f"{path}: not a JSON report ({str(exc).splitlines()[0]})", fix) from None
    except RecursionError:  # nested past Python's limit: no report is
        raise McugenError(f"{path}: not a JSON report (nested too deep)", fix) from None
    schema = json.loads((Path(__file__).resolve().parents[1] / "schemas" / f"{kind}-report.schema.json").read_text())
    try:
        error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(report))
    except RecursionError:
        raise McugenError(f"{path}: not a mcugen {SCHEMA_VERSION} {kind} report (nested too deep)", fix) from None
    if error is not None:
        where = "/".join(map(str, error.path)) or "top level"
        raise McugenError(f"{path}: not a mcugen {SCHEMA_VERSION} {kind} report ({where}: {error.message[:120]})",
                          fix)
    return report


def _short(value) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."
