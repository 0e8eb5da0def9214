"""One place that knows the kinds of target: the host build, emulated boards (QEMU) and real
boards on a serial port. A Target is resolved once from the command line; everything above it
(CLI, tests) builds for it and gets a Link to it."""
from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import serial

from mcugen.targets.boards import HOST, Board, load_board
from mcugen.codegen.build import BuildResult, Harness, build_host, find_c_compiler
from mcugen.errors import McugenError
from mcugen.targets.firmware import build_board
from mcugen.ir.graph import Compiled
from mcugen.codegen.outdir import OutDir
from mcugen.targets.protocol import Link
from mcugen.targets.qemu import QemuTarget, Trace
from mcugen.targets.transport import ProcessStream, Stream

BAUD = 115200


@dataclass(frozen=True)
class Target:
    """Where a model is built for and runs: the host (the system C compiler, no board file; `board`
    None), an emulated board (QEMU boots it, unless a port is given: then it is reached there like a
    real board), or a real board on a serial port. `stock`: its stock PlatformIO environment."""

    board: Board | None
    port: str | None = None
    stock: bool = False

    @classmethod
    def of(cls, board_id: str, port: str | None = None, stock: bool = False) -> Target:
        """Fails fast on an unknown board or a missing compiler, before anything is generated."""
        if board_id == HOST:
            find_c_compiler()
            return cls(None, port, stock)
        return cls(load_board(board_id), port, stock)

    @property
    def id(self) -> str:
        return HOST if self.board is None else self.board.id

    @property
    def host(self) -> bool:
        return self.board is None

    @property
    def emulated(self) -> bool:
        """QEMU runs it here."""
        return self.board is not None and self.board.emulated and self.port is None

    @property
    def builds_here(self) -> bool:
        """The host program and emulated firmware are built (and booted) by the command that
        runs them; a real board runs whatever was flashed."""
        return self.host or self.emulated

    @property
    def features(self) -> frozenset[str]:
        """The ISA features the model is lowered for (mcugen/kernels/)."""
        return frozenset() if self.board is None else self.board.features

    @property
    def fp16_arithmetic(self) -> bool:
        """The layers a precision plan made fp16 are computed in fp16 (the host computes them in float32, as
        every core without half-precision arithmetic does)."""
        return self.board is not None and self.board.fp16_arithmetic

    def wiring(self) -> str:
        return "" if self.board is None else self.board.wiring(self.stock)


def build_for(target: Target, g: Compiled, out: OutDir, model_name: str, *, sanitize: bool = False,
              progress: Callable[[str], None] | None = None, harness: str = "mcugen") -> BuildResult:
    chosen = Harness.of(harness, g, target.board.clock_hz if target.board is not None else 0)
    if target.board is None:
        return build_host(g, out, model_name, sanitize=sanitize, progress=progress, harness=chosen)
    if sanitize:
        raise McugenError("--sanitize is for --board host only", "drop --sanitize")
    return build_board(g, target.board, out, model_name, stock=target.stock, progress=progress, harness=chosen)


def firmware_of(target: Target, out_dir: Path) -> Path:
    """The program a previous `mcugen build` left in out_dir."""
    path = (out_dir / "mcugen_host" if target.host
            else out_dir / ".pio" / "build" / ("stock" if target.stock else "offline") / "firmware.elf")
    if not path.exists():
        raise McugenError(f"no firmware for {target.id} in {out_dir}", f"run mcugen build MODEL --board {target.id} "
                          f"--out {shlex.quote(str(out_dir))} first")
    return path


def require_port(target: Target) -> None:
    """A real board is reached through a port the user names (never a board file)."""
    if target.port is None:
        wiring = target.wiring()
        # a USB-serial adapter enumerates as ttyUSB; a board's own USB serial (CDC, a probe's VCP) as ttyACM
        example = "/dev/ttyUSB0 (the adapter's port)" if "adapter" in wiring else "/dev/ttyACM0"
        raise McugenError(f"{target.id} is a real board: say where it is connected"
                          + (f" (its {'stock' if target.stock else 'offline'} firmware talks on {wiring})"
                             if wiring else ""), f"pass --port, e.g. {example}")


@contextlib.contextmanager
def connect(target: Target, program: Path, timeout: float = 0.5, trace: Trace | None = None) -> Iterator[Link]:
    """A Link (mcugen's validation protocol) to the target running `program`: the host process, QEMU
    (logging what `trace` asks for, if given), or a board on its port."""
    with open_stream(target, program, trace) as (stream, describe):
        real = target.board is not None and not target.emulated
        yield Link(stream, timeout=timeout, describe=describe, wiring=target.wiring() if real else "")


@contextlib.contextmanager
def open_stream(target: Target, program: Path, trace: Trace | None = None) -> Iterator[tuple[Stream, str]]:
    """(a pyserial-like byte stream to the target running `program`, what to call it in messages)."""
    if target.board is None:
        with ProcessStream([program]) as process:
            yield process, "the host executable"
            code = process.close()
        if code:
            raise McugenError(f"the host executable exited with code {code} after the run",
                              "a sanitizer or runtime error; rerun with the build directory kept (--out)")
        return
    if target.emulated:
        with QemuTarget(target.board, program, trace=trace) as qemu:
            assert qemu.stream is not None  # entering opened it
            yield qemu.stream, f"{target.id} (QEMU)"
        return
    require_port(target)
    try:
        stream = serial.serial_for_url(target.port, baudrate=BAUD, timeout=0.05)
    except (serial.SerialException, ValueError) as exc:
        raise McugenError(f"cannot open serial port {target.port}: {exc}",
                          "check the --port name, the cable, and that no other program holds the port") from None
    with contextlib.closing(stream):
        yield stream, f"{target.id} on {target.port}"
