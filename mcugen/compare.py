"""Golden model vs TFLM, tensor by tensor, to find the first layer that differs."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mcugen import golden
from mcugen.errors import McugenError
from mcugen.ir import Graph
from mcugen.oracle import Tflm


@dataclass
class Mismatch:
    sample: int
    tensor: int
    name: str
    op_index: int
    opcode: str
    max_abs_diff: float
    differing: int
    total: int

    def __str__(self) -> str:
        return (f"first mismatch on sample {self.sample}: tensor {self.tensor} '{self.name}' "
                f"(op {self.op_index} {self.opcode}): {self.differing} of {self.total} elements "
                f"differ, max abs diff {self.max_abs_diff}")


def float_input_range(g: Graph, index: int) -> tuple[float, float]:
    """Where a float input's values matter: what the QUANTIZE reading it maps onto int8, widened by
    a tenth on each side so that saturation is exercised too."""
    for op in g.ops:
        y = op.output(g) if op.outputs else None
        if index in op.inputs and y is not None and y.quant is not None and y.dtype == "int8":
            lo, hi = y.quant.s * (-128 - y.quant.zp), y.quant.s * (127 - y.quant.zp)
            return lo - 0.1 * (hi - lo), hi + 0.1 * (hi - lo)
    return -1.0, 1.0


def random_input(g: Graph, index: int, rng: np.random.Generator) -> np.ndarray:
    t = g.tensors[index]
    if t.dtype == "float32":
        lo, hi = float_input_range(g, index)
        return rng.uniform(lo, hi, size=t.shape).astype(np.float32)
    info = np.iinfo(t.dtype)
    return rng.integers(info.min, info.max + 1, size=t.shape, dtype=t.dtype)


def random_inputs(g: Graph, samples: int, seed: int) -> list[list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [[random_input(g, i, rng) for i in g.inputs] for _ in range(samples)]


def differences(ours: np.ndarray, theirs: np.ndarray) -> tuple[int, float]:
    """(elements that differ, max abs difference); floats differ when their bit patterns do."""
    if ours.dtype.kind == "f":
        differ = ours.view(f"u{ours.itemsize}") != theirs.view(f"u{theirs.itemsize}")
        gap = np.abs(ours.astype(np.float64) - theirs.astype(np.float64))[differ]
        return int(np.count_nonzero(differ)), float(np.nan_to_num(gap, nan=np.inf).max(initial=0.0))
    diff = np.abs(ours.astype(np.int64) - theirs.astype(np.int64))
    return int(np.count_nonzero(diff)), int(diff.max(initial=0))


def load_samples(g: Graph, path: Path) -> tuple[list[list[np.ndarray]], bool]:
    """Samples for `run`, `compare` and `test`, from one file, checked before any work is done:
    - an .npz with one array per model input, named input_0, input_1, … or by the input's tensor
      name (every array must name an input);
    - or, for a one-input model, an .npy.
    Each array is shaped like its input, or has a leading sample axis ([N, *shape]), or, for a
    batch-1 input, holds N samples along the batch ([N, *shape[1:]]). Returns the samples and
    whether the file had a sample axis."""
    fix = "save inputs with numpy.savez(path, input_0=array, …)" + (
        " or numpy.save for this one-input model" if len(g.inputs) == 1 else "")
    try:
        data = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise McugenError(f"{path}: no such file", "check the path of the input data") from None
    except (OSError, ValueError, EOFError) as exc:
        raise McugenError(f"{path}: cannot read as .npz or .npy ({exc})", fix) from None
    if isinstance(data, np.ndarray):
        if len(g.inputs) != 1:
            raise McugenError(f"{path}: one array for a model with {len(g.inputs)} inputs", fix)
        arrays = {"input_0": data}
    else:
        arrays = {key: data[key] for key in data.files}
    names = {g.tensors[idx].name: k for k, idx in enumerate(g.inputs)}
    for k in range(len(g.inputs)):
        if names.setdefault(f"input_{k}", k) != k and f"input_{k}" in arrays:
            # Keras names its inputs input_1, input_2, …: the key could mean either input
            raise McugenError(f"{path}: 'input_{k}' is both input {k} and the name of input {names[f'input_{k}']}",
                              "key the arrays by input name only")
    unknown = sorted(set(arrays) - set(names))
    if unknown:
        raise McugenError(f"{path}: array '{unknown[0]}' names no input of the model",
                          f"name arrays input_0 … input_{len(g.inputs) - 1} or by input name")
    per_input, stacked = [], False
    for k, idx in enumerate(g.inputs):
        t = g.tensors[idx]
        keys = [key for key in arrays if names[key] == k]
        if len(keys) != 1:
            raise McugenError(f"{path}: {'no array' if not keys else 'two arrays'} for input {k} ('{t.name}')", fix)
        given = arrays[keys[0]]
        if given.dtype != np.dtype(t.dtype):
            a = None
        elif tuple(given.shape) == t.shape:
            a = given[None]
        elif tuple(given.shape[1:]) == t.shape:
            a, stacked = given, True
        elif t.shape and t.shape[0] == 1 and given.ndim == len(t.shape) and tuple(given.shape[1:]) == t.shape[1:]:
            a, stacked = given[:, None], True
        else:
            a = None
        if a is None or len(a) == 0:
            raise McugenError(f"{path}: '{keys[0]}' is {golden.describe(str(given.dtype), given.shape)}, input {k} "
                              f"needs {golden.describe(t.dtype, t.shape)} or [N, …] of it (N >= 1)",
                              "quantize with the input's scale and zero point" if t.dtype != "float32"
                              else "save the model's float32 inputs as they are")
        per_input.append(a)
    count = {len(a) for a in per_input}
    if len(count) != 1:
        raise McugenError(f"{path}: inputs have different sample counts {sorted(count)}",
                          "give every input the same number of samples")
    return [[a[s] for a in per_input] for s in range(count.pop())], stacked


def compare_with_tflm(g: Graph, model_path: Path, samples: list[list[np.ndarray]],
                      progress=None) -> Mismatch | None:
    tflm = Tflm(model_path, preserve_all_tensors=True)
    producers = {out: op for op in g.ops for out in op.outputs}
    runner = golden.Runner(g)
    for s, inputs in enumerate(samples):
        seen: list[tuple[int, np.ndarray]] = []
        runner.run(inputs, on_tensor=lambda idx, v, seen=seen: seen.append((idx, v)))
        tflm.run(inputs, len(g.outputs))
        for (idx, ours), theirs in zip(seen, tflm.tensors([idx for idx, _ in seen])):
            theirs = theirs.reshape(ours.shape)
            differing, worst = differences(ours, theirs.astype(ours.dtype))
            if differing:
                op = producers[idx]
                return Mismatch(s, idx, g.tensors[idx].name, op.origin, op.opcode, worst, differing, ours.size)
        if progress:
            progress(s + 1, len(samples))
    return None
