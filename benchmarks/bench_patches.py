"""Patch-based inference (issue 61) on the Cortex-M4's kernels (mps2-an386, the DSP kernels and their fused
strips): for each model, the whole-tensor arena, then for 2, 4, 8 and 16 bands the smallest arena any stage end
gives and the MACs it recomputes, then for 4x4 and 6x6 patches the same at the three ends whose most bands gave
the smallest arenas (a grid's compile takes up to 15 s on MobileNetV2), against TFLM's arena_used
(bench_boards.ANCHORS) where measured. Planning only: nothing runs (tests/test_patches.py runs patched models
bit-exact on QEMU).

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
GRIDS = (4, 6)


def main() -> int:
    board = load_board("mps2-an386")
    budget = board.budget()
    rows = ["| model | whole-tensor arena B | / TFLM arena_used | " + " | ".join(
        [f"{b} bands: arena B (MACs)" for b in BANDS] + [f"{n}x{n} patches: arena B (MACs)" for n in GRIDS])
            + " | smallest / TFLM arena_used |", "|---|---|---|" + "---|" * (len(BANDS) + len(GRIDS)) + "---|"]
    for name in NAMES:
        g = lower(MODELS / f"{name}.tflite")
        whole = arena_bytes(back_end(g, board.features, None, budget))
        tflm = ANCHORS.get(name, (0, 0, 0))[2]
        banded = {}  # each end's smallest arena in bands
        sized = [_sized(g, board, budget, Stage(end, bands)) for bands in BANDS for end in stage_ends(g)]
        for size, _, stage in filter(None, sized):
            banded[stage.end] = min(size, banded.get(stage.end, size))
        closest = sorted(banded, key=banded.__getitem__)[:3]
        sized += [_sized(g, board, budget, Stage(end, n, n)) for n in GRIDS for end in closest]
        cells = []
        for shape in [(b, 1) for b in BANDS] + [(n, n) for n in GRIDS]:
            found = [cell for cell in sized if cell and (cell[2].bands, cell[2].columns) == shape]
            size, cost, _ = min(found, default=(0, 0, None))
            cells.append(f"{size:,} ({cost / macs(g) - 1:+.1%})" if found else "")
        smallest = min([whole] + [cell[0] for cell in sized if cell])
        ratio = (lambda b: f"{b / tflm:.2f}" if tflm else "")
        rows.append(f"| {name.split('/')[-1]} | {whole:,} | {ratio(whole)} | " + " | ".join(cells)
                    + f" | {ratio(smallest)} |")
        print(rows[-1], flush=True)
    rewrite("patches-table", rows)
    return 0


def _sized(g, board, budget, stage: Stage) -> tuple[int, int, Stage] | None:
    """(arena, MACs, stage) of the stage in patches; None where its output has too few rows or columns."""
    height, width = g.tensors[g.ops[stage.end].outputs[0]].shape[1:3]
    if stage.bands > height or stage.columns > width:
        return None
    compiled = back_end(split_patches(g, stage), board.features, None, budget)
    return arena_bytes(compiled), banded_macs(g, stage), stage


if __name__ == "__main__":
    sys.exit(main())
