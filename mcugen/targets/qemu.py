"""Emulated boards: boot firmware in QEMU and talk to it.

The firmware's link is the board's (`Board.link`): its UART, which QEMU connects to a TCP socket we
listen on before it starts (it connects before the firmware runs, so no boot output is lost; QEMU as the
server instead left a window in which our connection attempt could take the port first and connect to
itself), or QEMU's semihosting console, which is QEMU's own stdin/stdout. QEMU runs with -icount shift=0, which makes
SysTick counts repeat exactly run after run. QEMU is always killed.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from mcugen.targets.boards import Board
from mcugen.errors import McugenError
from mcugen.targets.transport import ProcessStream, SocketStream, Stream

QEMU = "qemu-system-arm"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Trace:
    """What QEMU logs into `path`, running one instruction per block: the address of every instruction
    it executes (mcugen/validation/cycles.py), or, with `registers_at`, the core registers before each
    execution of an instruction at one of those addresses (mcugen/validation/memory.py)."""

    path: Path
    registers_at: tuple[int, ...] = ()

    def arguments(self) -> list[str]:
        if not self.registers_at:
            return ["-singlestep", "-d", "exec,nochain", "-D", str(self.path)]
        return ["-singlestep", "-d", "cpu,nochain", "-dfilter", ",".join(f"0x{a:x}+1" for a in self.registers_at),
                "-D", str(self.path)]


def qemu_command(machine: str, elf: Path) -> list[str]:
    """QEMU booting `elf` on `machine`, no display or monitor, instructions counted (repeatable SysTick)."""
    return [QEMU, "-M", machine, "-display", "none", "-monitor", "none", "-icount", "shift=0", "-kernel", str(elf)]


def require_qemu() -> None:
    if not shutil.which(QEMU):
        raise McugenError(f"{QEMU} not found", "install QEMU: sudo apt-get install qemu-system-arm")


class QemuTarget:
    """Context manager: a running QEMU and `stream`, a pyserial-like stream to the firmware's link."""

    def __init__(self, board: Board, elf: Path, boot_timeout: float = 15.0, trace: Trace | None = None):
        require_qemu()
        if board.qemu_machine is None:
            raise RuntimeError(f"{board.id} is not an emulated board")
        self.board, self.machine, self.elf, self.boot_timeout = board, board.qemu_machine, elf, boot_timeout
        self.trace = trace
        self.proc: subprocess.Popen[bytes] | None = None
        self.stream: Stream | None = None

    def _command(self) -> list[str]:
        return qemu_command(self.machine, self.elf) + (self.trace.arguments() if self.trace else [])

    def __enter__(self) -> QemuTarget:
        if self.board.link == "semihosting":
            process = ProcessStream(self._command() + ["-semihosting-config", "enable=on,target=native",
                                                       "-serial", "null"])
            self.stream, self.proc = process, process.proc
            return self
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(0.05)
        # nodelay: the target writes a reply a byte at a time, and Nagle's algorithm held all but the
        # first byte back until our delayed ACK (40 ms per reply)
        cmd = self._command() + ["-chardev", f"socket,id=uart,host=127.0.0.1,port={listener.getsockname()[1]},"
                                 "server=off,nodelay=on", "-serial", "chardev:uart"]
        with listener:
            self.proc = proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.PIPE)
            deadline = time.monotonic() + self.boot_timeout
            while self.stream is None:
                if proc.poll() is not None:
                    err = cast(IO[bytes], proc.stderr).read().decode(errors="replace").strip().splitlines()
                    raise McugenError(f"QEMU ({self.machine}) exited at start"
                                      + (f": {err[-1]}" if err else ""), "check the firmware ELF (mcugen build)")
                try:
                    self.stream = SocketStream(listener.accept()[0], f"QEMU ({self.machine})")
                except TimeoutError:
                    if time.monotonic() > deadline:
                        self.close()
                        raise McugenError(f"QEMU did not connect its UART within {self.boot_timeout:.0f} s",
                                          "check that qemu-system-arm runs on this machine") from None
        return self

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.stream is not None:
            self.stream.close()

    def __exit__(self, *exc: object) -> None:
        self.close()
