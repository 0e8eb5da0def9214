"""Commands that run on the host only: inspect, run (the golden model), compare (with the oracle)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np

from mcugen.validation import golden
from mcugen.commands.common import (oracle_name, oracles_refuse, progress, refuse_overwrite, require_writable_folder,
                                    steps_note, write_npz_atomically)
from mcugen.errors import EXIT_ERROR, EXIT_MISMATCH, McugenError


def cmd_inspect(args) -> int:
    from mcugen.validation.inspect_model import format_text, summarize
    from mcugen.codegen.pipeline import read

    g = read(args.model, args.signature)
    summary = summarize(g)
    if summary["supported"]:
        summary["oracle"] = oracle_name(Path(args.model), args.signature)
        refused = oracles_refuse(g, summary["oracle"])
        if refused:
            summary.update(supported=False, problems=[refused])
    print(json.dumps(summary, indent=2) if args.json else format_text(summary, args.model))
    return 0 if summary["supported"] else EXIT_ERROR


def cmd_run(args) -> int:
    from mcugen.validation.dataset import load_samples
    from mcugen.codegen.pipeline import lower

    out_path = Path(args.output)
    if out_path.suffix != ".npz":
        raise McugenError(f"--output {out_path}: outputs are written as one .npz (output_0, output_1, …)",
                          "name the file .npz")
    refuse_overwrite(out_path, args.force)
    dump = Path(args.dump_layers) if args.dump_layers else None
    if dump:
        require_writable_folder(dump, f"--dump-layers {dump}")
        if dump.exists() and any(dump.iterdir()) and not args.force:
            raise McugenError(f"{dump} is not empty", "choose an empty directory or pass --force")
    g = lower(args.model, tuple(args.outputs), args.signature)
    samples = load_samples(g, Path(args.data))
    if dump and len(samples) > 1:
        raise McugenError(f"{args.data} holds {len(samples)} samples; --dump-layers writes one sample's layers",
                          "pass a file with one sample")

    def write_layer(idx: int, value: np.ndarray, dump: Path) -> None:
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
    into = dump
    results = [runner.run(xs, on_tensor=(lambda idx, v: write_layer(idx, v, into)) if into else None)
               for xs in samples]
    outputs = [np.stack(ys) if samples.stacked else ys[0] for ys in zip(*results)]
    write_npz_atomically(out_path, {f"output_{k}": y for k, y in enumerate(outputs)})
    print(f"wrote {len(outputs)} output(s) of {len(samples)} sample(s) to {out_path}"
          + (f" and {len(g.ops)} layer tensors to {dump}/" if dump else ""))
    return 0


def cmd_compare(args) -> int:
    from mcugen.validation.compare import compare_with_oracle, random_inputs
    from mcugen.validation.dataset import load_samples
    from mcugen.codegen.pipeline import lower

    g = lower(args.model, tuple(args.outputs), args.signature)
    samples = load_samples(g, Path(args.data)) if args.data else random_inputs(g, args.samples, args.seed)
    source = args.data or f"random inputs, seed {args.seed}"
    print(f"comparing golden model with its oracle on {len(samples)} sample(s) ({source}){steps_note(g, None)}",
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
