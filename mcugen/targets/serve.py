"""`mcugen flash --board B --serial pty|tcp[:PORT]`: an emulated board's firmware booted in QEMU with its
UART where another program opens it (the MLPerf Tiny runner through mlperf_runner_shim.py, a terminal), until
Ctrl-C or SIGTERM stops it; QEMU is stopped either way (it ignores SIGTERM while a client holds its UART).
Only boards whose firmware talks on a UART: the semihosting console is QEMU's own terminal."""
from __future__ import annotations

import re
import select
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, cast

from mcugen.errors import McugenError
from mcugen.targets.boards import all_boards
from mcugen.targets.qemu import _free_port, qemu_command, require_qemu
from mcugen.targets.target import Target

SHIM = Path(__file__).with_name("mlperf_runner_shim.py")
_PTY = re.compile(rb"char device redirected to (\S+)")


def parse_serial(text: str) -> tuple[str, int | None]:
    """--serial's value: pty, tcp (a free port) or tcp:PORT."""
    kind, _, port = text.partition(":")
    if kind == "pty" and not port:
        return "pty", None
    if kind == "tcp" and (not port or (port.isdigit() and 0 < int(port) < 65536)):
        return "tcp", int(port) if port else None
    raise ValueError(f"{text!r} is not pty, tcp or tcp:PORT")


def serve(target: Target, elf: Path, how: tuple[str, int | None], harness: str) -> int:
    board = target.board
    assert board is not None and board.qemu_machine is not None
    if board.link != "uart":
        uarts = sorted(b.id for b in all_boards().values() if b.qemu_machine is not None and b.link == "uart")
        raise McugenError(f"{board.id}'s firmware talks on QEMU's semihosting console, which only QEMU's own "
                          "terminal reaches", f"build for a board whose firmware talks on a UART: {', '.join(uarts)}")
    require_qemu()
    kind, port = how
    if kind == "pty":
        uart = ["-serial", "pty"]
    else:
        port = port or _free_port()
        uart = ["-chardev", f"socket,id=uart,host=127.0.0.1,port={port},server=on,wait=off,nodelay=on",
                "-serial", "chardev:uart"]
    proc = subprocess.Popen(qemu_command(board.qemu_machine, elf) + uart, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    stop = signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        where = _pty_of(proc) if kind == "pty" else _listening(proc, port or 0)
        print(f"{board.id}: QEMU runs {elf.resolve()}; its UART (115200 8N1) is {where} until Ctrl-C or SIGTERM stops it",
              flush=True)
        if harness == "mlperf-tiny" and kind == "pty":
            runner = ["python", str(SHIM), "--dut", where, "--runner-dir", "tiny/benchmark/runner",
                      "--dataset_path=DATASETS", "--device_list=devices_kws_ic_vww.yaml", "--mode=p"]
            print(f"  the MLPerf Tiny runner, with its own Python: {shlex.join(runner)}", flush=True)
        code = proc.wait()
        raise McugenError(f"QEMU ({board.qemu_machine}) exited with code {code}", "check the firmware (mcugen build)")
    except KeyboardInterrupt:
        return 0
    finally:
        signal.signal(signal.SIGTERM, stop)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _listening(proc: subprocess.Popen[bytes], port: int, timeout: float = 15.0) -> str:
    """The TCP address once QEMU accepts on it (a connection opened and closed: QEMU listens again)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                # before QEMU listens, a probe given `port` as its own local port connects to itself
                if probe.getsockname() != probe.getpeername():
                    return f"socket://127.0.0.1:{port}"
        except OSError:
            pass
        time.sleep(0.05)
    raise McugenError(f"QEMU did not listen on 127.0.0.1:{port} within {timeout:g} s",
                      "check that the port is free (or pass another: --serial tcp:PORT)")


def _pty_of(proc: subprocess.Popen[bytes], timeout: float = 15.0) -> str:
    """The pseudo-terminal QEMU says it put the UART on."""
    out = cast(IO[bytes], proc.stdout)
    said, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if select.select([out], [], [], 0.1)[0]:
            said += out.read1(4096)  # type: ignore[attr-defined]
            found = _PTY.search(said)
            if found:
                return found[1].decode()
    raise McugenError(f"QEMU named no pseudo-terminal for the UART within {timeout:g} s"
                      + (f" (it said: {said.decode(errors='replace').strip()[-200:]})" if said else ""),
                      "check that qemu-system-arm runs on this machine")
