"""Patch-based inference (issue 61) on the Cortex-M4's kernels (mps2-an386, the DSP kernels and their fused
strips): for each model, the whole-tensor arena, then for 2, 4, 8 and 16 bands the smallest arena any stage end
gives and the MACs it recomputes, against TFLM's arena_used (bench_boards.ANCHORS) where measured. Planning only:
nothing runs (tests/test_patches.py runs banded models bit-exact on QEMU).

    python benchmarks/bench_patches.py     # prints the table and rewrites it in benchmarks/README.md
"""
from __future__ import annotations

import sys
from pathlib import Path

from mcugen.codegen.patch_plan import arena_bytes, banded_macs, macs
from mcugen.codegen.pipeline import back_end, lower
from mcugen.passes.split_patches import Stage, split_patches, stage_ends
from mcugen.targets.boards import load_board

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402
from bench_boards import ANCHORS, MODELS  # noqa: E402

NAMES = ("tflm_xtensa_mobilenet_v2_224", "tflm_person_detect", "mlperf_vww_mobilenet", "mlperf_ic_resnet8",
         "mlperf_kws_dscnn", "real/tflm_custom_model_rf_keras")
BANDS = (2, 4, 8, 16)


def main() -> int:
    board = load_board("mps2-an386")
    budget = board.budget()
    rows = ["| model | whole-tensor arena B | / TFLM arena_used | " + " | ".join(
        f"{b} bands: arena B (MACs)" for b in BANDS) + " | smallest / TFLM arena_used |",
            "|---|---|---|" + "---|" * len(BANDS) + "---|"]
    for name in NAMES:
        g = lower(MODELS / f"{name}.tflite")
        whole = arena_bytes(back_end(g, board.features, None, budget))
        tflm = ANCHORS.get(name, (0, 0, 0))[2]
        cells, smallest = [], whole
        for bands in BANDS:
            sized = []
            for end in stage_ends(g):
                if g.tensors[g.ops[end].outputs[0]].shape[1] >= bands:
                    stage = Stage(end, bands)
                    sized.append((arena_bytes(back_end(split_patches(g, stage), board.features, None, budget)),
                                  banded_macs(g, stage), end))
            if not sized:
                cells.append("")
                continue
            size, cost, _ = min(sized)
            smallest = min(smallest, size)
            cells.append(f"{size:,} ({cost / macs(g) - 1:+.1%})")
        ratio = (lambda b: f"{b / tflm:.2f}" if tflm else "")
        rows.append(f"| {name.split('/')[-1]} | {whole:,} | {ratio(whole)} | " + " | ".join(cells)
                    + f" | {ratio(smallest)} |")
        print(rows[-1], flush=True)
    rewrite("patches-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
