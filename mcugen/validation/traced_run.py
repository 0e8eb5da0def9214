"""One inference under QEMU with a log of what it executes read as it is written (a pipe: the log of a
big model is gigabytes), for the cycle estimate (cycles.py) and its memory timing (memory.py)."""
from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

from mcugen.targets.qemu import Trace

_NIBBLE = np.full(256, 0, dtype=np.uint32)
_NIBBLE[np.frombuffer(b"0123456789", dtype=np.uint8)] = np.arange(10)
_NIBBLE[np.frombuffer(b"abcdef", dtype=np.uint8)] = np.arange(10, 16)


def hex_words(found: list[bytes]) -> np.ndarray:
    """Eight-digit lowercase hex strings as uint32."""
    digits = np.frombuffer(b"".join(found), dtype=np.uint8).reshape(-1, 8)
    return (_NIBBLE[digits] << np.arange(28, -1, -4, dtype=np.uint32)).sum(axis=1, dtype=np.uint32)


def traced_run(target, program: Path, g, inputs, trace: Callable[[Path], Trace], read: Callable[[BinaryIO], None],
               timeout: float) -> None:
    """Run `inputs` once on the emulated `target` with QEMU logging what `trace` asks for into a pipe that
    `read` reads to its end (in a thread of its own: QEMU blocks on a full pipe)."""
    from mcugen.targets.target import connect
    from mcugen.validation.validate import check_target, expected_seconds

    errors: list[BaseException] = []
    with tempfile.TemporaryDirectory(prefix="mcugen-trace-") as tmp:
        fifo = Path(tmp) / "trace.log"
        os.mkfifo(fifo)

        def reader_loop() -> None:
            with open(fifo, "rb") as stream:
                try:
                    read(stream)
                except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                    errors.append(exc)
                while stream.read(1 << 22):  # drain what is left: QEMU blocks on a full pipe
                    pass

        reader = threading.Thread(target=reader_loop, daemon=True)
        reader.start()
        try:
            with connect(target, program, timeout=5.0, trace=trace(fifo)) as link:
                check_target(link.hello(), g, link.describe)
                for k, x in enumerate(inputs):
                    link.write_input(k, np.ascontiguousarray(x).tobytes())
                link.invoke(200 * expected_seconds(g, target), timeout)
                link.read(0, 0, g.tensors[g.outputs[0]].nbytes)  # more log after the window: flushes it
        finally:
            if reader.is_alive():  # QEMU never opened the log (it did not start): end the reader's wait
                try:
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass  # QEMU has it open: its exit ends the stream
            reader.join()
    if errors:
        raise errors[0]
