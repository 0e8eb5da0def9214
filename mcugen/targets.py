"""One place that knows the kinds of target: the host build, emulated boards (QEMU) and real
boards on a serial port. Everything above it (CLI, tests) just builds and gets a Link."""
from __future__ import annotations

import contextlib
from pathlib import Path

from mcugen.boards import HOST, load_board
from mcugen.build import BuildResult, build_host, find_c_compiler
from mcugen.errors import McugenError
from mcugen.ir import Graph
from mcugen.outdir import OutDir
from mcugen.protocol import Link

BAUD = 115200


def check_board(board_id: str) -> None:
    """Fail fast on a bad board id or a missing compiler, before anything is generated."""
    if board_id == HOST:
        find_c_compiler()
    else:
        load_board(board_id)


def build_for(board_id: str, g: Graph, out: OutDir, model_name: str, *, stock: bool = False,
              sanitize: bool = False, progress=None) -> BuildResult:
    if board_id == HOST:
        return build_host(g, out, model_name, sanitize=sanitize, progress=progress)
    if sanitize:
        raise McugenError("--sanitize is for --board host only", "drop --sanitize")
    from mcugen.firmware import build_board

    return build_board(g, load_board(board_id), out, model_name, stock=stock, progress=progress)


def firmware_of(board_id: str, out_dir: Path, stock: bool = False) -> Path:
    """The program a previous `mcugen build` left in out_dir."""
    path = (out_dir / "mcugen_host" if board_id == HOST
            else out_dir / ".pio" / "build" / ("stock" if stock else "offline") / "firmware.elf")
    if not path.exists():
        raise McugenError(f"no firmware for {board_id} in {out_dir}", f"run mcugen build MODEL --board {board_id} "
                          f"--out {out_dir} first")
    return path


def require_port(board_id: str, port: str | None, stock: bool = False) -> None:
    """A real board is reached through a port the user names (never a board file)."""
    if port is None:
        wiring = load_board(board_id).wiring(stock)
        raise McugenError(f"{board_id} is a real board: say where it is connected"
                          + (f" (its {'stock' if stock else 'offline'} firmware talks on {wiring})" if wiring else ""),
                          "pass --port, e.g. /dev/ttyUSB0 or /dev/ttyACM0")


@contextlib.contextmanager
def connect(board_id: str, program: Path, port: str | None = None, timeout: float = 0.5, stock: bool = False):
    """A Link to the target running `program`: the host process, QEMU, or a board on `port`."""
    if board_id == HOST:
        from mcugen.transport import ProcessStream

        with ProcessStream([program]) as target:
            yield Link(target, timeout=timeout, describe="the host executable")
            code = target.close()
        if code:
            raise McugenError(f"the host executable exited with code {code} after the run",
                              "a sanitizer or runtime error; rerun with the build directory kept (--out)")
        return
    board = load_board(board_id)
    if board.emulated and port is None:
        from mcugen.qemu import QemuTarget

        with QemuTarget(board, program) as qemu:
            yield Link(qemu.stream, timeout=timeout, describe=f"{board.id} (QEMU)")
        return
    require_port(board.id, port, stock)
    import serial

    try:
        stream = serial.serial_for_url(port, baudrate=BAUD, timeout=0.05)
    except (serial.SerialException, ValueError) as exc:
        raise McugenError(f"cannot open serial port {port}: {exc}",
                          "check the --port name, the cable, and that no other program holds the port") from None
    with contextlib.closing(stream):
        yield Link(stream, timeout=timeout, describe=f"{board.id} on {port}", wiring=board.wiring(stock))
