"""Arenas across a real chip's RAM regions (issue 28): on the memory maps of the NUCLEO-L4R5ZI (the MLPerf
Tiny reference board) and of an STM32H743 board, which of the repository's models fit with their arena in
the single largest region (what TFLM's one arena can use) and which fit with it spread over the regions,
and on the H7 the share of each model's activation accesses (the placement's proxy: bytes written once and
read once per reading layer) that land in the 128 KB DTCM.

    python benchmarks/bench_regions.py     # prints the tables and rewrites them in benchmarks/README.md

The maps come from ST's reference manuals (RM0432 for the L4R5, RM0433 for the H743): regions by address,
RAM only (the stack and the application's data take 16 KB of the main region). Planning only: nothing runs.
"""
from __future__ import annotations

import sys
from pathlib import Path

from mcugen.errors import McugenError
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.planner import Region
from mcugen.ir.budget import Budget

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODELS = sorted([*ROOT.glob("tests/models/*.tflite"), *ROOT.glob("tests/models/real/*.tflite")])
FEATURES = frozenset({"dsp"})  # both are Cortex-M4/M7 parts with the DSP extension
RESERVED = 16 * 1024  # stack and the application's own data, in the main region
KB = 1024

MAPS = {
    # RM0432: SRAM1 192 KB at 0x20000000, SRAM2 64 KB at 0x20030000, SRAM3 384 KB at 0x20040000: adjacent,
    # so one arena spans them (TFLM's does, and so does mcugen's board file); SRAM2's alias at 0x10000000
    # is the same memory. One region, then: what regions add on this chip is nothing
    "NUCLEO-L4R5ZI": (Region("SRAM1_2_3", 640 * KB - RESERVED, 1),),
    # RM0433: AXI SRAM 512 KB at 0x24000000 (the main RAM), DTCM 128 KB at 0x20000000 (0 wait states at the
    # core's clock), SRAM1-3 288 KB at 0x30000000 (D2 domain), SRAM4 64 KB at 0x38000000 (D3 domain)
    "STM32H743": (Region("AXI_SRAM", 512 * KB - RESERVED, 1), Region("DTCM", 128 * KB, 0),
                  Region("SRAM123", 288 * KB, 2), Region("SRAM4", 64 * KB, 2)),
}


def fits(path: Path, regions) -> tuple[int, object] | None:
    """The planned arena bytes and the graph when the model's activations fit `regions`, else None."""
    try:
        g = compile_model(path, features=FEATURES, budget=Budget(regions=regions))
    except McugenError as exc:
        if "do not fit the RAM regions" in str(exc):
            return None
        raise
    return sum(size for _, size in g.arena.plan.region_sizes), g


def main() -> int:
    for board, regions in MAPS.items():
        largest = max(regions, key=lambda r: r.capacity)
        rows = [f"| model | arena in one region (B) | fits {largest.name} ({largest.capacity:,} B) alone | "
                f"fits the regions ({sum(r.capacity for r in regions):,} B) | placement (B per region) |"
                + (" accesses in DTCM |" if board == "STM32H743" else ""), "|---|---|---|---|---|"
                + ("---|" if board == "STM32H743" else "")]
        for path in MODELS:
            try:
                whole = compile_model(path, features=FEATURES).arena.plan.size
            except McugenError:
                continue  # a model mcugen refuses (tests/models/real says which and why)
            alone = whole <= largest.capacity
            spread = fits(path, regions)
            placement = ", ".join(f"{n} {s:,}" for n, s in spread[1].arena.plan.region_sizes if s) if spread else ""
            row = (f"| {path.stem} | {whole:,} | {'yes' if alone else 'no'} | {'yes' if spread else 'no'} | "
                   f"{placement} |")
            if board == "STM32H743":
                if spread:
                    plan, accesses = spread[1].arena.plan, spread[1].arena.accesses
                    tcm = sum(a for k, a in enumerate(accesses) if plan.region(k) == "DTCM")
                    row += f" {tcm / max(sum(accesses), 1):.0%} |"
                else:
                    row += " |"
            rows.append(row)
            print(row, flush=True)
        rewrite(f"regions-{board.lower()}", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
