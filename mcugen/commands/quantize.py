"""`mcugen quantize`: the user's float model to a checked integer one, per-layer error reported."""
from __future__ import annotations

import math
import sys
from pathlib import Path

from mcugen.commands.common import refuse_overwrite, write_atomically, write_json
from mcugen.errors import McugenError

MIN_SAMPLES = 10  # fewer ranges than this describe the samples, not the data
CHECK_SAMPLES = 2  # samples on which TFLM and the golden model must agree at every layer
ERROR_SAMPLES = 32  # samples the per-layer error is measured on


def cmd_quantize(args) -> int:
    from mcugen.dataset import load_samples
    from mcugen.quantize.measure import accuracy, layer_errors, output_predictions
    from mcugen.quantize.model import load_float_model
    from mcugen.quantize.recipe import Plan, calibrate, check, describe, quantize

    source, out = Path(args.model), Path(args.out)
    if out.resolve() == source.resolve():
        raise McugenError(f"--out {out} is the float model itself", "write the quantized model to another file")
    refuse_overwrite(out, args.force)
    if args.json:
        refuse_overwrite(Path(args.json), args.force)
    model = load_float_model(source, args.signature)
    samples = load_samples(model.graph, Path(args.data))
    if len(samples) < MIN_SAMPLES:
        raise McugenError(f"{args.data} holds {len(samples)} sample(s); calibration needs at least {MIN_SAMPLES}",
                          "give a few hundred samples like the data the model will see")
    plan = Plan(args.precision, io=args.io, per_tensor=args.per_tensor)
    say(f"calibrating {source.name} on {len(samples)} samples")
    ranges = calibrate(model, samples)
    say(f"quantizing: {describe(plan)}")
    checked = check(quantize(model, ranges, plan), out.stem, samples[:CHECK_SAMPLES])
    measured = samples[:ERROR_SAMPLES]
    say(f"measuring each layer's error against the float model on {len(measured)} samples")
    errors = layer_errors(model.graph, checked.graph, measured)
    reference = output_predictions(model.graph, measured)
    acc = accuracy(checked.graph, measured, reference, None)
    print(format_errors(errors))
    weights = sum(t.nbytes for t in checked.graph.tensors if t.is_const)
    print(f"output '{checked.graph.tensors[checked.graph.outputs[0]].name}': SNR {_db(acc.snr_db)} against the "
          f"float model; top-1 agrees with it on {acc.top1:.1%} of {len(measured)} samples")
    print(f"size: {len(model.content):,} B float -> {len(checked.content):,} B ({weights:,} B of constants)")
    print(f"checked: TFLM runs it and the golden model equals TFLM at every layer ({CHECK_SAMPLES} samples)")
    write_atomically(out, lambda f: f.write(checked.content), ".tflite")
    if args.json:
        write_json(Path(args.json), dict(
            model=str(source), out=str(out), plan=dict(precision=plan.default, io=plan.io, per_tensor=plan.per_tensor),
            samples=len(samples), bytes=dict(float=len(model.content), quantized=len(checked.content),
                                             constants=weights),
            output=dict(snr_db=_finite(acc.snr_db), top1_agreement=acc.top1),
            layers=[dict(index=e.index, op=e.opcode, precision=e.precision, tensor=e.tensor,
                         snr_db=_finite(e.snr_db), max_abs_error=e.max_abs) for e in errors]))
    print(f"wrote {out}")
    return 0


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _db(value: float | None) -> str:
    if value is None:
        return "-"
    return "exact" if value == math.inf else f"{value:.1f} dB"


def _finite(value: float | None) -> float | str | None:
    """JSON has no infinity: an exact layer's SNR is "inf"."""
    return "inf" if value == math.inf else value


def format_errors(errors) -> str:
    lines = [f"{'idx':>5}  {'op':<22} {'precision':<14} {'SNR':>9}  {'max abs err':>11}  tensor"]
    for e in errors:
        worst = "-" if e.max_abs is None else f"{e.max_abs:.4g}"
        lines.append(f"{e.index:>5}  {e.opcode:<22} {e.precision:<14} {_db(e.snr_db):>9}  {worst:>11}  "
                     f"{e.tensor[:60]}")
    return "\n".join(lines)
