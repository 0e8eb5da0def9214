"""`mcugen flash`: the firmware of a previous `mcugen build` onto the board.

Emulated boards boot it in QEMU and answer the handshake (that is what flashing means there);
the offline builds of real boards go through the board's own way in: the Nano 33 BLE's bootloader
(bossac), an ST-LINK (st-flash), a J-Link (JLinkExe), the Pico's USB drive (firmware.uf2 copied
onto it), Alif's Security Toolkit (the Ensemble's Secure Enclave writes MRAM); stock PlatformIO
environments use `pio run -t upload`.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcugen.targets.boards import Uf2Image
from mcugen.targets.chips import ALIF_IMAGE, binary_image
from mcugen.errors import McugenError
from mcugen.targets.firmware import PIO_ENV
from mcugen.codegen.outdir import stamp_of
from mcugen.targets.target import Target, connect, firmware_of, open_stream, require_port


def _find_build(board_id: str, out: Path | None) -> Path:
    if out is not None:
        return out
    candidates = sorted(Path("mcugen_build").glob(f"*-{board_id}"))
    if len(candidates) != 1:
        raise McugenError(f"{len(candidates)} builds for {board_id} under mcugen_build/",
                          "say which one with --out DIR")
    return candidates[0]


def _tool(name: str, fix: str) -> str:
    found = shutil.which(name)
    if not found:
        raise McugenError(f"{name} not found", fix)
    return found


def _uf2_drive(label: str) -> Path:
    """The mounted USB drive a UF2 bootloader shows (Linux desktops mount it by label under /media or
    /run/media, macOS under /Volumes)."""
    found = [p for pattern in (f"/media/*/{label}", f"/media/{label}", f"/run/media/*/{label}", f"/Volumes/{label}")
             for p in sorted(Path("/").glob(pattern.lstrip("/"))) if p.is_dir()]
    if not found:
        raise McugenError(f"no {label} drive is mounted",
                          "hold the board's BOOTSEL button while plugging it in (it shows as a USB drive), then rerun")
    return found[0]


def _alif_setools(elf: Path) -> list[str]:
    """Alif's Security Toolkit (not in any package manager: a download from alifsemi.com, found through
    ALIF_SETOOLS) takes the image and its boot table config into its build folders under mcugen's own
    names, builds the table (app-gen-toc) and returns the command that writes MRAM (app-write-mram, on
    the Secure Enclave's serial port its isp_config_data.cfg names)."""
    root = Path(os.environ.get("ALIF_SETOOLS", ""))
    if not os.environ.get("ALIF_SETOOLS") or not (root / "app-gen-toc").exists():
        raise McugenError("Alif's Security Toolkit not found (ALIF_SETOOLS is not set to a folder holding app-gen-toc)",
                          "download SETOOLS from alifsemi.com and export ALIF_SETOOLS=FOLDER (the toolkit's)")
    config = Path("build") / "config" / ALIF_IMAGE.replace(".bin", ".json")
    try:
        shutil.copyfile(elf.with_suffix(".bin"), root / "build" / "images" / ALIF_IMAGE)
        shutil.copyfile(elf.with_suffix(".atoc.json"), root / config)
    except OSError as exc:
        raise McugenError(f"copying the firmware into {root / 'build'} failed ({exc.strerror or exc})",
                          "check that ALIF_SETOOLS is the toolkit's folder and writable") from None
    if subprocess.run([str(root / "app-gen-toc"), "-f", str(config)], cwd=root).returncode != 0:
        raise McugenError("app-gen-toc could not build the boot table",
                          f"see its output above; the config is {root / config}")
    return [str(root / "app-write-mram"), "-p"]


def flash(target: Target, out: Path | None, serial: tuple[str, int | None] | None = None) -> int:
    """`serial`: --serial's (kind, port): an emulated board's UART served until stopped (mcugen/targets/serve.py)."""
    board, port, stock = target.board, target.port, target.stock
    if board is None:
        raise McugenError("the host build needs no flashing", "run mcugen test MODEL --board host")
    if serial is not None and not target.emulated:
        raise McugenError(f"--serial serves an emulated board's UART; {board.id}'s is wherever you connect it",
                          "drop --serial and pass --port")
    board_id = board.id
    out = _find_build(board_id, out)
    held = stamp_of(out)
    if held is not None and held.get("board") != board_id:
        raise McugenError(f"{out} holds a build for {held.get('board')}, not {board_id}",
                          f"pass --board {held.get('board')}, or build for {board_id} into another folder")
    elf = firmware_of(target, out)
    if serial is not None:
        from mcugen.targets.serve import serve

        return serve(target, elf, serial, (held or {}).get("harness", "mcugen"))
    if target.emulated:
        return _boot_emulated(target, elf, held)
    require_port(target)
    cmd, cwd = _upload_command(target, elf, out)
    if cmd is not None:
        print(f"flashing {elf.name} to {board.id} on {port}", file=sys.stderr)
        proc = subprocess.run(cmd, env=dict(os.environ, **PIO_ENV), cwd=cwd)
        if proc.returncode != 0:
            retry = ("check the port, double-tap reset to enter the bootloader, and retry"
                     if not stock and board.upload == "bossac" else
                     "check the board's USB cable and that no other program holds its probe, and retry")
            raise McugenError(f"flashing {board.id} on {port} failed (exit code {proc.returncode})", retry)
    wiring = board.wiring(stock)
    if stock or not wiring:
        command = ["mcugen", "test", "MODEL", "--board", board.id, "--port", str(port), *(["--stock"] if stock else [])]
        print(f"flashed {board.id}; check it with {shlex.join(command)}")
    else:  # the offline firmware may talk on another serial than the one it was flashed through
        print(f"flashed {board.id} through {port}; the offline firmware talks on {wiring}: check it with "
              f"mcugen test MODEL --board {board.id} --port PORT (PORT: that serial port)")
    return 0


def _boot_emulated(target: Target, elf: Path, held: dict[str, Any] | None) -> int:
    """An emulated board is not flashed: QEMU boots the firmware, which must answer as its harness does."""
    board = target.board
    assert board is not None
    if held is not None and held.get("harness", "mcugen") != "mcugen":
        from mcugen.targets.mlperf_dut import Dut

        with open_stream(target, elf) as (stream, describe):  # as the runner starts: name, then profile
            dut = Dut(stream, describe)
            dut.until_ready()
            name, (profile, model) = dut.name(), dut.profile()
        print(f"{board.id}: QEMU booted {elf}; it answers the MLPerf Tiny runner's commands: name {name}, "
              f"profile {profile}, model {model}")
        return 0
    with connect(target, elf) as link:
        info = link.hello()
    print(f"{board.id}: QEMU booted {elf}; it runs model sha256 {info.sha256[:12]}…, arena {info.arena_bytes:,} B, "
          f"{info.layers} layers")
    return 0


def _upload_command(target: Target, elf: Path, out: Path) -> tuple[list[str] | None, Path | None]:
    """The command that writes the firmware through the board's uploader, and the folder it runs in (None:
    the uf2 copy is done here)."""
    board, port = target.board, target.port
    assert board is not None
    if target.stock:
        return [sys.executable, "-m", "platformio", "run", "-d", str(out), "-e", "stock", "-t", "upload",
                "--upload-port", str(port)], None
    if board.upload == "bossac":
        bossac = _tool("bossac", "sudo apt-get install bossa-cli (or use Arduino's bossac)")
        # -U: USB port, -e -w: erase and write at the bootloader's offset, -R: reset into the firmware
        return [bossac, f"--port={port}", "-U", "-e", "-w", f"--offset=0x{board.flash.origin:x}", "-R",
                str(binary_image(elf))], None
    if board.upload == "uf2":  # the chip's bootloader is a USB drive: the image is copied onto it
        if not isinstance(board.chip.image, Uf2Image):
            raise McugenError(f"{board.id} uploads with uf2, but its chip file ({board.chip.id}) gives no uf2 image",
                              f"fix boards/chips/{board.chip.id}.yaml (image: kind uf2)")
        drive = _uf2_drive(board.chip.image.drive)
        print(f"copying {elf.with_suffix('.uf2').name} to {drive}", file=sys.stderr)
        try:
            shutil.copyfile(elf.with_suffix(".uf2"), drive / "firmware.uf2")
        except OSError as exc:
            raise McugenError(f"copying the firmware onto {drive} failed ({exc.strerror or exc})",
                              "put the board in its bootloader again (BOOTSEL) and retry") from None
        return None, None
    if board.upload == "stlink":  # the ST-LINK on the board: stlink-tools writes the binary
        return [_tool("st-flash", "sudo apt-get install stlink-tools"), "--reset", "write", str(binary_image(elf)),
                f"0x{board.flash.origin:08x}"], None
    if board.upload == "jlink" and board.upload_device:  # SEGGER's J-Link Commander
        script = out / ".build" / "flash.jlink"
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text(f"loadfile {binary_image(elf)} 0x{board.flash.origin:08x}\nr\ng\nexit\n")
        return [_tool("JLinkExe", "install SEGGER's J-Link Software Pack (JLinkExe on PATH)"), "-device",
                board.upload_device, "-if", "SWD", "-speed", "4000", "-autoconnect", "1", "-CommanderScript",
                str(script)], None
    if board.upload == "alif-setools":
        cmd = _alif_setools(elf)
        return cmd, Path(cmd[0]).parent  # the toolkit reads its own files relative to its folder
    raise McugenError(f"{board.id} uploads with {board.upload}, which needs its stock platform",
                      "build and flash with --stock")
