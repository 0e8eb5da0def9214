"""Golden model vs the TFLM Python interpreter: mean time per inference on every shared model.

    python benchmarks/bench_golden.py            # prints the table and rewrites it in README.md

Same random int8 input for both; each timed over enough invokes to take ~1 s, after a warm-up.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path


from mcugen import golden
from mcugen.compare import random_inputs
from mcugen.oracle import Tflm
from mcugen.pipeline import lower

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT.parent / "shared" / "models"


def per_call(fn, budget=1.0) -> float:
    fn()
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget or calls < 3:
        fn()
        calls += 1
    return (time.perf_counter() - start) / calls


def main() -> int:
    rows = ["| model | MACs | golden ms | TFLM interpreter ms | golden / TFLM |", "|---|---|---|---|---|"]
    for path in sorted(MODELS.glob("*.tflite")):
        g = lower(path)
        xs = random_inputs(g, 1, seed=0)[0]
        tflm = Tflm(path)
        t_golden = per_call(lambda: golden.run(g, xs))
        t_tflm = per_call(lambda: tflm.run(xs, len(g.outputs)))
        from mcugen.inspect_model import summarize
        macs = summarize(g)["totals"]["macs"]
        rows.append(f"| {path.stem} | {macs:,} | {t_golden * 1e3:.2f} | {t_tflm * 1e3:.2f} | "
                    f"{t_golden / t_tflm:.2f} |")
        print(rows[-1], flush=True)
    rewrite("golden-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
