"""Frames over a byte stream, for the validation protocol (mcugen/targets/protocol.py says what they carry).

Frame (little-endian):  A5 5A | type u8 | seq u8 | length u16 | payload (<= 240 B) | crc32 u32
The CRC is zlib's CRC-32 over type, seq, length and payload. Frames are at most 250 bytes, so a real
UART or USB CDC link never needs to buffer more than one.

- The receiver hunts for the sync bytes and, when a frame turns out bad, parses again the bytes after
  its first one: a stray A5 5A never swallows the valid frame behind it.
- A frame cut short on the wire leaves the other side waiting for bytes that never come, so before a
  retry the sender sends a frame's worth of zero bytes (resync), which completes (and fails the CRC
  of) any partial frame and is otherwise ignored while the other side hunts for the sync bytes.
"""
from __future__ import annotations

import struct
import time
import zlib

from mcugen.targets.transport import Stream

SYNC = b"\xa5\x5a"
MAX_PAYLOAD = 240


def encode(kind: int, seq: int, payload: bytes = b"") -> bytes:
    body = struct.pack("<BBH", kind, seq, len(payload)) + payload
    return SYNC + body + struct.pack("<I", zlib.crc32(body))


class BadFrame(Exception):
    """A whole frame arrived and its CRC is wrong (and no other frame was read behind it)."""


class Framer:
    """Frames in and out of a stream with pyserial's interface (read(n) returning what arrived within
    its timeout, write(b)). OSError from the stream passes through."""

    def __init__(self, stream: Stream):
        self.stream = stream
        self._pending = b""  # bytes read but not yet parsed

    def send(self, kind: int, seq: int, payload: bytes = b"") -> None:
        self.stream.write(encode(kind, seq, payload))

    def _read_exact(self, n: int, deadline: float, frame: bytearray) -> bytes:
        while len(self._pending) < n:
            if time.monotonic() > deadline:
                raise TimeoutError
            self._pending += self.stream.read(n - len(self._pending))
        out, self._pending = self._pending[:n], self._pending[n:]
        frame += out
        return out

    def receive(self, deadline: float) -> tuple[int, int, bytes]:
        """The next good frame's (type, seq, payload); TimeoutError past `deadline` (time.monotonic),
        BadFrame for a corrupted one."""
        while True:
            frame = bytearray()
            if self._read_exact(1, deadline, frame) != SYNC[:1]:
                continue
            if self._read_exact(1, deadline, frame) == SYNC[1:]:
                header = self._read_exact(4, deadline, frame)
                kind, seq, size = struct.unpack("<BBH", header)
                if size <= MAX_PAYLOAD:
                    payload = self._read_exact(size, deadline, frame)
                    (crc,) = struct.unpack("<I", self._read_exact(4, deadline, frame))
                    if crc == zlib.crc32(header + payload):
                        return kind, seq, payload
                    # complete but wrong: a corrupted frame, unless another frame was read behind it
                    if SYNC not in bytes(frame[1:]) + self._pending:
                        self._pending = b""
                        raise BadFrame
            # the sync bytes may have been noise in front of a real frame: parse what follows
            self._pending = bytes(frame[1:]) + self._pending

    def resync(self) -> None:
        """Complete any partial frame on the other side, then drop whatever is in flight to us."""
        self.stream.write(bytes(MAX_PAYLOAD + 10))
        time.sleep(0.05)
        drain_until = time.monotonic() + 0.2
        while time.monotonic() < drain_until and self.stream.read(4096):
            pass
        self._pending = b""
