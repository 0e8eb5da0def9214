"""What the dual-issuing models share: which instructions of a stretch issue with the one before."""
from __future__ import annotations

import numpy as np


def paired(pairs: np.ndarray, carried: dict) -> np.ndarray:
    """`pairs[k]`: instruction k could issue with the one before it. In a run of such instructions,
    every other one does (the first with the one before the run, the third with the second, ...),
    unless the run continues one of the stretch before whose last instruction was issued with its own
    predecessor (`carried["paired"]`)."""
    index = np.arange(len(pairs))
    last_break = np.maximum.accumulate(np.where(~pairs, index, -1))
    offset = index - last_break - 1 + ((last_break < 0) & carried.get("paired", False))
    found = pairs & (offset % 2 == 0)
    carried["paired"] = bool(found[-1]) if len(found) else carried.get("paired", False)
    return found


def after_a_jump(jumped: np.ndarray, carried: dict) -> np.ndarray:
    """Whether the instruction before each one jumped (nothing issues with a taken branch's successor)."""
    before = np.concatenate([[carried.get("jumped", False)], jumped[:-1]])
    carried["jumped"] = bool(jumped[-1]) if len(jumped) else carried.get("jumped", False)
    return before
