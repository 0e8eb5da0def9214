"""What quantizing cost in accuracy, measured with the golden model (bit-exact with the board).

Per layer: the quantized model's output tensor, dequantized, against the float model's tensor of the
same name (the quantizer keeps op outputs' names), over the samples:
  SNR      10 log10(sum f^2 / sum (f - q)^2) in dB (inf where they agree exactly)
  max abs  max |f - q|
  clipped  the share of the float values beyond what the quantized tensor represents (more than half a step
           past its least or greatest value): what the calibrated range cuts off, which no wider type of the
           same range gets back
On the model's outputs: top-1 accuracy on labels, or agreement with the float model's top-1 where
there are none, and the output SNR.
"""
from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from mcugen.validation import golden
from mcugen.validation.inspect_model import precision
from mcugen.ir.graph import Graph
from mcugen.ops.half_layers import SUFFIX
from mcugen.validation.golden import model_inputs, real_values


@dataclass(frozen=True)
class LayerError:
    index: int  # the op's index in the quantized model
    opcode: str
    precision: str
    tensor: str
    snr_db: float | None  # None: the float model has no tensor of that name (QUANTIZE/DEQUANTIZE added)
    max_abs: float | None
    clipped: float | None = None  # share of the float values past the quantized range (None: a float tensor)


@dataclass(frozen=True)
class Accuracy:
    top1: float  # share of samples whose top-1 class is the label's (or the float model's)
    against: str  # "labels" or "float model"
    snr_db: float  # of output 0 against the float model's


def _snr(signal: float, noise: float) -> float:
    if noise == 0:
        return math.inf
    return 10 * math.log10(signal / noise) if signal > 0 else -math.inf


def layer_errors(float_graph: Graph, quantized: Graph, samples) -> list[LayerError]:
    """Each layer's error and clipping over `samples`, the two models run side by side a sample at a time."""
    names = {quantized.tensors[op.outputs[0]].name: op for op in quantized.ops}
    sums = {name: [0.0, 0.0, 0.0, 0, 0, True] for name in names}  # signal, noise, worst, clipped, values, matched
    floats = {name.removesuffix(SUFFIX) for name in names}  # an fp16 layer's output against its float32 tensor's
    runners = golden.Runner(float_graph), golden.Runner(quantized)
    for xs in samples:
        reference, ours = _values(runners[0], xs, floats), _values(runners[1], xs, names)
        for name, total in sums.items():
            f, q = reference.get(name.removesuffix(SUFFIX)), ours.get(name)
            if f is None or q is None or f.size != q.size:
                total[5] = False
                continue
            f, q = f.reshape(-1), q.reshape(-1)
            total[0] += math.fsum(f * f)
            total[1] += math.fsum((f - q) ** 2)
            total[2] = max(total[2], float(np.max(np.abs(f - q))) if f.size else 0.0)
            total[3] += _clipped(quantized, names[name].outputs[0], f)
            total[4] += f.size
    errors = []
    for name, (signal, noise, worst, clipped, count, matched) in sums.items():
        op = names[name]
        t = quantized.tensors[op.outputs[0]]
        quantized_values = t.quant is not None and t.dtype in ("int8", "int16")
        errors.append(LayerError(op.index, op.opcode, precision(quantized, op), name,
                                 _snr(signal, noise) if matched else None, worst if matched else None,
                                 clipped / count if matched and count and quantized_values else None))
    return sorted(errors, key=lambda e: e.index)


def _values(runner: golden.Runner, xs, wanted: Collection[str]) -> dict[str, np.ndarray]:
    """One sample's real values of the op outputs named in `wanted`."""
    g, values = runner.g, {}

    def keep(idx: int, v: np.ndarray) -> None:
        if g.tensors[idx].name in wanted:
            values[g.tensors[idx].name] = real_values(g, idx, v)

    runner.run(model_inputs(g, xs), on_tensor=keep)
    return values


def _clipped(g: Graph, t: int, f: np.ndarray) -> int:
    """How many float values lie more than half a step past the range tensor t represents."""
    tensor = g.tensors[t]
    if tensor.quant is None or tensor.dtype not in ("int8", "int16"):
        return 0
    info = np.iinfo(tensor.dtype)
    s, zp = float(tensor.quant.s), int(tensor.quant.zp)
    low, high = s * (info.min - zp) - s / 2, s * (info.max - zp) + s / 2
    return int(np.count_nonzero((f < low) | (f > high)))


def output_predictions(g: Graph, samples) -> tuple[np.ndarray, list[np.ndarray]]:
    """(top-1 class of output 0 per sample, output 0's real values per sample)."""
    runner, idx = golden.Runner(g), g.outputs[0]
    values = [real_values(g, idx, runner.run(model_inputs(g, xs))[0]).reshape(-1) for xs in samples]
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
