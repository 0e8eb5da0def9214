"""`mcugen quantize`: the user's float model to a checked integer one, per-layer error reported."""
from __future__ import annotations

import contextlib
import math
import tempfile
from pathlib import Path

import numpy as np

from mcugen.codegen.build import say
from mcugen.commands.common import refuse_overwrite, write_atomically, write_json
from mcugen.errors import McugenError

MIN_SAMPLES = 10  # fewer ranges than this describe the samples, not the data
VALIDATE_SAMPLES = 3  # evaluation samples the chosen model runs on the board's emulator
CHECK_SAMPLES = 2  # samples on which TFLM and the golden model must agree at every layer
ERROR_SAMPLES = 32  # samples the per-layer error is measured on


def cmd_quantize(args) -> int:
    from mcugen.validation.dataset import load_samples
    from mcugen.quantize.measure import layer_errors
    from mcugen.quantize.model import load_float_model
    from mcugen.quantize.plan_file import load_plan
    from mcugen.quantize.recipe import Plan, calibrate, check, describe, model_ends, quantize

    source, out = Path(args.model), Path(args.out)
    _check_flags(args, source, out)
    model = load_float_model(source, args.signature)
    plan = load_plan(Path(args.plan), model) if args.plan else \
        Plan(args.precision, io=model_ends(args.precision, args.io), per_tensor=args.per_tensor)
    samples = require_finite(load_samples(model.graph, Path(args.data)), args.data)
    if len(samples) < MIN_SAMPLES:
        raise McugenError(f"{args.data} holds {len(samples)} sample(s); calibration needs at least {MIN_SAMPLES}",
                          "give a few hundred samples like the data the model will see")
    if args.search:
        return search_precisions(args, model, samples, plan)
    say(f"calibrating {source.name} on {len(samples)} samples ({args.calibration})")
    ranges = calibrate(model, samples, args.calibration)
    say(f"quantizing: {describe(plan)}")
    checked = check(quantize(model, ranges, plan), out.stem, samples[:CHECK_SAMPLES], fp16=True)
    measured = samples[:ERROR_SAMPLES]
    say(f"measuring each layer's error and clipping against the float model on {len(measured)} calibration samples")
    errors = layer_errors(model.graph, checked.graph, measured)
    print(format_errors(errors))
    evaluation, acc, on_labels = _outputs_measured(args, model, checked.graph, measured)
    weights = checked.graph.weight_bytes
    print(f"size: {len(model.content):,} B float -> {len(checked.content):,} B ({weights:,} B of constants)")
    print(f"checked: {checked.oracle} runs it and the golden model equals it at every layer ({CHECK_SAMPLES} samples)")
    if checked.graph.fp16_layers:
        print(f"fp16: {len(checked.graph.fp16_layers)} layer(s) measured as a core with half-precision arithmetic "
              "(Helium: the Cortex-M55) computes them, in fp16, which no TFLite oracle computes (mcugen's golden model "
              "states the order); other cores compute them in float32 from float16 weights, as the oracle checked")
    write_atomically(out, lambda f: f.write(checked.content), ".tflite")
    if args.json:
        write_json(Path(args.json), dict(
            model=str(source), out=str(out), plan=dict(precision=plan.default, io=plan.io, per_tensor=plan.per_tensor),
            oracle=checked.oracle,
            samples=len(samples), bytes=dict(float=len(model.content), quantized=len(checked.content),
                                             constants=weights),
            output=dict(snr_db=_finite(acc.snr_db), top1_agreement=acc.top1, samples=len(evaluation),
                        measured_on="eval" if args.eval else "calibration",
                        top1=None if on_labels is None else on_labels[0],
                        float_top1=None if on_labels is None else on_labels[1]),
            layers=[dict(index=e.index, op=e.opcode, precision=e.precision, tensor=e.tensor,
                         snr_db=_finite(e.snr_db), max_abs_error=e.max_abs, clipped_share=e.clipped)
                    for e in errors]))
    print(f"wrote {out}")
    return 0


def _outputs_measured(args, model, quantized, measured):
    """(the samples, the outputs' accuracy against the float model's on them, (top-1 on the labels, the float
    model's) or None): on every --eval sample where given, else on the measured calibration samples."""
    from mcugen.quantize.measure import accuracy, output_predictions
    from mcugen.validation.accuracy import load_labels
    from mcugen.validation.dataset import load_samples

    evaluation, labels, what = measured, None, f"{len(measured)} calibration samples"
    if args.eval:
        evaluation = require_finite(load_samples(model.graph, Path(args.eval)), args.eval)
        what = f"all {len(evaluation)} --eval samples"
        if args.labels:
            classes = int(np.prod(model.graph.tensors[model.graph.outputs[0]].shape))
            labels = load_labels(Path(args.labels), len(evaluation), classes)
    say(f"measuring the outputs against the float model on {what}")
    reference = output_predictions(model.graph, evaluation)
    acc = accuracy(quantized, evaluation, reference, None)
    print(f"output '{quantized.tensors[quantized.outputs[0]].name}': SNR {_db(acc.snr_db)} against the float "
          f"model; top-1 agrees with it on {acc.top1:.1%} of {what}")
    if labels is None:
        return evaluation, acc, None
    on_labels = accuracy(quantized, evaluation, reference, labels).top1, float(np.mean(reference[0] == labels))
    print(f"top-1 on the labels: {on_labels[0]:.2%}, the float model's {on_labels[1]:.2%}")
    return evaluation, acc, on_labels


def _check_flags(args, source: Path, out: Path) -> None:
    """The flags go together, and no file the run writes is there already (unless --force)."""
    if out.resolve() == source.resolve():
        raise McugenError(f"--out {out} is the float model itself", "write the quantized model to another file")
    given = [flag for flag, value in (("--board", args.board),
                                      ("--cluster", args.cluster), ("--jobs", None if args.jobs == 1 else args.jobs),
                                      ("--patches", None if args.patches == "auto" else args.patches),
                                      ("--max-arena", args.max_arena)) if value is not None]
    if args.plan and (args.search or args.precision != "int8" or args.io or args.per_tensor):
        raise McugenError("--plan gives every layer's precision, the inputs' and outputs' type and per-tensor "
                          "scales", "drop --search, --precision, --io and --per-tensor (or drop --plan)")
    if not args.search and given:
        raise McugenError(f"{given[0]} is for --search", "add --search to choose each layer's precision")
    if args.labels and not args.eval:
        raise McugenError("--labels name the classes of the --eval samples", "pass --eval with them")
    if args.search and (args.eval is None or args.board is None):
        raise McugenError("--search needs --eval (samples to measure accuracy on) and --board (whose core measures "
                          "the cost)", "add both")
    if args.cluster and args.jobs > 1:
        raise McugenError(f"--jobs {args.jobs} is a cluster of {args.jobs} local processes, and --cluster names one",
                          f"pass one of them (--cluster local:{args.jobs} is --jobs {args.jobs})")
    refuse_overwrite(out, args.force)
    if args.json:
        refuse_overwrite(Path(args.json), args.force)
    if args.search:
        refuse_overwrite(picture_path(out), args.force)
        refuse_overwrite(plan_path(out), args.force)


def _db(value: float | None) -> str:
    if value is None:
        return "-"
    return "exact" if value == math.inf else f"{value:.1f} dB"


def _finite(value: float | None) -> float | str | None:
    """JSON has no infinity: an exact layer's SNR is "inf"."""
    return "inf" if value == math.inf else value


def format_errors(errors) -> str:
    """The per-layer table; `clipped`: the share of the float values past the quantized tensor's range."""
    lines = [f"{'idx':>5}  {'op':<22} {'precision':<14} {'SNR':>9}  {'max abs err':>11}  {'clipped':>8}  tensor"]
    for e in errors:
        worst = "-" if e.max_abs is None else f"{e.max_abs:.4g}"
        clipped = "-" if e.clipped is None else f"{e.clipped:.2%}"
        lines.append(f"{e.index:>5}  {e.opcode:<22} {e.precision:<14} {_db(e.snr_db):>9}  {worst:>11}  "
                     f"{clipped:>8}  {e.tensor[:60]}")
    return "\n".join(lines)


def picture_path(out: Path) -> Path:
    return out.with_suffix(".front.png")


def plan_path(out: Path) -> Path:
    """Where --search writes its choice as a plan --plan reads."""
    return out.with_suffix(".plan.yaml")


def require_finite(samples, path: str):
    """Float samples with a NaN or an infinity calibrate no range and measure no accuracy: refused at once."""
    for k, values in enumerate(samples.per_input):
        values = np.asarray(values)
        if values.dtype.kind == "f" and not np.isfinite(values).all():
            bad = int(np.count_nonzero(~np.isfinite(values)))
            raise McugenError(f"{path}: input {k} holds {bad:,} NaN or infinite value(s)",
                              "clean the data (a model's inputs are finite numbers)")
    return samples


def search_precisions(args, model, samples, plan) -> int:
    """--search: the candidates measured, the front drawn, the choice validated and written."""
    from mcugen.validation.accuracy import load_labels
    from mcugen.targets.boards import load_board
    from mcugen.validation.dataset import load_samples
    from mcugen.quantize.recipe import calibrate
    from mcugen.targets.boards import HOST, emulated_twin
    from mcugen.quantize.plan_file import plan_text
    from mcugen.quantize.cost import Builds, builds_for
    from mcugen.quantize.search import format_search, front_picture, search

    if args.board == HOST:
        raise McugenError("--search measures each candidate on a board's core, and host is none",
                          "name a board (mcugen boards lists them)")
    board = load_board(args.board)
    twin = emulated_twin(board, "the search measures each candidate there")
    evaluation = require_finite(load_samples(model.graph, Path(args.eval)), args.eval)
    classes = int(np.prod(model.graph.tensors[model.graph.outputs[0]].shape))
    labels = load_labels(Path(args.labels), len(evaluation), classes) if args.labels else None
    if twin.cpu.timing is None:
        say(f"{twin.cpu.name} has no timing table: the candidates' time is their instructions")
    say(f"calibrating {Path(args.model).name} on {len(samples)} samples ({args.calibration})")
    ranges = calibrate(model, samples, args.calibration)
    address = args.cluster or (f"local:{args.jobs}" if args.jobs > 1 else None)
    say(f"searching each layer's precision: accuracy on {len(evaluation)} samples, cost on {twin.id}"
        + ("" if twin is board else f" ({board.id}'s {board.cpu.name})")
        + (f", on the Dask cluster {address}" if address else ""))
    out = Path(args.out)
    builds = Builds(args.optimize, args.patches, args.max_arena)
    with tempfile.TemporaryDirectory(prefix="mcugen-search-") as work:
        from mcugen.validation.cluster import dask_client

        with dask_client(address) if address else contextlib.nullcontext() as client:
            result = search(model, ranges, plan, board, evaluation, labels, args.max_drop, args.cost, Path(work),
                            samples[:CHECK_SAMPLES], builds, client)
        print(format_search(result, model.weighted))
        write_atomically(picture_path(out), lambda f: f.write(front_picture(result)), ".png")
        print(f"wrote {picture_path(out)}")
        if args.json:
            write_json(Path(args.json), search_report(args, result, model, board, twin))
            print(f"wrote {args.json}")
        if result.chosen is None:  # the float model is within any drop: only memory rules candidates out
            smallest = min(result.candidates, key=lambda c: c.cost.ram)
            raise McugenError(f"no candidate within {args.max_drop:g} points of the float model's accuracy fits "
                              f"{board.id} (the smallest, {smallest.name}: {smallest.cost.misfit})",
                              "allow a larger --max-drop or choose a board with more memory")
        validate_choice(result.chosen.content, board, twin, evaluation, Path(work), builds_for(args.cost, builds))
    write_atomically(out, lambda f: f.write(result.chosen.content), ".tflite")
    print(f"wrote {out}: {result.chosen.name}")
    text = plan_text(result.chosen.plan, model, Path(args.model).name)
    write_atomically(plan_path(out), lambda f: f.write(text.encode()), ".yaml")
    print(f"wrote {plan_path(out)}: the choice as a plan (`--plan {plan_path(out)}` makes it again; edit it to try "
          "others)")
    return 0


def validate_choice(content: bytes, board, twin, samples, work: Path, builds) -> None:
    """The chosen model bit-exact on the board's emulator (or its emulated twin's) against the golden model."""
    from mcugen.targets.firmware import build_board
    from mcugen.codegen.outdir import OutDir
    from mcugen.codegen.pipeline import compile_model
    from mcugen.validation.golden import model_inputs
    from mcugen.targets.target import Target
    from mcugen.validation.validate import run_on_target
    from mcugen.quantize.cost import board_budget

    path = work / "chosen.tflite"
    path.write_bytes(content)
    g = compile_model(path, features=board.features, budget=board_budget(board, builds), fp16=board.fp16_arithmetic)
    program = build_board(g, twin, OutDir(work / "chosen"), path.name).program
    chosen = [model_inputs(g, xs) for xs in samples[:VALIDATE_SAMPLES]]
    _, results = run_on_target(Target.of(twin.id), program, g, chosen)
    if not all(r.passed for r in results):
        raise McugenError(f"internal error: the chosen model differs from the golden model on {twin.id}",
                          "report this model")
    say(f"the choice is bit-exact on {twin.id} on {len(chosen)} samples")


def search_report(args, result, model, board, twin) -> dict:
    from mcugen.quantize.plan_file import plan_json

    names = [f"{layer.opcode} {layer.index} ({layer.output})" for layer in model.weighted]
    return dict(
        model=str(args.model), out=str(args.out), board=board.id, measured_on=twin.id, cost=result.cost,
        optimize=args.optimize, patches=args.patches, max_arena=args.max_arena, max_drop_points=args.max_drop,
        target_top1=result.target, why=result.why,
        against=result.candidates[0].accuracy.against, layers=names,
        chosen=None if result.chosen is None else result.chosen.name,
        candidates=[dict(name=c.name, precisions=dict(zip(names, c.precisions)), top1=c.accuracy.top1,
                         snr_db=_finite(c.accuracy.snr_db), time=c.cost.time, time_unit=c.cost.unit,
                         flash_bytes=c.cost.flash, ram_bytes=c.cost.ram, front=c.front,
                         layer_time=[dict(op=op, time=t) for op, t in c.cost.layers],
                         fits=not c.cost.misfit, misfit=c.cost.misfit or None,
                         reference=c.name in ("float model", "all int8", "all 16x8"),
                         plan=plan_json(c.plan, model),
                         chosen=result.chosen is not None and c.name == result.chosen.name)
                    for c in result.candidates])
