"""Byte streams to a running target, all with pyserial's read(n) / write(b) interface.

- ProcessStream: a child process talking the protocol on its stdin/stdout: the host build, or QEMU
  for a board whose link is semihosting (the firmware's console is QEMU's stdin/stdout).
- SocketStream: a connected TCP socket, QEMU's UART (boards whose link is their UART) connecting to us.
- serial ports are opened with pyserial itself (serial_for_url).
"""
from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
from pathlib import Path
from collections.abc import Sequence
from typing import IO, Protocol, cast

from mcugen.errors import McugenError

POLL = 0.05  # read() returns empty after this long without data, as a pyserial timeout would


class Stream(Protocol):
    """What every byte stream to a target offers: pyserial's read(n) (what arrived within its timeout)
    and write(b)."""

    def read(self, n: int) -> bytes: ...

    def write(self, data: bytes, /) -> object: ...

    def close(self) -> object: ...


class ProgramExited(OSError):
    """The program behind a ProcessStream ended (a crash, a sanitizer's report, an exit): why, in one line."""


class ProcessStream:
    """Starts `argv` and exposes its stdin/stdout as a stream; close() always reaps it.
    `fix`: what to do when it cannot be started."""

    def __init__(self, argv: Sequence[str | Path], env: dict[str, str] | None = None, fix: str = "rebuild with mcugen build --board host"):
        argv = [str(a) for a in argv]
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, env=env, bufsize=0)
        except OSError as exc:
            raise McugenError(f"cannot start {argv[0]}: {exc}", fix) from None
        self.name = Path(argv[0]).name
        # three pipes asked for, three pipes given
        self._stdin, self._stdout, self._stderr = (cast(IO[bytes], p) for p in (self.proc.stdin, self.proc.stdout,
                                                                                 self.proc.stderr))
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)

    def read(self, n: int) -> bytes:
        if not self._selector.select(POLL):
            return b""
        data = os.read(self._stdout.fileno(), n)
        if not data:
            raise ProgramExited(self._exit_reason())
        return data

    def write(self, data: bytes) -> None:
        try:
            self._stdin.write(data)
            self._stdin.flush()
        except (BrokenPipeError, ValueError):
            raise ProgramExited(self._exit_reason()) from None

    def _exit_reason(self) -> str:
        code = self.proc.wait(timeout=5)
        err = [line.strip() for line in self._stderr.read().decode(errors="replace").splitlines() if line.strip()]
        # a sanitizer's report: its verdict line, not the banner of '=' before it
        said = next((line for line in err if "runtime error" in line or "ERROR:" in line or "SUMMARY:" in line),
                    err[0] if err else "")
        how = f"killed by signal {-code} ({signal.Signals(-code).name})" if code < 0 else f"exit code {code}"
        return f"{self.name} ended, {how}" + (f": {said[:300]}" if said else "")

    def close(self) -> int | None:
        self._selector.close()
        if self.proc.poll() is None:
            self._stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def __enter__(self) -> ProcessStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SocketStream:
    """A connected socket as a stream; the peer closing it is an OSError, as pyserial's socket:// reports it."""

    def __init__(self, sock: socket.socket, peer: str):
        self.sock, self.peer = sock, peer
        self.sock.settimeout(None)  # reads wait in the selector; writes block until sent
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.sock, selectors.EVENT_READ)

    def read(self, n: int) -> bytes:
        if not self._selector.select(POLL):
            return b""
        data = self.sock.recv(n)
        if not data:
            raise ConnectionResetError(f"{self.peer} closed the connection")
        return data

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        self._selector.close()
        self.sock.close()
