"""`mcugen boards`: the boards mcugen builds for (boards/*.yaml), as a table, JSON, or one in full."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the command reads the board files (YAML, JSON Schema) only when it runs
    from mcugen.targets.boards import Board


def describe(board: Board) -> dict[str, Any]:
    """What a user picks a board by: its chip, core and ISA extensions, memory, and how firmware reaches it."""
    features = sorted(board.features) + (["fpu"] if board.fpu else [])
    return dict(
        id=board.id, name=board.name, chip=board.chip.name, core=board.cpu.name, features=features,
        clock_hz=board.clock_hz, ram_bytes=board.ram.bytes, flash_bytes=board.flash.bytes,
        regions=[dict(name=r.name, kind=r.kind, bytes=r.bytes, external=r.external) for r in board.extra_regions],
        emulated=board.emulated, flasher=board.upload,
        serial=board.wiring(stock=False) or ("QEMU's " + board.link if board.emulated else ""),
        stock_serial=board.wiring(stock=True), cycle_estimate=board.cpu.timing is not None)


def _kb(n: int) -> str:
    return f"{n // 1024:,} KB" if n % 1024 == 0 else f"{n / 1024:,.1f} KB"


def cmd_boards(args) -> int:
    from mcugen.targets.boards import all_boards, load_board

    if args.board:
        boards = [load_board(args.board)]
    else:
        boards = sorted(all_boards().values(), key=lambda b: (not b.emulated, b.id))
    rows = [describe(b) for b in boards]
    if args.json:
        print(json.dumps(rows[0] if args.board else rows, indent=2))
        return 0
    if args.board:
        for key, value in rows[0].items():
            print(f"{key:<15} {value}")
        return 0
    print(f"{'board':<18} {'core':<16} {'features':<14} {'RAM':>10} {'flash':>10}  {'kind':<9} flasher")
    for r in rows:
        extra = f" +{len(r['regions'])} regions" if r["regions"] else ""
        print(f"{r['id']:<18} {r['core'].replace('Arm ', ''):<16} {','.join(r['features']) or '-':<14} "
              f"{_kb(r['ram_bytes']):>10} {_kb(r['flash_bytes']):>10}  {'emulated' if r['emulated'] else 'real':<9} "
              f"{r['flasher']}{extra}")
    return 0
