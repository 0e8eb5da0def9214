"""What quantizing cost in accuracy, measured with the golden model (bit-exact with the board).

Per layer: the quantized model's output tensor, dequantized, against the float model's tensor of the
same name (the quantizer keeps op outputs' names), over the samples:
  SNR      10 log10(sum f^2 / sum (f - q)^2) in dB (inf where they agree exactly)
  max abs  max |f - q|
On the model's outputs: top-1 accuracy on labels, or agreement with the float model's top-1 where
there are none, and the output SNR.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mcugen.validation import golden
from mcugen.validation.inspect_model import precision
from mcugen.ir.graph import Graph
from mcugen.validation.golden import model_inputs, real_values


@dataclass(frozen=True)
class LayerError:
    index: int  # the op's index in the quantized model
    opcode: str
    precision: str
    tensor: str
    snr_db: float | None  # None: the float model has no tensor of that name (QUANTIZE/DEQUANTIZE added)
    max_abs: float | None


@dataclass(frozen=True)
class Accuracy:
    top1: float  # share of samples whose top-1 class is the label's (or the float model's)
    against: str  # "labels" or "float model"
    snr_db: float  # of output 0 against the float model's


def _snr(signal: float, noise: float) -> float:
    if noise == 0:
        return math.inf
    return 10 * math.log10(signal / noise) if signal > 0 else -math.inf


def _run(g: Graph, samples, every_layer: bool) -> list[dict[str, np.ndarray]]:
    """Per sample, real values by tensor name (every op's outputs, or the model's)."""
    runner = golden.Runner(g)
    wanted = {t for op in g.ops for t in op.outputs} if every_layer else set(g.outputs)
    seen = []
    for xs in samples:
        values: dict[str, np.ndarray] = {}

        def keep(idx: int, v: np.ndarray) -> None:
            if idx in wanted:
                values[g.tensors[idx].name] = real_values(g, idx, v)

        outputs = runner.run(model_inputs(g, xs), on_tensor=keep if every_layer else None)
        for idx, v in zip(g.outputs, outputs):
            values[g.tensors[idx].name] = real_values(g, idx, v)
        seen.append(values)
    return seen


def layer_errors(float_graph: Graph, quantized: Graph, samples) -> list[LayerError]:
    reference = _run(float_graph, samples, every_layer=True)
    ours = _run(quantized, samples, every_layer=True)
    errors = []
    for op in quantized.ops:
        name = quantized.tensors[op.outputs[0]].name
        signal = noise = worst = 0.0
        matched = all(name in r and r[name].size == o[name].size for r, o in zip(reference, ours))
        if matched:
            for r, o in zip(reference, ours):
                f, q = r[name].reshape(-1), o[name].reshape(-1)
                signal += math.fsum(f * f)
                noise += math.fsum((f - q) ** 2)
                worst = max(worst, float(np.max(np.abs(f - q))) if f.size else 0.0)
        errors.append(LayerError(op.index, op.opcode, precision(quantized, op), name,
                                 _snr(signal, noise) if matched else None, worst if matched else None))
    return errors


def output_predictions(g: Graph, samples) -> tuple[np.ndarray, list[np.ndarray]]:
    """(top-1 class of output 0 per sample, output 0's real values per sample)."""
    values = [v[g.tensors[g.outputs[0]].name].reshape(-1) for v in _run(g, samples, every_layer=False)]
    return np.array([int(np.argmax(v)) for v in values]), values


@dataclass(frozen=True)
class Tally:
    """What accuracy is made of, per sample in order, so that slices of the samples (--shard) add up to
    exactly what the whole gives: whether each top-1 is right, output 0's energy and error energy."""

    right: tuple[bool, ...]
    signal: tuple[float, ...]
    noise: tuple[float, ...]

    @staticmethod
    def joined(parts: list["Tally"]) -> "Tally":
        return Tally(*(tuple(v for part in parts for v in getattr(part, name)) for name in ("right", "signal", "noise")))

    def accuracy(self, against: str) -> Accuracy:
        return Accuracy(float(np.mean(self.right)) if self.right else 0.0, against,
                        _snr(math.fsum(self.signal), math.fsum(self.noise)))


def tally(g: Graph, samples, reference: tuple[np.ndarray, list[np.ndarray]], labels: np.ndarray | None) -> Tally:
    """`reference`: output_predictions of the float model on the same samples; `labels` theirs."""
    top1, values = output_predictions(g, samples)
    wanted = labels if labels is not None else reference[0]
    return Tally(tuple(bool(v) for v in top1 == wanted), tuple(math.fsum(f * f) for f in reference[1]),
                 tuple(math.fsum((f - v) ** 2) for f, v in zip(reference[1], values)))


def accuracy(g: Graph, samples, reference: tuple[np.ndarray, list[np.ndarray]],
             labels: np.ndarray | None) -> Accuracy:
    """`reference`: output_predictions of the float model on the same samples."""
    return tally(g, samples, reference, labels).accuracy("labels" if labels is not None else "float model")
