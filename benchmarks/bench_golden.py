"""Golden model vs the TFLM Python interpreter: mean time per inference on every model in tests/models.

    python benchmarks/bench_golden.py            # prints the table and rewrites it in README.md

Same random int8 input for both, each prepared once (golden.Runner, TFLM's Interpreter) and timed
per inference: batches of ~0.1 s alternate between the two, 7 each after a warm-up, and each
side's best batch counts, so that other load on a shared machine favours neither.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from mcugen.validation import golden
from mcugen.validation.compare import random_inputs
from mcugen.validation.inspect_model import summarize
from mcugen.validation.oracle import TflmInProcess
from mcugen.codegen.pipeline import lower

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402 - after the path tweak

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "tests" / "models"


def per_call(*fns, batches=7, budget=0.1) -> list[float]:
    best = [float("inf")] * len(fns)
    for fn in fns:
        fn()
    for _ in range(batches):
        for k, fn in enumerate(fns):
            calls, start = 0, time.perf_counter()
            while time.perf_counter() - start < budget or calls < 3:
                fn()
                calls += 1
            best[k] = min(best[k], (time.perf_counter() - start) / calls)
    return best


def main() -> int:
    rows = ["| model | MACs | golden ms | TFLM interpreter ms | golden / TFLM |", "|---|---|---|---|---|"]
    for path in sorted(MODELS.glob("*.tflite")):
        g = lower(path)
        xs = random_inputs(g, 1, seed=0)[0]
        # both prepared once, then timed per inference
        ours, tflm, n_out = golden.Runner(g), TflmInProcess(path.read_bytes()), len(g.outputs)
        t_golden, t_tflm = per_call(lambda ours=ours, xs=xs: ours.run(xs),
                                    lambda tflm=tflm, xs=xs, n_out=n_out: tflm.run(xs, n_out))
        macs = summarize(g)["totals"]["macs"]
        rows.append(f"| {path.stem} | {macs:,} | {t_golden * 1e3:.2f} | {t_tflm * 1e3:.2f} | "
                    f"{t_golden / t_tflm:.2f} |")
        print(rows[-1], flush=True)
    rewrite("golden-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
