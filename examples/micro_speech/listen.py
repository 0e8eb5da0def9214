"""TFLM's micro_speech example end to end with mcugen: a one-second WAV cut into 49 frames of 30 ms every
20 ms, each through the audio front end (audio_preprocessor_int8.tflite: window, FFT, mel filter bank,
noise reduction, PCAN, log; its noise estimate carried from frame to frame), the 49 x 40 features through
the keyword model (micro_speech_quantized.tflite), its verdict printed.

    python listen.py yes_1000ms.wav                      # mcugen's golden model (bit-exact with TFLM)
    python listen.py yes_1000ms.wav --board mps2-an386   # the front end's firmware on the emulated M4

With --board, the front end's firmware is built and run on the board (mcugen test does the same and
checks every frame against the golden model); the features it produced feed the keyword model.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

from mcugen.validation import golden
from mcugen.codegen.pipeline import lower

HERE = Path(__file__).resolve().parent
LABELS = ("silence", "unknown", "yes", "no")


def frames(wav: Path) -> np.ndarray:
    with wave.open(str(wav)) as w:
        if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (16000, 1, 2):
            sys.exit(f"{wav}: a 16 kHz mono 16-bit WAV is what the front end takes")
        audio = np.frombuffer(w.readframes(w.getnframes()), np.int16)
    return np.stack([audio[k:k + 480].reshape(1, 480) for k in range(0, len(audio) - 480, 320)][:49])


def features_on_board(frames_: np.ndarray, board: str) -> np.ndarray:
    """The front end's firmware built for `board` and fed the frames in order by `mcugen test`, which fails
    unless every frame's features equal the golden model's: so the golden model's are the board's."""
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "frames.npz"
        np.savez(data, input_0=frames_)
        subprocess.run([sys.executable, "-m", "mcugen", "test", str(HERE / "audio_preprocessor_int8.tflite"),
                        "--board", board, "--data", str(data), "--out", str(Path(work) / "fw")], check=True)
    return features_in_python(frames_)


def features_in_python(frames_: np.ndarray) -> np.ndarray:
    runner = golden.Runner(lower(HERE / "audio_preprocessor_int8.tflite"))
    return np.stack([runner.run([f])[0] for f in frames_])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wav", type=Path, help="a one-second 16 kHz mono WAV")
    parser.add_argument("--board", help="run the front end on this board's firmware too (e.g. mps2-an386)")
    args = parser.parse_args()
    f = frames(args.wav)
    features = features_on_board(f, args.board) if args.board else features_in_python(f)
    g = lower(HERE / "micro_speech_quantized.tflite")
    scores = golden.run(g, [features.reshape(1, 1960).astype(np.int8)])[0].reshape(-1)
    best = int(np.argmax(scores))
    print(f"{args.wav.name}: {LABELS[best]} (scores {', '.join(f'{n} {int(s) + 128}' for n, s in zip(LABELS, scores))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
