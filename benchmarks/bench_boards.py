"""Instructions per inference on the emulated Cortex-M4 (QEMU mps2-an386) and Cortex-M7 (mps2-an500),
estimated Cortex-M4 cycles (mcugen/validation/cycles.py) against the published MLPerf Tiny results, and flash/RAM
on the Arduino Nano 33 BLE, for the six models whose TFLM figures ANCHORS holds.

    python benchmarks/bench_boards.py            # prints the tables and rewrites them in README.md

Instructions: SysTick ticks under `-icount shift=0` (one instruction = 1 ns of virtual time, SysTick
at the board's 25 MHz) times 40. Deterministic: the same binary and input give the same count.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mcugen import ops
from mcugen.targets.boards import load_board
from mcugen.validation.compare import random_inputs
from mcugen.validation.cycles import estimate_cycles
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "tests" / "models"
# TFLM reference kernels, TFLM + CMSIS-NN (instructions), TFLM arena_used (B), measured on the same
# emulated board: tflite-micro 90b983c2 (TARGET_ARCH=cortex-m4+fp, release_with_logs, kernels -O2) and
# CMSIS-NN 4ab83cc3, Debian arm-none-eabi-gcc 12.2.1, counted around Invoke() with -icount shift=0
ANCHORS = {
    "mlperf_kws_dscnn": (43_040_197, 7_698_245, 22_772),
    "mlperf_vww_mobilenet": (100_241_902, 24_102_773, 100_660),
    "mlperf_ic_resnet8": (107_406_484, 29_862_098, 54_340),
    "mlperf_ad_autoencoder": (1_952_626, 583_256, 2_260),
    "tflm_person_detect": (95_685_839, 22_929_265, 82_292),
    "tflm_micro_speech": (9_311_342, 1_495_445, 6_788),
}
# The best published MLPerf Tiny v1.1-v1.3 closed-division result on a Cortex-M4 (NUCLEO-L4R5ZI at
# 120 MHz), in ms: ST X-CUBE-AI 10.2 for KWS, VWW, IC; Plumerai for AD (mlcommons.org results tables)
MLPERF_M4_MS = {"mlperf_kws_dscnn": 43.4, "mlperf_vww_mobilenet": 89.4, "mlperf_ic_resnet8": 165.7,
                "mlperf_ad_autoencoder": 4.05}
# TFLM + CMSIS-NN estimated M4 cycles, where measured with the same timing model (anchors.md)
CMSIS_CYCLES = {"mlperf_kws_dscnn": 9_089_678}


def op_class(g, op) -> str | None:
    """Which row of the per-op table a layer counts in (None: ops without MACs, and convs fused into a
    later layer, which count there as "<conv's kind> + <consumer>", with both layers' MACs)."""
    fused = [p for p in g.ops if p.fused_into == op.index]
    if fused:
        return f"{kind_of(g, fused[0])} + {op.opcode}"
    if op.call is None or ops.lookup(op.opcode).macs(g, op) == 0:
        return None
    return kind_of(g, op)


def kind_of(g, op) -> str:
    """A layer's kind by its op and shapes."""
    if op.opcode == "FULLY_CONNECTED":
        return "FULLY_CONNECTED"
    x, w = op.input(g, 0), op.input(g, 1)
    if op.opcode == "DEPTHWISE_CONV_2D" and x.shape[3] > 1:
        return f"depthwise {w.shape[1]}x{w.shape[2]}"
    if x.shape[3] <= 3:
        return "first layer (1-3 input channels)"
    return "1x1 conv" if w.shape[1] == w.shape[2] == 1 else f"{w.shape[1]}x{w.shape[2]} conv"


def main() -> int:
    an386, an500, nano = load_board("mps2-an386"), load_board("mps2-an500"), load_board("nano33")
    per_tick = 1e9 / an386.clock_hz
    speed = ["| model | MACs | mcugen instructions | TFLM reference | vs TFLM ref | TFLM + CMSIS-NN | vs CMSIS-NN "
             "| mcugen on the M7 (an500) |", "|---|---|---|---|---|---|---|---|"]
    size = ["| model | mcugen flash B | mcugen RAM B (arena) | TFLM arena_used B | RAM vs TFLM's arena |",
            "|---|---|---|---|---|"]
    l4r5 = load_board("nucleo-l4r5zi")  # the MLPerf Tiny reference board: its flash timing
    cycles = ["| model | MACs | est. cycles | CPI | MAC / cycle | ms at 120 MHz | with the L4R5's flash: est. cycles "
              "| ms | best MLPerf Tiny M4 ms | vs best | vs best, with the flash | TFLM + CMSIS-NN est. cycles "
              "| vs CMSIS-NN |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    per_op: dict[str, list] = {}
    for name, (ref, cmsis, tflm_arena) in ANCHORS.items():
        g = compile_model(MODELS / f"{name}.tflite", features=frozenset({"dsp"}))  # both boards have the DSP extension
        with tempfile.TemporaryDirectory() as tmp:
            r = build_board(g, an386, OutDir(Path(tmp) / "an386"), name)
            _, results = run_on_target(Target.of(an386.id), r.program, g, random_inputs(g, 1, seed=0), profile=True)
            assert results[0].passed, f"{name} is not bit-exact on {an386.id}"
            estimate = estimate_cycles(Target.of(an386.id), r.program, g, random_inputs(g, 1, seed=0)[0],
                                       an386.cpu, memory=l4r5.memory_timing)
            n = build_board(g, nano, OutDir(Path(tmp) / "nano33"), name)
            m7 = build_board(g, an500, OutDir(Path(tmp) / "an500"), name)  # the same kernels built for the M7
            _, on_m7 = run_on_target(Target.of(an500.id), m7.program, g, random_inputs(g, 1, seed=0))
            assert on_m7[0].passed, f"{name} is not bit-exact on {an500.id}"
        instructions = int(results[0].cycles * per_tick)
        for op, ticks, spent in zip(g.ops, results[0].layer_cycles, estimate.layers):
            kind = op_class(g, op)
            if kind:
                done = per_op.setdefault(kind, [0, 0, 0, set()])
                done[0] += ticks * per_tick
                done[1] += spent
                done[2] += sum(ops.lookup(o.opcode).macs(g, o) for o in g.ops
                               if o.index == op.index or o.fused_into == op.index)
                done[3].add(name)
        macs = sum(ops.lookup(op.opcode).macs(g, op) for op in g.ops)
        best, theirs = MLPERF_M4_MS.get(name), CMSIS_CYCLES.get(name)
        ms = estimate.cycles / 120e3
        flash = sum(estimate.layers_with_memory)
        cycles.append(f"| {name} | {macs:,} | {estimate.cycles:,} | {estimate.cycles / estimate.instructions:.2f} | "
                      f"{macs / estimate.cycles:.2f} | {ms:.1f} | {flash:,} | {flash / 120e3:.1f} | {best or 'n/a'} | "
                      f"{f'{ms / best:.2f}' if best else 'n/a'} | {f'{flash / 120e3 / best:.2f}' if best else 'n/a'} | "
                      f"{f'{theirs:,}' if theirs else 'not measured'} | "
                      f"{f'{estimate.cycles / theirs:.2f}' if theirs else 'n/a'} |")
        speed.append(f"| {name} | {macs:,} | {instructions:,} | {ref:,} | {instructions / ref:.2f} | {cmsis:,} | "
                     f"{instructions / cmsis:.2f} | {int(on_m7[0].cycles * 1e9 / an500.clock_hz):,} |")
        size.append(f"| {name} | {n.image.flash:,} | {n.image.ram:,} ({g.arena.plan.size:,}) | {tflm_arena:,} | "
                    f"{n.image.ram / tflm_arena:.2f} |")
        print(speed[-1], cycles[-1], size[-1], sep="\n", flush=True)
    kinds = ["| layers | MACs | instructions | instructions / MAC | est. cycles | cycles / MAC | in |",
             "|---|---|---|---|---|---|---|"]
    for kind, (spent, est, macs, models) in sorted(per_op.items(), key=lambda kv: -kv[1][1]):
        kinds.append(f"| {kind} | {macs:,} | {int(spent):,} | {spent / macs:.2f} | {est:,} | {est / macs:.2f} | "
                     f"{', '.join(sorted(models))} |")
    print(*kinds, sep="\n")
    rewrite("board-speed-table", speed)
    rewrite("board-cycles-table", cycles)
    rewrite("board-op-table", kinds)
    rewrite("board-size-table", size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
