"""Real sample inputs from tests/models/samples, quantized as their README says."""
from __future__ import annotations

from pathlib import Path

import numpy as np


def person_bmp(path: Path) -> np.ndarray:
    """96x96 8-bit grayscale BMP (pixel data at its header's offset, rows bottom-up) as pixel-128."""
    raw = path.read_bytes()
    offset = int.from_bytes(raw[10:14], "little")
    pixels = np.frombuffer(raw, dtype=np.uint8, count=96 * 96, offset=offset).reshape(96, 96)[::-1]
    return (pixels.astype(np.int16) - 128).astype(np.int8).reshape(1, 96, 96, 1)


def ad_frames(path: Path, scale: float, zero_point: int, count: int = 5) -> list[np.ndarray]:
    """The first frames of the MLPerf AD sample (float32 [40, 640]) quantized to int8."""
    frames = np.fromfile(path, dtype="<f4").reshape(40, 640)[:count]
    q = np.clip(np.round(frames / scale) + zero_point, -128, 127).astype(np.int8)
    return [f.reshape(1, 640) for f in q]
