"""The types of mcugen's command-line arguments: each parses one value or says, in argparse's one line, why
it is none."""
from __future__ import annotations

import argparse


def sample_count(text: str) -> int:
    """Zero samples would make a validation that tests nothing pass."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a sample count >= 1")
    return value


def patches(text: str) -> str:
    """auto, off, a number of bands from 2, or bands x columns (RxC, 1 to 256 each, two patches at least)."""
    rows, cross, columns = text.partition("x")
    if text in ("auto", "off") or (rows.isdigit() and (not cross or columns.isdigit()) and
                                   1 <= int(rows) <= 256 and 1 <= int(columns or 1) <= 256 and
                                   int(rows) * int(columns or 1) >= 2 and int(rows) >= (1 if cross else 2)):
        return text
    raise argparse.ArgumentTypeError(f"{text!r} is not auto, off, a number of bands from 2 to 256 or a grid RxC "
                                     "(bands by columns, e.g. 6x6)")


def byte_count(text: str) -> int:
    """A positive number of bytes."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of bytes (a whole number from 1)")
    return int(text)


def points(text: str) -> float:
    """An accuracy drop in percentage points: 0 to 100."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 100.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a drop in percentage points from 0 to 100")
    return value


def job_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of jobs from 1 to 64")
    return value


def shard(text: str) -> tuple[int, int]:
    from mcugen.validation.dataset import parse_shard

    return as_argument(parse_shard, text)


def serial(text: str) -> tuple[str, int | None]:
    from mcugen.targets.serve import parse_serial

    return as_argument(parse_serial, text)


def as_argument(parse, text: str):
    """parse(text), its ValueError argparse's one line."""
    try:
        return parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
