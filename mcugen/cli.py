"""`mcugen` command line. Every failure is one line on stderr and a non-zero exit."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

from mcugen import __version__, golden
from mcugen.errors import McugenError
from mcugen.export import FORMATS

EXIT_ERROR = 1
EXIT_MISMATCH = 2
EXIT_INTERNAL = 70


def progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\r  sample {done}/{total}", end=end, file=sys.stderr, flush=True)
    elif done == total or done % max(10, total // 20) == 0:
        print(f"  sample {done}/{total}", file=sys.stderr, flush=True)


def _require_writable_folder(folder: Path, what: str) -> None:
    """Checked before any work: a file can be created in `folder`, or in its nearest existing
    ancestor where mcugen will create it. Tried, not guessed from permission bits (root passes
    those, and /sys or /proc or a read-only mount still refuse)."""
    if folder.exists() and not folder.is_dir():
        raise McugenError(f"cannot write {what}: {folder} is not a folder", "choose another path")
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    try:
        if not ancestor.is_dir():
            raise NotADirectoryError(20, "not a directory")
        with tempfile.TemporaryFile(dir=ancestor):
            pass
    except OSError as exc:
        raise McugenError(f"cannot write {what}: {ancestor} is not a writable folder ({exc.strerror})",
                          "choose another path") from None


def _refuse_overwrite(path: Path, force: bool) -> None:
    """Checked before any work: mcugen replaces only regular files, and only with --force, in a
    folder it can write."""
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise McugenError(f"{path} exists and is not a regular file", "choose another path")
        if not force:
            raise McugenError(f"{path} already exists", "choose another path or pass --force")
    _require_writable_folder(path.parent, str(path))


def _write_atomically(path: Path, write, suffix: str) -> None:
    """The file appears whole or not at all; a failure leaves what was there."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=suffix + ".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                write(f)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError as exc:  # a full disk, a read-only or virtual file system
        raise McugenError(f"cannot write {path} ({exc.strerror})", "choose another path") from None


def _write_npz_atomically(path: Path, arrays: dict) -> None:
    _write_atomically(path, lambda f: np.savez(f, **arrays), ".npz")


def _write_json(path: Path, report: dict) -> None:
    _write_atomically(path, lambda f: f.write((json.dumps(report, indent=2) + "\n").encode()), ".json")


def cmd_inspect(args) -> int:
    from mcugen.inspect_model import format_text, summarize
    from mcugen.pipeline import read

    summary = summarize(read(args.model))
    if summary["supported"]:
        summary["oracle"] = _oracle_name(Path(args.model))
    print(json.dumps(summary, indent=2) if args.json else format_text(summary, args.model))
    return 0 if summary["supported"] else EXIT_ERROR


def cmd_run(args) -> int:
    from mcugen.dataset import load_samples
    from mcugen.pipeline import lower

    out_path = Path(args.output)
    if out_path.suffix != ".npz":
        raise McugenError(f"--output {out_path}: outputs are written as one .npz (output_0, output_1, …)",
                          "name the file .npz")
    _refuse_overwrite(out_path, args.force)
    dump = Path(args.dump_layers) if args.dump_layers else None
    if dump:
        _require_writable_folder(dump, f"--dump-layers {dump}")
        if dump.exists() and any(dump.iterdir()) and not args.force:
            raise McugenError(f"{dump} is not empty", "choose an empty directory or pass --force")
    g = lower(args.model, tuple(args.outputs))
    samples = load_samples(g, Path(args.data))
    if dump and len(samples) > 1:
        raise McugenError(f"{args.data} holds {len(samples)} samples; --dump-layers writes one sample's layers",
                          "pass a file with one sample")

    def write_layer(idx: int, value: np.ndarray) -> None:
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", g.tensors[idx].name)[:80]
        try:
            np.save(dump / f"t{idx:04d}_{safe}.npy", value)
        except OSError as exc:  # a full disk
            raise McugenError(f"cannot write in {dump} ({exc.strerror})", "free space or choose another path") from None

    if dump:
        try:
            dump.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise McugenError(f"cannot create {dump} ({exc.strerror})", "choose another path") from None
    runner = golden.Runner(g)
    results = [runner.run(xs, on_tensor=write_layer if dump else None) for xs in samples]
    outputs = [np.stack(ys) if samples.stacked else ys[0] for ys in zip(*results)]
    _write_npz_atomically(out_path, {f"output_{k}": y for k, y in enumerate(outputs)})
    print(f"wrote {len(outputs)} output(s) of {len(samples)} sample(s) to {out_path}"
          + (f" and {len(g.ops)} layer tensors to {dump}/" if dump else ""))
    return 0


def cmd_compare(args) -> int:
    from mcugen.compare import compare_with_oracle, random_inputs
    from mcugen.dataset import load_samples
    from mcugen.pipeline import lower

    g = lower(args.model, tuple(args.outputs))
    samples = load_samples(g, Path(args.data)) if args.data else random_inputs(g, args.samples, args.seed)
    source = args.data or f"random inputs, seed {args.seed}"
    print(f"comparing golden model with its oracle on {len(samples)} sample(s) ({source}){_steps(g, None)}",
          file=sys.stderr)
    which, mismatch = compare_with_oracle(g, Path(args.model), samples, progress=progress)
    if which != "TFLM":
        print(f"oracle: {which}", file=sys.stderr)
    if mismatch:
        print(mismatch)
        if which != "TFLM" and mismatch.opcode == "FULLY_CONNECTED" and mismatch.max_abs_diff == 1:
            print("  (LiteRT's reference FULLY_CONNECTED rounds once, TFLM's and mcugen's twice: it may differ by 1)")
        return EXIT_MISMATCH
    print(f"bit-exact on {len(samples)} sample(s): all {len(g.ops)} layer outputs equal "
          f"{'TFLM' if which == 'TFLM' else 'LiteRT BUILTIN_REF'}'s")
    return 0


def _default_out(model: str, board: str) -> Path:
    return Path("mcugen_build") / f"{Path(model).stem}-{board}"


def _build(args, target, out_dir: Path, g):
    from mcugen.build import say
    from mcugen.outdir import OutDir
    from mcugen.targets import build_for

    out = OutDir(out_dir)
    out.claim(target.id, Path(args.model).name)
    say(f"building {Path(args.model).name} for {target.id} in {out_dir}/")
    result = build_for(target, g, out, Path(args.model).name, sanitize=args.sanitize,
                       progress=lambda line: say(f"  {line}"))
    return result, out


def _compile(args, target):
    """The model lowered for the target's core; with --tune, each layer's kernel measured first."""
    from mcugen.pipeline import compile_model

    tuning = None
    if args.tune:
        if target.board is None or not target.features:
            raise McugenError(f"--tune chooses between the DSP and the reference kernels, and {target.id} "
                              "runs only the reference ones", "build without --tune")
        from mcugen.tune import tune

        with tempfile.TemporaryDirectory(prefix="mcugen-tune-") as work:
            tuning = tune(Path(args.model), target.board, tuple(args.outputs), Path(work))
        chosen = len(tuning.layers) - len(tuning.reference)
        print(f"tuned on {tuning.measured_on}: {chosen} of {len(tuning.layers)} layers faster with the DSP "
              "kernels, the others keep the reference ones", file=sys.stderr)
    return compile_model(args.model, tuple(args.outputs), features=target.features, tuning=tuning)


def cmd_build(args) -> int:
    from mcugen.build import format_report
    from mcugen.report import write_report
    from mcugen.targets import Target

    if args.json:
        _refuse_overwrite(Path(args.json), args.force)
    if args.out:
        _require_writable_folder(Path(args.out), f"--out {args.out}")
    target = Target.of(args.board, stock=args.stock)
    g = _compile(args, target)
    result, out = _build(args, target, Path(args.out) if args.out else _default_out(args.model, args.board), g)
    print(f"built {result.program}")
    print(format_report(result, g))
    if target.board is not None and not target.board.emulated:
        wiring = target.wiring()
        if wiring:
            print(f"  serial      the {'stock' if args.stock else 'offline'} firmware talks on {wiring}")
    print(g.arena.plan.timeline() if args.report else
          f"  (arena plan: {len(g.arena.plan.buffers)} buffers; --report draws it)")
    if args.report:
        for path in write_report(g, out):
            print(f"wrote {path}")
    if args.json:
        from mcugen.json_reports import build_report

        _write_json(Path(args.json), build_report(g, Path(args.model).name, args.board, result))
        print(f"wrote {args.json}")
    return 0


def cmd_export(args) -> int:
    from mcugen.boards import HOST, load_board
    from mcugen.emit_c import check_name, emit_c
    from mcugen.export import export_library, exported_files
    from mcugen.outdir import OutDir
    from mcugen.pipeline import compile_model

    check_name(args.name)
    board = load_board(args.board) if args.board and args.board != HOST else None
    _require_writable_folder(Path(args.out), f"--out {args.out}")
    out = OutDir(Path(args.out))
    features = board.features if board is not None else frozenset()
    g = compile_model(args.model, tuple(args.outputs), features=features)
    generated = emit_c(g, Path(args.model).name, name=args.name, static_arena=args.static_arena)
    if board is not None:
        from mcugen.firmware import check_fit

        check_fit(g, board, generated.const_bytes, harness_ram=0)  # the application's own RAM is its business
    export_library(g, out, generated, Path(args.model).name, args.format, features=features)
    files = exported_files(out.root)
    kernels = "the DSP kernels of " + board.id if "dsp" in features else "the reference kernels"
    print(f"exported {Path(args.model).name} as {args.name} ({args.format}, {len(files)} files, {kernels}) "
          f"in {out.root}/")
    print(f"  arena {g.arena.plan.size:,} B ({args.name.upper()}_ARENA_BYTES), constants "
          f"{generated.const_bytes:,} B; API: {args.name}_init, {args.name}_input, {args.name}_invoke, "
          f"{args.name}_output in {args.name}.h")
    return 0


def cmd_test(args) -> int:
    from mcugen.compare import random_inputs
    from mcugen.dataset import load_samples, require_independent, slices
    from mcugen.targets import Target, require_port
    from mcugen.validate import run_on_target

    if args.json:
        _refuse_overwrite(Path(args.json), args.force)
    if args.out:
        _require_writable_folder(Path(args.out), f"--out {args.out}")
    if args.labels and not args.data:
        raise McugenError("--labels needs --data: labels name the classes of given inputs, not of random ones",
                          "pass --data inputs.npz --labels labels.npy")
    target = Target.of(args.board, args.port, args.stock)
    # a real board runs whatever was flashed, and the handshake checks it is this model
    if not target.builds_here:
        require_port(target)
        if args.jobs > 1:
            raise McugenError(f"--jobs {args.jobs} needs as many targets, and a real board is one",
                              "drop --jobs (or validate on --board host or an emulated board)")
    g = _compile(args, target)
    samples = load_samples(g, Path(args.data)) if args.data else random_inputs(g, args.samples, args.seed)
    if args.shard or args.jobs > 1:
        require_independent(g, args.reset_every, f"--shard {args.shard}" if args.shard else f"--jobs {args.jobs}")
    chosen = range(len(samples))
    if args.shard:
        k, n = args.shard
        chosen = slices(chosen, n, args.reset_every, bool(g.variables))[k - 1]
        if not len(chosen):
            raise McugenError(f"shard {k}/{n} of {len(samples)} sample(s) is empty", "use fewer shards")
    labels = None
    if args.labels:
        from mcugen.accuracy import classes_of, load_labels

        labels = load_labels(Path(args.labels), len(samples), classes_of(g))
    oracle = _check_golden(g, Path(args.model), samples[chosen.start])
    with tempfile.TemporaryDirectory(prefix="mcugen-test-") as tmp:
        if target.builds_here:
            result, _ = _build(args, target, Path(args.out) if args.out else Path(tmp) / "build", g)
            program, sizes = result.program, _sizes(result)
        else:
            program, sizes = None, {"arena_bytes": g.arena.plan.size}
        where = f"samples {chosen.start + 1}..{chosen.stop} of {len(samples)}" if args.shard else \
            f"{len(samples)} sample(s)"
        jobs = f" on {args.jobs} targets at once" if args.jobs > 1 else ""
        print(f"validating {where} on {args.board}{jobs} ({args.data or f'random inputs, seed {args.seed}'})"
              f"{_steps(g, args.reset_every)}", file=sys.stderr)
        with _progress_bar(len(chosen)) as bar:
            done = [0]

            def on_sample(r):
                bar.update()
                done[0] += 1
                if bar.disable and len(chosen) > SAMPLE_LINES:
                    progress(done[0], len(chosen))
                if len(chosen) <= SAMPLE_LINES or not r.passed:
                    bar.write(r.line(len(samples)))

            info, results = run_on_target(target, program, g, samples, timeout=args.timeout,
                                          reset_every=args.reset_every, profile=args.profile,
                                          on_sample=on_sample, indices=chosen, jobs=args.jobs, labels=labels)
    from mcugen.json_reports import test_report

    report = test_report(g, Path(args.model).name, args.board, results, sizes, data=args.data,
                         seed=None if args.data else args.seed, samples=len(samples), shard=args.shard,
                         oracle=oracle)
    if args.profile:
        from mcugen.report import layer_table, write_layer_picture

        counts = [s["layer_times"] for s in report["per_sample"]]
        print(layer_table(g, counts, report["time_unit"]))
        if args.json:
            picture = write_layer_picture(g, counts, report["time_unit"], Path(args.json).with_suffix(".layers.png"))
            print(f"wrote {picture}")
    if args.json:
        _write_json(Path(args.json), report)
    return _verdict(report)


SAMPLE_LINES = 20  # a run of more samples shows a progress bar, and a line only for a sample that differs


def _progress_bar(total: int):
    from tqdm import tqdm

    # without a terminal (CI logs) `progress` prints plain lines instead of a redrawn bar
    return tqdm(total=total, unit="sample", file=sys.stderr, disable=total <= 1 or not sys.stderr.isatty(),
                dynamic_ncols=True, leave=False)


def _verdict(report: dict) -> int:
    """What `test` and `report merge` print after the samples: accuracy, metrics, the outcome."""
    from mcugen.accuracy import format_accuracy

    total = report["passed"] + report["failed"]
    if report["accuracy"] or report["failed"]:
        print(format_accuracy(report["accuracy"], report["metrics"]))
    spread = report["inference"]
    print(f"  time per inference: min {spread['min']:,.0f} / median {spread['median']:,.0f} / max {spread['max']:,.0f} "
          f"{report['time_unit']}; golden model checked against {report['oracle']}")
    if report["failed"] == 0:
        print(f"bit-exact on {total} sample(s) on {report['board']}")
        return 0
    print(f"{report['failed']} of {total} sample(s) differ from the golden model on {report['board']}")
    return EXIT_MISMATCH


def _oracle_name(model: Path) -> str:
    """What mcugen checks the golden model against for this model, and why not TFLM."""
    from mcugen.oracle import oracle_for

    try:
        oracle, which = oracle_for(model)
    except McugenError as exc:  # the oracles are not installed
        return f"none ({exc.problem})"
    if oracle is not None:
        oracle.close()
    return which if oracle is not None else f"none ({which})"


def _check_golden(g, model: Path, inputs: list) -> str:
    """Check the golden model against its oracle on one sample before validating a target against it:
    the oracle's name (and why it is not TFLM), or why none could run the model."""
    from mcugen import golden
    from mcugen.compare import differences
    from mcugen.oracle import oracle_for

    try:
        oracle, which = oracle_for(model, preserve_all_tensors=True)  # --outputs: inner tensors
    except McugenError as exc:  # the oracles are not installed
        return f"no oracle ({exc.problem})"
    if oracle is None:
        print(f"mcugen: warning: no oracle runs this model, so the golden model is unconfirmed ({which})",
              file=sys.stderr)
        return f"no oracle ({which})"
    ours = golden.Runner(g).run(inputs)
    oracle.run(inputs, len(g.outputs))
    theirs = oracle.tensors(g.outputs)
    worst = max(differences(a, b.reshape(a.shape).astype(a.dtype))[1] for a, b in zip(ours, theirs))
    fc_rounding = oracle.name != "TFLM" and any(op.opcode == "FULLY_CONNECTED" for op in g.ops)
    if worst and not (fc_rounding and worst <= 1):
        raise McugenError(f"the golden model differs from {which} on the first sample (max |diff| {worst})",
                          "run mcugen compare to find the layer, and report it with the model")
    return f"{which} on the first sample"


def _sizes(result) -> dict:
    image = result.image if result.image.flash else result.model + result.kernels
    return dict(arena_bytes=result.arena_bytes, flash_bytes=image.flash,
                ram_bytes=image.ram + result.stack_bytes if result.image.flash else result.arena_bytes)


def cmd_flash(args) -> int:
    from mcugen.flash import flash
    from mcugen.targets import Target

    return flash(Target.of(args.board, args.port, args.stock), Path(args.out) if args.out else None)


def _steps(g, reset_every: int | None) -> str:
    if not g.variables:
        return ""
    kept = f"reset every {reset_every} steps" if reset_every else "never reset"
    from mcugen.emit_c import state_layout

    return f"; consecutive steps: the model's state ({state_layout(g)[1]:,} B) is kept, {kept}"


def _sample_count(text: str) -> int:
    """Zero samples would make a validation that tests nothing pass."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a sample count >= 1")
    return value


def _job_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of jobs from 1 to 64")
    return value


def _shard(text: str) -> tuple[int, int]:
    from mcugen.dataset import parse_shard

    try:
        return parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cmd_report_merge(args) -> int:
    from mcugen.json_reports import merge, read_test_report

    out = Path(args.json)
    _refuse_overwrite(out, args.force)
    merged = merge([(path, read_test_report(Path(path))) for path in args.reports])
    _write_json(out, merged)
    print(f"merged {len(args.reports)} shard report(s) of {merged['model']} on {merged['board']} into {out}")
    return _verdict(merged)


DATA_HELP = (".npz of inputs (input_0, … or input names), or .npy for a one-input model; "
             "each shaped like its input, optionally with a leading sample axis (for a stateful model: "
             "the time axis, one step per sample)")
STEPS_HELP = ("samples run in order as consecutive steps: a stateful model (LSTM, SVDF, streaming variables) "
              "keeps its state from one to the next")


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line too, like every other error."""

    def error(self, message):
        self.exit(EXIT_ERROR, f"mcugen: error: {message}; see {self.prog} --help\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mcugen", description=__doc__)
    parser.add_argument("--version", action="version", version=f"mcugen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("inspect", help="describe a model and say whether mcugen supports it")
    p.add_argument("model")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_inspect)

    def outputs_arg(p):
        p.add_argument("--outputs", action="append", default=[], metavar="T1,T2",
                       help="make these tensors the outputs and leave out the layers after them "
                            "(names as `mcugen inspect` prints them; repeat for names with commas)")

    p = sub.add_parser("run", help="run the golden model on the host")
    p.add_argument("model")
    outputs_arg(p)
    p.add_argument("--data", "--input", required=True, help=DATA_HELP)
    p.add_argument("--output", required=True, help=".npz to write (output_0, output_1, …)")
    p.add_argument("--dump-layers", metavar="DIR", help="write every intermediate tensor here")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("compare", help="golden model vs TFLM, layer by layer",
                       description=STEPS_HELP + ", in TFLM as in the golden model, every layer compared at every step.")
    p.add_argument("model")
    outputs_arg(p)
    p.add_argument("--samples", type=_sample_count, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data", help=DATA_HELP)
    p.set_defaults(func=cmd_compare)

    def board_args(p, model=True):
        if model:
            p.add_argument("model")
        p.add_argument("--board", required=True, help="host, or a board id from boards/")
        p.add_argument("--out", metavar="DIR", help="build directory (mcugen writes nothing outside it)")
        p.add_argument("--stock", action="store_true",
                       help="use the board's stock PlatformIO platform and framework (needs internet once)")
        if model:
            outputs_arg(p)
            p.add_argument("--tune", action="store_true",
                           help="measure each layer's kernels on the emulated core and keep the fastest")
            p.add_argument("--sanitize", action="store_true",
                           help="host only: build with -fsanitize=address,undefined")

    p = sub.add_parser("build", help="generate C for a model and compile it for a board")
    board_args(p)
    p.add_argument("--report", action="store_true", help="print the arena timeline and draw it (DIR/report/)")
    p.add_argument("--json", metavar="REPORT", help="write sizes, kernels, per-layer MACs and the arena plan here")
    p.add_argument("--force", action="store_true", help="overwrite an existing JSON report")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("export", help="write the model as a C library for your own firmware")
    p.add_argument("model")
    p.add_argument("--name", required=True, help="prefix of the API (NAME_invoke, NAME_ARENA_BYTES) and file names")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the library (mcugen writes nothing else)")
    p.add_argument("--format", choices=FORMATS, default="plain",
                   help="plain files, a CMake library, a PlatformIO library (lib/) or an Arduino library")
    p.add_argument("--board", help="pick the kernels for this board (the DSP ones on cores with DSP) and check "
                                   "the model fits it")
    p.add_argument("--static-arena", action="store_true",
                   help="the library owns its arena (a static array) instead of taking the caller's")
    outputs_arg(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("test", help="build, run on the board and compare with the golden model bit for bit",
                       description=STEPS_HELP + ", on the board as in the golden model.")
    board_args(p)
    p.add_argument("--samples", type=_sample_count, default=3)
    p.add_argument("--reset-every", type=_sample_count, metavar="K",
                   help="reset the model's state (on the board and in the golden model) before every K-th step")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data", help=DATA_HELP)
    p.add_argument("--labels", metavar="LABELS",
                   help=".npy of one class index per --data sample (or one-hot rows): report top-1 accuracy, "
                        "a confusion matrix and ACC/RMSE/MAE/L2r/COS per output")
    p.add_argument("--json", metavar="REPORT", help="write a JSON report here")
    p.add_argument("--force", action="store_true", help="overwrite an existing JSON report")
    p.add_argument("--profile", action="store_true", help="also read per-layer timings")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds one inference may take")
    p.add_argument("--port", help="serial port of a real board (or socket://host:port)")
    p.add_argument("--jobs", type=_job_count, default=1, metavar="N",
                   help="run N targets at once (host processes or QEMU instances of the one firmware), each "
                        "taking a contiguous slice of the samples; the report is the one a single target gives")
    p.add_argument("--shard", type=_shard, metavar="K/N",
                   help="validate only the K-th of N slices of the samples (K = 1..N); `mcugen report merge` "
                        "joins the N reports (--json) into the report of the whole run")
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("report", help="work with test reports")
    actions = p.add_subparsers(dest="action", required=True)
    m = actions.add_parser("merge", help="join the --json reports of the shards of one run (mcugen test --shard)")
    m.add_argument("reports", nargs="+", metavar="REPORT.json")
    m.add_argument("--json", metavar="REPORT", required=True, help="write the merged report here")
    m.add_argument("--force", action="store_true", help="overwrite an existing report")
    m.set_defaults(func=cmd_report_merge)

    p = sub.add_parser("flash", help="put a built firmware on the board (emulated boards: boot it in QEMU)")
    board_args(p, model=False)
    p.add_argument("--port", help="serial port of the board, e.g. /dev/ttyACM0")
    p.set_defaults(func=cmd_flash)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    from mcugen.outdir import release_locks

    try:
        return args.func(args)
    except McugenError as exc:
        print(f"mcugen: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("mcugen: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # stdout closed early (| head): nothing left to say
        sys.stderr.close()
        return 141
    except Exception as exc:  # noqa: BLE001 - one line instead of a traceback; MCUGEN_DEBUG=1 shows it
        if os.environ.get("MCUGEN_DEBUG"):
            raise
        print(f"mcugen: internal error ({type(exc).__name__}: {exc}); rerun with MCUGEN_DEBUG=1 "
              "and report it with the model", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        release_locks()
