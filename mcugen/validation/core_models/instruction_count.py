"""A core without a timing table: every instruction costs one, so the estimate counts instructions."""
from __future__ import annotations

import numpy as np

from mcugen.validation.disassembly import Decoded

FIELDS = ("size",)


def describe(insn: Decoded, timing: None) -> tuple[int, ...]:
    return (insn.size,)


def costs(c: dict[str, np.ndarray], before2: np.ndarray, before: np.ndarray, now: np.ndarray,
          jumped: np.ndarray, timing: None, carried: dict) -> np.ndarray:
    return np.ones(len(now), dtype=np.int64)
