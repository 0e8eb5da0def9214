"""What `--optimize` buys and costs on the Cortex-M4 (mps2-an386, the DSP kernels) for the six anchor models:
the constants against the model's weights and against balanced's room, the whole firmware against TFLM + CMSIS-NN's
for the same model (its op resolver holding only the model's ops, measured as the anchors are), the arena, and
one inference's estimated cycles at zero wait states and with the NUCLEO-L4R5ZI's flash timing (5 wait states,
ART cache), the latter against the best published MLPerf Tiny M4 result, which ran on that board. Each model is
compiled as `mcugen build --board nucleo-l4r5zi --estimate` compiles it (the L4R5's budget: its flash timing
decides which weights passes/stage_weights.py copies into the arena) and run on its emulated twin, the
mps2-an386, whose kernels are the same.

    python benchmarks/bench_optimize.py  # prints the table and rewrites it in benchmarks/README.md
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import OPTIMIZE
from mcugen.ir.lowering import const_bytes
from mcugen.passes.lower_ops import balanced_room
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import build_board
from mcugen.targets.target import Target
from mcugen.validation.compare import random_inputs
from mcugen.validation.cycles import estimate_cycles

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402
from bench_boards import ANCHORS, MLPERF_M4_MS, MODELS  # noqa: E402

# TFLM + CMSIS-NN's whole firmware for the model on the M4, its resolver holding only the model's ops (anchors.md)
TFLM_FIRMWARE = {"mlperf_kws_dscnn": 158_740, "mlperf_vww_mobilenet": 441_532, "mlperf_ic_resnet8": 201_372,
                 "mlperf_ad_autoencoder": 324_116, "tflm_person_detect": 389_268, "tflm_micro_speech": 95_544}


def main() -> int:
    board, l4r5 = load_board("mps2-an386"), load_board("nucleo-l4r5zi")
    rows = ["| model | --optimize | weights B | constants B | / weights | / balanced's room | firmware B | / TFLM + "
            "CMSIS-NN's | arena B | est. cycles | with the L4R5's flash | vs best MLPerf Tiny M4 (flash) |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in ANCHORS:
        for optimize in OPTIMIZE:
            g = compile_model(MODELS / f"{name}.tflite", features=l4r5.features,
                              budget=l4r5.budget(optimize=optimize))
            weights = sum(t.nbytes for t in g.tensors if t.is_const)
            consts = sum(const_bytes(op.call) for op in g.ops if op.call)
            with tempfile.TemporaryDirectory() as tmp:
                r = build_board(g, board, OutDir(Path(tmp) / board.id), name)
                e = estimate_cycles(Target.of(board.id), r.program, g, random_inputs(g, 1, seed=0)[0], board.cpu,
                                    memory=l4r5.memory_timing)
            timed = sum(e.layers_with_memory)
            best = MLPERF_M4_MS.get(name)
            versus = f"{timed / (best * 1e-3 * l4r5.clock_hz):.3f}" if best else ""
            rows.append(f"| {name} | {optimize} | {weights:,} | {consts:,} | {consts / weights:.2f} | "
                        f"{consts / balanced_room(g):.2f} | {r.image.flash:,} | "
                        f"{r.image.flash / TFLM_FIRMWARE[name]:.2f} | {g.arena.plan.size:,} | {e.cycles:,} | "
                        f"{timed:,} | {versus} |")
            print(rows[-1], flush=True)
    rewrite("optimize-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
