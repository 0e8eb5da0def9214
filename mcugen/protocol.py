"""mcugen's validation protocol, host side (the target side is runtime_c/harness/mcu_harness.c).

Frame (little-endian):  A5 5A | type u8 | seq u8 | length u16 | payload (<= 240 B) | crc32 u32
The CRC is zlib's CRC-32 over type, seq, length and payload. The host sends requests; the target
answers each with one frame carrying the same seq:

  HELLO   0x01  ()                                -> INFO 0x81: version u8, clock u8, arena u32,
                                                     layers u16, inputs u8, outputs u8, sha256[32],
                                                     per input then output: bytes u32, rank u8, dims u16[rank]
  WRITE   0x02  (input u8, offset u32, bytes)     -> ACK 0x82
  INVOKE  0x03  ()                                -> RESULT 0x83: status u8, 3 pad, cycles u64
  READ    0x04  (region u8, index u8, offset u32, length u16) -> DATA 0x84: the bytes
                 region 0: output `index`; region 1: per-layer cycles, u64 each
  any           bad CRC, unknown type, bad range  -> NAK 0x85: reason u8 (0 crc, 1 unknown, 2 range)

Chunks are at most 240 bytes, so a real UART or USB CDC link never needs to buffer more than
one frame. Lost, corrupted or garbled replies are retried (every request is safe to repeat: the
target replays a repeated INVOKE's result instead of running again). A frame cut short on the wire
leaves the target waiting for bytes that never come, so before a retry the host sends a frame's
worth of zero bytes, which completes (and fails the CRC of) any partial frame and is otherwise
ignored while the target hunts for the sync bytes.
"""
from __future__ import annotations

import struct
import time
import zlib
from dataclasses import dataclass

from mcugen.errors import McugenError

SYNC = b"\xa5\x5a"
VERSION = 1
MAX_PAYLOAD = 240
HELLO, WRITE, INVOKE, READ = 0x01, 0x02, 0x03, 0x04
INFO, ACK, RESULT, DATA, NAK = 0x81, 0x82, 0x83, 0x84, 0x85
REGION_OUTPUT, REGION_LAYER_CYCLES = 0, 1
CLOCKS = {0: "ns", 1: "cycles", 2: "systick"}
NAK_REASONS = {0: "corrupted request", 1: "unknown request", 2: "out-of-range request"}


def encode(kind: int, seq: int, payload: bytes = b"") -> bytes:
    body = struct.pack("<BBH", kind, seq, len(payload)) + payload
    return SYNC + body + struct.pack("<I", zlib.crc32(body))


class _BadFrame(Exception):
    pass


@dataclass(frozen=True)
class TargetInfo:
    version: int
    clock: str
    arena_bytes: int
    layers: int
    sha256: str
    inputs: list  # (bytes, shape) per input
    outputs: list


def parse_info(payload: bytes) -> TargetInfo:
    version, clock, arena, layers, n_in, n_out = struct.unpack_from("<BBIHBB", payload)
    sha = payload[10:42].hex()
    pos, tensors = 42, []
    for _ in range(n_in + n_out):
        nbytes, rank = struct.unpack_from("<IB", payload, pos)
        shape = struct.unpack_from(f"<{rank}H", payload, pos + 5)
        tensors.append((nbytes, tuple(shape)))
        pos += 5 + 2 * rank
    return TargetInfo(version, CLOCKS.get(clock, f"clock {clock}"), arena, layers, sha,
                      tensors[:n_in], tensors[n_in:])


class Link:
    """Request/response over a byte stream with pyserial's interface (read(n), write(b), timeout).

    Every failure that retrying cannot fix raises McugenError with one line saying what happened.
    `retries` counts the repeats made so far (tests assert that faults were actually survived).
    """

    def __init__(self, stream, *, timeout: float = 2.0, attempts: int = 8, describe: str = "the target"):
        self.stream = stream
        self.timeout = timeout
        self.attempts = attempts
        self.describe = describe
        self.seq = 0
        self.retries = 0
        self._pending = b""  # bytes read beyond what a frame needed

    # -- framing ---------------------------------------------------------------------------------
    def _read_exact(self, n: int, deadline: float) -> bytes:
        while len(self._pending) < n:
            if time.monotonic() > deadline:
                raise TimeoutError
            self._pending += self.stream.read(n - len(self._pending))
        out, self._pending = self._pending[:n], self._pending[n:]
        return out

    def _receive(self, deadline: float) -> tuple[int, int, bytes]:
        window = b""
        while window != SYNC:
            window = (window + self._read_exact(1, deadline))[-2:]
        header = self._read_exact(4, deadline)
        kind, seq, size = struct.unpack("<BBH", header)
        if size > MAX_PAYLOAD:
            raise _BadFrame
        payload = self._read_exact(size, deadline)
        (crc,) = struct.unpack("<I", self._read_exact(4, deadline))
        if crc != zlib.crc32(header + payload):
            raise _BadFrame
        return kind, seq, payload

    def _resync(self) -> None:
        self.stream.write(bytes(MAX_PAYLOAD + 10))
        time.sleep(0.05)
        drain_until = time.monotonic() + 0.2
        while time.monotonic() < drain_until and self.stream.read(4096):
            pass
        self._pending = b""

    def request(self, kind: int, payload: bytes = b"", expect: int = ACK, timeout: float | None = None) -> bytes:
        self.seq = (self.seq + 1) & 0xFF
        frame = encode(kind, self.seq, payload)
        problem = "no reply"
        for attempt in range(self.attempts):
            if attempt:
                self.retries += 1
                self._resync()
            try:
                self.stream.write(frame)
            except OSError as exc:
                raise McugenError(f"cannot write to {self.describe}: {exc}",
                                  "check the port and that the board is connected") from None
            deadline = time.monotonic() + (timeout or self.timeout)
            try:
                while True:
                    got_kind, got_seq, body = self._receive(deadline)
                    if got_seq != self.seq:
                        continue  # a stale reply to an earlier attempt
                    if got_kind == expect:
                        return body
                    if got_kind == NAK and body and body[0] == 2:
                        raise McugenError(f"{self.describe} refused a request as out of range",
                                          "the board runs firmware for a different model; run mcugen flash")
                    problem = (f"NAK ({NAK_REASONS.get(body[0], body[0]) if body else '?'})"
                               if got_kind == NAK else f"unexpected reply 0x{got_kind:02x}")
                    break
            except TimeoutError:
                problem = "no reply"
            except _BadFrame:
                problem = "corrupted reply"
            except OSError as exc:
                raise McugenError(f"lost the connection to {self.describe}: {exc}",
                                  "check the port and that the board is powered") from None
        raise McugenError(f"{self.describe} did not answer correctly after {self.attempts} attempts "
                          f"(last: {problem})", "check the port, the baud rate and that the board runs "
                          "mcugen firmware (mcugen flash)")

    # -- requests ----------------------------------------------------------------------------------
    def hello(self) -> TargetInfo:
        info = parse_info(self.request(HELLO, expect=INFO))
        if info.version != VERSION:
            raise McugenError(f"{self.describe} speaks protocol version {info.version}, this mcugen {VERSION}",
                              "rebuild and flash the firmware with this mcugen")
        return info

    def write_input(self, index: int, data: bytes) -> None:
        for offset in range(0, len(data), MAX_PAYLOAD - 5):
            chunk = data[offset:offset + MAX_PAYLOAD - 5]
            self.request(WRITE, struct.pack("<BI", index, offset) + chunk)

    def invoke(self, timeout: float) -> int:
        body = self.request(INVOKE, expect=RESULT, timeout=timeout)
        status, cycles = body[0], struct.unpack_from("<Q", body, 4)[0]
        if status != 0:
            raise McugenError(f"{self.describe}: mcugen_invoke returned {status}", "report this with the model")
        return cycles

    def read(self, region: int, index: int, size: int) -> bytes:
        out = b""
        while len(out) < size:
            n = min(MAX_PAYLOAD, size - len(out))
            body = self.request(READ, struct.pack("<BBIH", region, index, len(out), n), expect=DATA)
            if len(body) != n:
                raise McugenError(f"{self.describe} sent {len(body)} bytes, asked for {n}",
                                  "the board runs firmware for a different model; run mcugen flash")
            out += body
        return out

    def layer_cycles(self, layers: int) -> list[int]:
        raw = self.read(REGION_LAYER_CYCLES, 0, 8 * layers)
        return list(struct.unpack(f"<{layers}Q", raw))
