"""Arena vs TFLM's planned head, and emitted constants vs the model's weights, on every model in tests/models.

    python benchmarks/bench_memory.py            # prints the table and rewrites it in README.md

TFLM's head (the non-persistent, memory-planned activation area) is the measured figure in
tests/models/README.md. mcugen's arena holds everything TFLM's head does (activations,
inputs, outputs, scratch); TFLM additionally needs its tail (persistent interpreter state),
which mcugen does not have at all.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from mcugen.codegen.emit_c import emit_c
from mcugen.codegen.pipeline import compile_model

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "tests" / "models"


def tflm_arena() -> dict[str, tuple[int, int]]:
    """model stem -> (head, total) from the per-model sections of the models' README."""
    facts, current = {}, None
    for line in (MODELS / "README.md").read_text().splitlines():
        heading = re.match(r"### (\S+)\.tflite", line)
        if heading:
            current = heading.group(1)
        m = re.search(r"RecordingMicroAllocator total (\d+) B \(head/non-persistent (\d+)", line)
        if m and current:
            facts[current] = (int(m.group(2)), int(m.group(1)))
    return facts


def main() -> int:
    tflm = tflm_arena()
    rows = ["| model | mcugen arena B | TFLM head B | arena vs head | TFLM head + tail B | "
            "weights in model B | constants emitted B | constants / weights |",
            "|---|---|---|---|---|---|---|---|"]
    for path in sorted(MODELS.glob("*.tflite")):
        g = compile_model(path)
        arena = g.arena.plan.size
        weights = sum(t.nbytes for t in g.tensors if t.is_const)
        consts = emit_c(g, path.name).const_bytes
        head, total = tflm.get(path.stem, (0, 0))
        cells = [path.stem, f"{arena:,}", f"{head:,}" if head else "not measured",
                 f"{(arena - head) / head:+.1%}" if head else "n/a", f"{total:,}" if total else "n/a",
                 f"{weights:,}", f"{consts:,}", f"{consts / weights:.3f}" if weights else "n/a"]
        rows.append("| " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    rewrite("memory-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
