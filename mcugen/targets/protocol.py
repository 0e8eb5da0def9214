"""mcugen's validation protocol, host side (the target side is runtime_c/harness/mcu_harness.c).

Frames (mcugen/targets/framing.py) carry a type, a seq and a payload. The host sends requests; the target
answers each with one frame carrying the same seq:

  HELLO   0x01  (offset u32)                      -> INFO 0x81: version u8, total u32, the bytes
                 [offset, offset + 235) of the description: clock u8, arena u32, layers u16,
                 inputs u16, outputs u16, sha256[32], per input then output: bytes u32, rank u8,
                 dims u32[rank]  (read page by page: any number of tensors fits)
  WRITE   0x02  (input u8, offset u32, bytes)     -> ACK 0x82
  INVOKE  0x03  ()                                -> RESULT 0x83: status u8, 3 pad, cycles u64
  READ    0x04  (region u8, index u8, offset u32, length u16) -> DATA 0x84: the bytes
                 region 0: output `index`; region 1: per-layer cycles, u64 each
  RESET   0x05  ()                                -> ACK 0x82 (the model's state as at boot)
  any           bad CRC, unknown type, bad range  -> NAK 0x85: reason u8 (0 crc, 1 unknown, 2 range)
  (a fault)     sent unasked, seq 0, then silence   FAULT 0x86: exception u8, 3 pad, pc u32, layer i32 (the
                 layer model_invoke was in, counted from 0; -1 outside it)

Lost, corrupted or garbled replies are retried:
- every request is safe to repeat (a repeated INVOKE, same seq, replays the stored result: a
  stateful model must not step twice; a repeated RESET resets again); the
  other requests take a new seq per attempt, so a late reply is never taken for another's;
- a reply is awaited for `timeout` seconds (a frame takes milliseconds), an INVOKE's for a few
  times the inference time (estimated before the first run, then measured), and INVOKE attempts
  go on until the run's overall time limit;
- a failed attempt halves the payload of WRITE and READ (down to 16 bytes; a long frame on a
  noisy line rarely arrives whole) and each success doubles it back;
- before a retry the framer resynchronises both sides (framing.Framer.resync).
"""
from __future__ import annotations

import struct
import time
from collections.abc import Callable
from dataclasses import dataclass

from mcugen.errors import McugenError
from mcugen.targets.framing import MAX_PAYLOAD, BadFrame, Framer
from mcugen.targets.transport import ProgramExited, Stream

VERSION = 3
MIN_CHUNK = 16
MAX_INFO = 1 << 20  # far beyond any real description; a corrupt length must not loop for hours
HELLO, WRITE, INVOKE, READ, RESET = 0x01, 0x02, 0x03, 0x04, 0x05
INFO, ACK, RESULT, DATA, NAK, FAULT = 0x81, 0x82, 0x83, 0x84, 0x85, 0x86
CRASH_FIX = "a kernel's bug (mcugen's, or the C kernel of a custom op of yours): report it with the model"
EXCEPTIONS = {2: "NMI", 3: "HardFault", 4: "MemManage fault", 5: "BusFault", 6: "UsageFault"}
REGION_OUTPUT, REGION_LAYER_CYCLES = 0, 1
CLOCKS = {0: "ns", 1: "cycles", 2: "systick"}
NAK_REASONS = {0: "corrupted request", 1: "unknown request", 2: "out-of-range request"}


@dataclass(frozen=True)
class TargetInfo:
    version: int
    clock: str
    arena_bytes: int
    layers: int
    sha256: str
    inputs: list[tuple[int, tuple[int, ...]]]  # (bytes, shape) per input
    outputs: list[tuple[int, tuple[int, ...]]]


def parse_info(blob: bytes) -> TargetInfo:
    """The description INFO pages carry (see the module docstring); struct.error if it is short."""
    clock, arena, layers, n_in, n_out = struct.unpack_from("<BIHHH", blob)
    sha = blob[11:43].hex()
    pos, tensors = 43, []
    for _ in range(n_in + n_out):
        nbytes, rank = struct.unpack_from("<IB", blob, pos)
        shape = struct.unpack_from(f"<{rank}I", blob, pos + 5)
        tensors.append((nbytes, tuple(shape)))
        pos += 5 + 4 * rank
    return TargetInfo(VERSION, CLOCKS.get(clock, f"clock {clock}"), arena, layers, sha,
                      tensors[:n_in], tensors[n_in:])


class TargetFault(McugenError):
    """The firmware faulted and stopped (a FAULT frame): which exception, where, in which layer (-1: none)."""

    def __init__(self, describe: str, exception: int, pc: int, layer: int):
        self.exception, self.pc, self.layer = exception, pc, layer
        what = EXCEPTIONS.get(exception, f"exception {exception}")
        where = f" in layer {layer}" if layer >= 0 else ""
        super().__init__(f"{describe} faulted ({what} at pc 0x{pc:08x}){where} and stopped",
                         "this is mcugen's bug: report it with the model")


class Link:
    """Request/response over a byte stream with pyserial's interface (read(n), write(b), timeout).

    Every failure that retrying cannot fix raises McugenError with one line saying what happened.
    `retries` counts the repeats made so far (tests assert that faults were actually survived).
    """

    def __init__(self, stream: Stream, *, timeout: float = 0.5, attempts: int = 12, describe: str = "the target",
                 wiring: str = ""):
        self.framer = Framer(stream)
        self.wiring = wiring  # which serial of the board the firmware talks on, for the silent-board message
        self.timeout = timeout
        self.attempts = attempts
        self.describe = describe
        self.seq = 0
        self.retries = 0
        self.chunk = MAX_PAYLOAD - 8  # WRITE and READ payload bytes; adapts to the line
        self.slowest_invoke: float | None = None  # seconds, measured

    def request(self, kind: int, payload: bytes | Callable[[], bytes] = b"", expect: int = ACK, timeout: float | None = None,
                until: float | None = None) -> bytes:
        """Send a request and return its reply's payload. `payload` may be a function giving the
        payload for the current chunk size (called per attempt). Attempts: `self.attempts`, or
        as many as fit before the time `until`; each waits `timeout` (default self.timeout)."""
        problem, attempt = "no reply", 0
        self.seq = (self.seq + 1) & 0xFF
        while attempt < self.attempts or (until is not None and time.monotonic() < until):
            if attempt:
                self.retries += 1
                if callable(payload):
                    self.chunk = max(MIN_CHUNK, self.chunk // 2)
                self.framer.resync()
                if kind != INVOKE:
                    self.seq = (self.seq + 1) & 0xFF
            attempt += 1
            try:
                self.framer.send(kind, self.seq, payload() if callable(payload) else payload)
            except ProgramExited as exc:
                raise McugenError(f"{self.describe} crashed ({exc})", CRASH_FIX) from None
            except OSError as exc:
                raise McugenError(f"cannot write to {self.describe}: {exc}",
                                  "check the port and that the board is connected") from None
            deadline = time.monotonic() + (timeout or self.timeout)
            try:
                while True:
                    got_kind, got_seq, body = self.framer.receive(deadline)
                    if got_kind == FAULT and len(body) == 12:
                        exception, pc, layer = struct.unpack("<B3xIi", body)
                        raise TargetFault(self.describe, exception, pc, layer)
                    if got_seq != self.seq:
                        continue  # a stale reply to an earlier request
                    if got_kind == expect:
                        if attempt == 1 and callable(payload):
                            self.chunk = min(MAX_PAYLOAD - 8, self.chunk * 2)
                        return body
                    if got_kind == NAK and body and body[0] == 2:
                        raise McugenError(f"{self.describe} refused a request as out of range",
                                          "the board runs firmware for a different model; run mcugen flash")
                    problem = (f"NAK ({NAK_REASONS.get(body[0], body[0]) if body else '?'})"
                               if got_kind == NAK else f"unexpected reply 0x{got_kind:02x}")
                    break
            except TimeoutError:
                problem = "no reply"
            except BadFrame:
                problem = "corrupted reply"
            except ProgramExited as exc:  # the host program: no port to check, the program itself failed
                raise McugenError(f"{self.describe} crashed ({exc})", CRASH_FIX) from None
            except OSError as exc:
                raise McugenError(f"lost the connection to {self.describe}: {exc}",
                                  "check the port and that the board is powered") from None
        raise McugenError(f"{self.describe} did not answer correctly after {attempt} attempts "
                          f"(last: {problem})", "check the port, the baud rate and that the board runs "
                          "mcugen firmware (mcugen flash)" + (f"; its firmware talks on {self.wiring}" if self.wiring
                                                             else ""))

    # -- requests ----------------------------------------------------------------------------------
    def hello(self) -> TargetInfo:
        blob, total = b"", None
        while total is None or len(blob) < total:
            page = self.request(HELLO, struct.pack("<I", len(blob)), expect=INFO)
            if not page or page[0] != VERSION:
                raise McugenError(f"{self.describe} speaks protocol version {page[0] if page else '?'}, "
                                  f"this mcugen {VERSION}", "rebuild and flash the firmware with this mcugen")
            if len(page) < 5 or (total is not None and struct.unpack_from("<I", page, 1)[0] != total):
                raise McugenError(f"{self.describe} sent an inconsistent description", "run mcugen flash")
            total = struct.unpack_from("<I", page, 1)[0]
            if total > MAX_INFO:
                raise McugenError(f"{self.describe} announces a {total:,}-byte description", "run mcugen flash")
            if len(page) == 5 and len(blob) < total:
                raise McugenError(f"{self.describe} sent an empty page of its description", "run mcugen flash")
            blob += page[5:]
        try:
            return parse_info(blob[:total])
        except struct.error:
            raise McugenError(f"{self.describe} sent a truncated description", "run mcugen flash") from None

    def write_input(self, index: int, data: bytes) -> None:
        offset, sent = 0, [0]

        def payload() -> bytes:
            sent[0] = min(self.chunk, len(data) - offset)
            return struct.pack("<BI", index, offset) + data[offset:offset + sent[0]]

        while offset < len(data):
            self.request(WRITE, payload)
            offset += sent[0]

    def invoke(self, expected_seconds: float, limit: float) -> int:
        """Run one inference. A lost reply is asked for again after a few times the inference time
        (the slowest measured so far, else `expected_seconds`), until `limit` seconds have passed."""
        start = time.monotonic()
        wait = 4 * (self.slowest_invoke or expected_seconds) + self.timeout + 0.5
        body = self.request(INVOKE, expect=RESULT, timeout=min(wait, limit), until=start + limit)
        took = time.monotonic() - start
        self.slowest_invoke = max(self.slowest_invoke or 0.0, took)
        status, cycles = body[0], struct.unpack_from("<Q", body, 4)[0]
        if status != 0:
            raise McugenError(f"{self.describe}: model_invoke returned {status}", "report this with the model")
        return cycles

    def reset(self) -> None:
        """Put the model's state (variables) back to its boot value."""
        self.request(RESET)

    def read(self, region: int, index: int, size: int) -> bytes:
        out, asked = b"", [0]

        def payload() -> bytes:
            asked[0] = min(self.chunk, size - len(out))
            return struct.pack("<BBIH", region, index, len(out), asked[0])

        while len(out) < size:
            body = self.request(READ, payload, expect=DATA)
            if len(body) != asked[0]:
                raise McugenError(f"{self.describe} sent {len(body)} bytes, asked for {asked[0]}",
                                  "the board runs firmware for a different model; run mcugen flash")
            out += body
        return out

    def layer_cycles(self, layers: int) -> list[int]:
        raw = self.read(REGION_LAYER_CYCLES, 0, 8 * layers)
        return list(struct.unpack(f"<{layers}Q", raw))
