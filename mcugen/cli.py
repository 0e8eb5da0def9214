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

EXIT_ERROR = 1
EXIT_MISMATCH = 2
EXIT_INTERNAL = 70


def progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\r  sample {done}/{total}", end=end, file=sys.stderr, flush=True)
    elif done == total or done % 10 == 0:
        print(f"  sample {done}/{total}", file=sys.stderr, flush=True)


def _load_npy(path: str) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise McugenError(f"{path}: no such file", "check the --input path") from None
    except (OSError, ValueError) as exc:
        raise McugenError(f"{path}: not a .npy array ({exc})", "save inputs with numpy.save") from None


def _refuse_overwrite(path: Path, force: bool) -> None:
    if path.exists() and not force:
        raise McugenError(f"{path} already exists", "choose another path or pass --force")


def _write_npz_atomically(path: Path, arrays: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
    with os.fdopen(fd, "wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


def cmd_inspect(args) -> int:
    from mcugen.inspect_model import format_text, summarize
    from mcugen.read_tflite import read_tflite

    summary = summarize(read_tflite(args.model).verify())
    print(json.dumps(summary, indent=2) if args.json else format_text(summary))
    return 0 if summary["supported"] else EXIT_ERROR


def cmd_run(args) -> int:
    from mcugen.pipeline import lower

    g = lower(args.model)
    out_path = Path(args.output)
    _refuse_overwrite(out_path, args.force)
    dump = Path(args.dump_layers) if args.dump_layers else None
    if dump and dump.exists() and any(dump.iterdir()) and not args.force:
        raise McugenError(f"{dump} is not empty", "choose an empty directory or pass --force")
    inputs = [_load_npy(p) for p in args.input]

    def write_layer(idx: int, value: np.ndarray) -> None:
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", g.tensors[idx].name)[:80]
        np.save(dump / f"t{idx:04d}_{safe}.npy", value)

    if dump:
        dump.mkdir(parents=True, exist_ok=True)
    outputs = golden.run(g, inputs, on_tensor=write_layer if dump else None)
    _write_npz_atomically(out_path, {f"output_{k}": y for k, y in enumerate(outputs)})
    print(f"wrote {len(outputs)} output(s) to {out_path}"
          + (f" and {len(g.ops)} layer tensors to {dump}/" if dump else ""))
    return 0


def cmd_compare(args) -> int:
    from mcugen.compare import compare_with_tflm, load_samples, random_inputs
    from mcugen.pipeline import lower

    g = lower(args.model)
    samples = (load_samples(g, Path(args.data)) if args.data
               else random_inputs(g, args.samples, args.seed))
    source = args.data or f"random inputs, seed {args.seed}"
    print(f"comparing golden model with TFLM on {len(samples)} sample(s) ({source})", file=sys.stderr)
    mismatch = compare_with_tflm(g, Path(args.model), samples, progress=progress)
    if mismatch:
        print(mismatch)
        return EXIT_MISMATCH
    print(f"bit-exact on {len(samples)} sample(s): all {len(g.ops)} layer outputs equal TFLM's")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mcugen", description=__doc__)
    parser.add_argument("--version", action="version", version=f"mcugen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("inspect", help="describe a model and say whether mcugen supports it")
    p.add_argument("model")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_inspect)

    p = sub.add_parser("run", help="run the golden model on the host")
    p.add_argument("model")
    p.add_argument("--input", action="append", required=True, help=".npy file, one per model input")
    p.add_argument("--output", required=True, help=".npz to write (output_0, output_1, …)")
    p.add_argument("--dump-layers", metavar="DIR", help="write every intermediate tensor here")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("compare", help="golden model vs TFLM, layer by layer")
    p.add_argument("model")
    p.add_argument("--samples", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data", help=".npz of inputs (input_0, …; optional leading sample axis)")
    p.set_defaults(func=cmd_compare)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except McugenError as exc:
        print(f"mcugen: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("mcugen: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - one line instead of a traceback; MCUGEN_DEBUG=1 shows it
        if os.environ.get("MCUGEN_DEBUG"):
            raise
        print(f"mcugen: internal error ({type(exc).__name__}: {exc}); rerun with MCUGEN_DEBUG=1 "
              "and report it with the model", file=sys.stderr)
        return EXIT_INTERNAL
