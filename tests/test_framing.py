"""The framer alone, byte by byte: what arrives on the wire in front of, inside and behind frames."""
from __future__ import annotations

import io
import time

import pytest

from mcugen.targets.framing import MAX_PAYLOAD, SYNC, BadFrame, Framer, encode


class Wire(io.BytesIO):
    """Bytes as a serial port delivers them: what is there, else nothing (and the reader times out)."""


def frames(data: bytes, count: int, seconds: float = 0.2) -> list:
    framer, got = Framer(Wire(data)), []
    for _ in range(count):
        try:
            got.append(framer.receive(time.monotonic() + seconds))
        except (TimeoutError, BadFrame) as exc:
            got.append(type(exc).__name__)
    return got


def test_a_frame_round_trips_with_every_payload_size():
    for size in (0, 1, 17, MAX_PAYLOAD):
        payload = bytes(range(256))[:size]
        assert frames(encode(0x84, 200, payload), 1) == [(0x84, 200, payload)]


def test_noise_and_stray_sync_bytes_in_front_do_not_swallow_the_frame():
    good = encode(0x82, 7, b"ok")
    for noise in (b"\x00\xff" * 9, SYNC, SYNC + b"\x01", SYNC * 3, b"\xa5" * 5, SYNC + b"\x82\x07\xff\xff"):
        assert frames(noise + good, 1) == [(0x82, 7, b"ok")], noise


def test_a_corrupted_frame_is_reported_and_the_next_one_still_read():
    bad = bytearray(encode(0x83, 1, b"abc"))
    bad[7] ^= 0x40
    assert frames(bytes(bad) + encode(0x83, 2, b"abc"), 2) == ["BadFrame", (0x83, 2, b"abc")]
    assert frames(bytes(bad), 1) == ["BadFrame"]


def test_a_length_past_the_largest_payload_is_not_waited_for():
    oversized = SYNC + bytes([0x84, 3]) + (MAX_PAYLOAD + 1).to_bytes(2, "little")
    assert frames(oversized + encode(0x84, 4, b"x"), 1) == [(0x84, 4, b"x")]


def test_a_frame_cut_short_times_out_and_back_to_back_frames_all_arrive():
    whole = encode(0x81, 9, b"info")
    assert frames(whole[:-3], 1) == ["TimeoutError"]
    assert frames(b"".join(encode(0x82, k) for k in range(5)), 5) == [(0x82, k, b"") for k in range(5)]


def test_resync_sends_a_frames_worth_of_zeros_and_drops_what_was_in_flight():
    wire = Wire(encode(0x82, 1))
    framer = Framer(wire)
    framer.resync()
    assert wire.getvalue()[-(MAX_PAYLOAD + 10):] == bytes(MAX_PAYLOAD + 10)
    with pytest.raises(TimeoutError):
        framer.receive(time.monotonic() + 0.1)
