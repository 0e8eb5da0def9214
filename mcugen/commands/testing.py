"""`mcugen test`: the model on the target against the golden model, sample by sample, and its reports."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mcugen.codegen.build import say
from mcugen.commands.board import build_in, compile_for, sizes_of
from mcugen.commands.common import (SAMPLE_LINES, oracles_refuse, progress, progress_bar, refuse_overwrite,
                                    require_writable_folder, steps_note, write_json)
from mcugen.errors import EXIT_MISMATCH, McugenError


def cmd_test(args) -> int:
    from mcugen.validation.compare import random_inputs
    from mcugen.validation.dataset import load_samples
    from mcugen.validation.json_reports import test_report

    target = _test_target(args)
    g = compile_for(args, target)
    samples = load_samples(g, Path(args.data)) if args.data else random_inputs(g, args.samples, args.seed)
    for k, (scale, zero_point, dtype) in getattr(samples, "quantized", {}).items():
        say(f"input {k}: float data quantized to {dtype} with the input's scale {scale:.9g} and zero point "
            f"{zero_point}, as TFLM's QUANTIZE would")
    chosen = _chosen(args, g, len(samples))
    labels = None
    if args.labels:
        from mcugen.validation.accuracy import classes_of, load_labels

        labels = load_labels(Path(args.labels), len(samples), classes_of(g))
    reference = None
    if args.reference:
        from mcugen.validation.reference import load_reference

        reference = load_reference(Path(args.reference), g, args.signature)
    oracle = check_golden(g, Path(args.model), samples[chosen.start])
    with tempfile.TemporaryDirectory(prefix="mcugen-test-") as tmp:
        built = None
        if target.builds_here:
            result, _, g = build_in(args, target, Path(args.out) if args.out else Path(tmp) / "build", g)
            program, sizes = result.program, sizes_of(result)
            if args.html:
                from mcugen.validation.json_reports import build_report

                built = build_report(g, Path(args.model).name, args.board, result, args.optimize)
        else:
            program, sizes = None, {"arena_bytes": g.arena.plan.size}
        results, cluster = _validate(args, target, program, g, samples, chosen, labels)
        if reference is not None:
            from mcugen.validation.reference import judge_against

            judge_against(reference, g, samples, results, labels, args.reset_every)
        # a shard's estimate would be of another sample than the whole run's: only whole runs estimate
        estimate = estimated_cycles(target, program, g, samples, chosen.start, args) \
            if args.profile and not args.shard else None
    report = test_report(g, Path(args.model).name, args.board, results, sizes, data=args.data,
                         seed=None if args.data else args.seed, samples=len(samples), shard=args.shard,
                         oracle=oracle, estimate=estimate,
                         reference_model=reference.identity if reference is not None else None, cluster=cluster)
    _show(args, g, report, results, built, estimate)
    return verdict(report)


def _test_target(args):
    """The target `test` runs on, once its flags are known to go together and its output files may be written."""
    from mcugen.targets.target import Target, require_port

    for page in (args.json, args.html):
        if page:
            refuse_overwrite(Path(page), args.force)
    if args.out:
        require_writable_folder(Path(args.out), f"--out {args.out}")
    for given, flag in ((args.labels, "--labels"), (args.reference, "--reference")):
        if args.layers and given:
            raise McugenError(f"--layers compares every layer's output, {flag} scores the model's own",
                              "run them apart")
    if args.labels and not args.data:
        raise McugenError("--labels needs --data: labels name the classes of given inputs, not of random ones",
                          "pass --data inputs.npz --labels labels.npy")
    target = Target.of(args.board, args.port, args.stock)
    if args.cluster and args.jobs > 1:
        raise McugenError(f"--jobs {args.jobs} is a cluster of {args.jobs} local processes, and --cluster names one",
                          f"pass one of them (--cluster local:{args.jobs} is --jobs {args.jobs})")
    # a real board runs whatever was flashed, and the handshake checks it is this model; on a cluster, the
    # boards attached to its workers
    if not target.builds_here and not args.cluster:
        require_port(target)
        if args.jobs > 1:
            raise McugenError(f"--jobs {args.jobs} needs as many targets, and a real board is one",
                              "drop --jobs (or validate on --board host or an emulated board)")
    return target


def _chosen(args, g, count: int) -> range:
    """The samples this run validates: all of them, or --shard's."""
    from mcugen.validation.dataset import require_independent, slices

    if args.shard or args.jobs > 1 or args.cluster:
        split = f"--shard {args.shard}" if args.shard else f"--cluster {args.cluster}" if args.cluster \
            else f"--jobs {args.jobs}"
        require_independent(g, args.reset_every, split)
    chosen = range(count)
    if args.shard:
        k, n = args.shard
        chosen = slices(chosen, n, args.reset_every, bool(g.variables))[k - 1]
        if not len(chosen):
            raise McugenError(f"shard {k}/{n} of {count} sample(s) is empty", "use fewer shards")
    return chosen


def _validate(args, target, program, g, samples, chosen: range, labels):
    """The chosen samples run on the target (or on a cluster's) and compared, a line each (or a progress bar past
    SAMPLE_LINES); and where they ran, on a cluster."""
    from mcugen.validation.validate import run_on_target

    where = f"samples {chosen.start + 1}..{chosen.stop} of {len(samples)}" if args.shard else \
        f"{len(samples)} sample(s)"
    address = args.cluster or (f"local:{args.jobs}" if args.jobs > 1 else None)
    on = f" on the Dask cluster {address}" if address else ""
    print(f"validating {where} on {args.board}{on} ({args.data or f'random inputs, seed {args.seed}'})"
          f"{steps_note(g, args.reset_every)}", file=sys.stderr)
    with progress_bar(len(chosen)) as bar:
        done = [0]

        def on_sample(r):
            bar.update()
            done[0] += 1
            if bar.disable and len(chosen) > SAMPLE_LINES:
                progress(done[0], len(chosen))
            if len(chosen) <= SAMPLE_LINES or not r.passed:
                bar.write(r.line(len(samples)))

        if address is None:
            _, results = run_on_target(target, program, g, samples, timeout=args.timeout,
                                       reset_every=args.reset_every, profile=args.profile,
                                       on_sample=on_sample, indices=chosen, labels=labels)
            return results, None
        from mcugen.validation.cluster import dask_client, run_on_cluster

        with dask_client(address) as client:
            return run_on_cluster(client, target, program, g, samples, chosen, labels, timeout=args.timeout,
                                  reset_every=args.reset_every, profile=args.profile, on_sample=on_sample)


def _show(args, g, report, results, built, estimate) -> None:
    """What `test` prints and writes beside its verdict: the layer table, the first layer to differ, the pages."""
    if args.profile:
        from mcugen.validation.report import layer_table, write_layer_picture

        counts = [s["layer_times"] for s in report["per_sample"]]
        print(layer_table(g, counts, report["time_unit"], estimate, [layer["ms"] for layer in report["layers"]]))
        if args.json:
            picture = write_layer_picture(g, counts, report["time_unit"], Path(args.json).with_suffix(".layers.png"),
                                          estimate)
            print(f"wrote {picture}")
    if args.layers:
        print(first_layer_to_differ(g, results))
    if args.json:
        write_json(Path(args.json), report)
    if args.html:
        from mcugen.commands.report import write_page

        write_page(Path(args.html), report, built)


def first_layer_to_differ(g, results) -> str:
    """test --layers: the earliest layer whose output differs on the target in any sample, with its kernel."""
    differing = [(k, r) for r in results for k, d in enumerate(r.outputs) if d.differing]
    if not differing:
        return f"every layer's output ({len(g.outputs)}) bit-exact on the target"
    k, first = min(differing, key=lambda pair: pair[0])
    op = next(op for op in g.ops if g.outputs[k] in op.outputs)
    d = first.outputs[k]
    kernel = f", kernel {op.call.kernel}" if op.call is not None else ""
    return (f"first layer to differ: layer {op.index}, {op.opcode} (op {op.origin} in the file{kernel}), output "
            f"'{g.tensors[g.outputs[k]].name}': {d.differing} value(s) in sample {first.index + 1}, max |diff| "
            f"{d.max_abs_diff:g} {d.unit}")


def estimated_cycles(target, program, g, samples, first: int, args):
    """--profile on an emulated board whose core has a timing table: one more run of the first sample,
    every instruction logged, costed by mcugen/validation/cycles.py."""
    if not target.emulated or target.board.cpu.timing is None:
        return None
    from mcugen.validation.cycles import estimate_cycles
    from mcugen.validation.validate import expected_seconds

    # the log slows QEMU about tenfold
    print(f"estimating {target.board.cpu.name} cycles: sample {first + 1} once more, every instruction logged "
          f"(about {max(1, round(10 * expected_seconds(g, target)))} s)", file=sys.stderr, flush=True)
    return estimate_cycles(target, program, g, samples[first], target.board.cpu, timeout=args.timeout * 20)


def verdict(report: dict) -> int:
    """What `test` and `report merge` print after the samples: accuracy, metrics, the outcome."""
    from mcugen.validation.accuracy import format_accuracy

    total = report["passed"] + report["failed"]
    if report["accuracy"] or report["failed"] or report.get("reference"):
        print(format_accuracy(report["accuracy"], report["metrics"], report.get("reference")))
    spread = report["inference"]
    print(f"  time per inference: min {spread['min']:,.0f} / median {spread['median']:,.0f} / max {spread['max']:,.0f} "
          f"{report['time_unit']}, median {spread['ms']['median']:.3g} ms ({spread['ms_from']}); golden model "
          f"checked against {report['oracle']}")
    if report["failed"] == 0:
        print(f"bit-exact on {total} sample(s) on {report['board']}")
        return 0
    print(f"{report['failed']} of {total} sample(s) differ from the golden model on {report['board']}")
    return EXIT_MISMATCH


def check_golden(g, model: Path, inputs: list) -> str:
    """Check the golden model against its oracle on one sample before validating a target against it:
    the oracle's name (and why it is not TFLM), or why none could run the model."""
    from mcugen.validation import golden
    from mcugen.validation.compare import differences
    from mcugen.ops import layer_type
    from mcugen.validation.oracle import oracle_for

    try:
        oracle, which = oracle_for(model, preserve_all_tensors=True, signature=g.signature)  # --outputs: inner
    except McugenError as exc:  # the oracles are not installed
        return f"no oracle ({exc.problem})"
    if oracle is None:
        refused = oracles_refuse(g, f"none ({which})")
        if refused:
            raise McugenError(f"{model.name}: {refused}", "fix the model as TFLM's message says")
        print(f"mcugen: warning: no oracle runs this model, so the golden model is unconfirmed ({which})",
              file=sys.stderr)
        return f"no oracle ({which})"
    half = sum(layer_type(g, op) == "float16" for op in g.ops)
    if half:  # no oracle computes fp16: the oracle judges the file as other cores compute it, fp16 layers in float32
        from mcugen.codegen.pipeline import lower

        g = lower(model, g.cut_at, g.signature or None)
    ours = golden.Runner(g).run(inputs)
    oracle.run(inputs, 0)  # the tensors below: a cut model may have more outputs than the file
    theirs = oracle.tensors(g.outputs)
    worst = max(differences(a, b.reshape(a.shape).astype(a.dtype))[1] for a, b in zip(ours, theirs))
    fc_rounding = oracle.name != "TFLM" and any(op.opcode == "FULLY_CONNECTED" for op in g.ops)
    if worst and not (fc_rounding and worst <= 1):
        raise McugenError(f"the golden model differs from {which} on the first sample (max |diff| {worst})",
                          "run mcugen compare to find the layer, and report it with the model")
    if half:
        return (f"{which} on the first sample, with its {half} fp16 layer(s) in float32 as the file computes them; "
                "in fp16 they are mcugen's golden model's alone (no TFLite oracle computes fp16)")
    return f"{which} on the first sample"


def cmd_report_merge(args) -> int:
    from mcugen.validation.json_reports import merge, read_test_report

    out = Path(args.json)
    refuse_overwrite(out, args.force)
    merged = merge([(path, read_test_report(Path(path))) for path in args.reports])
    write_json(out, merged)
    print(f"merged {len(args.reports)} shard report(s) of {merged['model']} on {merged['board']} into {out}")
    return verdict(merged)
