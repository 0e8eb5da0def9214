"""`mcugen flash`: the firmware of a previous `mcugen build` onto the board.

Emulated boards boot it in QEMU and answer the handshake (that is what flashing means there);
the Nano 33 BLE's offline build goes through its bootloader with bossac; stock PlatformIO
environments use `pio run -t upload`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from mcugen.errors import McugenError
from mcugen.firmware import PIO_ENV
from mcugen.outdir import stamp_of
from mcugen.targets import Target, connect, firmware_of, require_port


def _find_build(board_id: str, out: Path | None) -> Path:
    if out is not None:
        return out
    candidates = sorted(Path("mcugen_build").glob(f"*-{board_id}"))
    if len(candidates) != 1:
        raise McugenError(f"{len(candidates)} builds for {board_id} under mcugen_build/",
                          "say which one with --out DIR")
    return candidates[0]


def flash(target: Target, out: Path | None) -> int:
    board, port, stock = target.board, target.port, target.stock
    if board is None:
        raise McugenError("the host build needs no flashing", "run mcugen test MODEL --board host")
    board_id = board.id
    out = _find_build(board_id, out)
    held = stamp_of(out)
    if held is not None and held.get("board") != board_id:
        raise McugenError(f"{out} holds a build for {held.get('board')}, not {board_id}",
                          f"pass --board {held.get('board')}, or build for {board_id} into another folder")
    elf = firmware_of(target, out)
    if target.emulated:
        with connect(target, elf) as link:
            info = link.hello()
        print(f"{board.id}: QEMU booted {elf}; it runs model sha256 {info.sha256[:12]}…, arena {info.arena_bytes:,} B, "
              f"{info.layers} layers")
        return 0
    require_port(target)
    if stock:
        cmd = [sys.executable, "-m", "platformio", "run", "-d", str(out), "-e", "stock", "-t", "upload",
               "--upload-port", port]
    elif board.upload["method"] == "bossac":
        bossac = shutil.which("bossac")
        if not bossac:
            raise McugenError("bossac not found", "sudo apt-get install bossa-cli (or use Arduino's bossac)")
        binary = elf.with_suffix(".bin")
        subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", str(elf), str(binary)], check=True)
        # -U: USB port, -e -w: erase and write at the bootloader's offset, -R: reset into the firmware
        cmd = [bossac, f"--port={port}", "-U", "-e", "-w", f"--offset=0x{board.flash['origin']:x}", "-R", str(binary)]
    else:
        raise McugenError(f"{board.id} uploads with {board.upload['method']}, which needs its stock platform",
                          "build and flash with --stock")
    print(f"flashing {elf.name} to {board.id} on {port}", file=sys.stderr)
    proc = subprocess.run(cmd, env=dict(os.environ, **PIO_ENV))
    if proc.returncode != 0:
        raise McugenError(f"flashing {board.id} on {port} failed (exit code {proc.returncode})",
                          "check the port, double-tap reset to enter the bootloader, and retry")
    wiring = board.wiring(stock)
    if stock or not wiring:
        print(f"flashed {board.id}; check it with mcugen test MODEL --board {board.id} --port {port}"
              + (" --stock" if stock else ""))
    else:  # the offline firmware may talk on another serial than the one it was flashed through
        print(f"flashed {board.id} through {port}; the offline firmware talks on {wiring}: check it with "
              f"mcugen test MODEL --board {board.id} --port <that serial port>")
    return 0
