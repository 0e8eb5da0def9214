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
    max_abs_diff: int
    differing: int
    total: int

    def __str__(self) -> str:
        return (f"first mismatch on sample {self.sample}: tensor {self.tensor} '{self.name}' "
                f"(op {self.op_index} {self.opcode}): {self.differing} of {self.total} elements "
                f"differ, max abs diff {self.max_abs_diff}")


def random_inputs(g: Graph, samples: int, seed: int) -> list[list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [[rng.integers(-128, 128, size=g.tensors[i].shape, dtype=np.int8) for i in g.inputs]
            for _ in range(samples)]


def load_samples(g: Graph, path: Path) -> list[list[np.ndarray]]:
    """Samples from an .npz with one array per model input (input_0, input_1, … or the
    input's tensor name), each shaped like the input, or with a leading sample axis
    ([N, *shape]), or, for a batch-1 input, stacked along the batch ([N, *shape[1:]])."""
    try:
        data = np.load(path)
        keys = list(data.keys())
    except (OSError, ValueError) as exc:
        raise McugenError(f"{path}: cannot read as .npz ({exc})",
                          "save inputs with numpy.savez(path, input_0=array, …)") from None
    per_input = []
    for k, idx in enumerate(g.inputs):
        t = g.tensors[idx]
        key = next((c for c in (f"input_{k}", t.name) if c in keys),
                   keys[0] if len(g.inputs) == 1 and len(keys) == 1 else None)
        if key is None:
            raise McugenError(f"{path}: no array for input {k} ('{t.name}')",
                              f"name it input_{k}; the file has {', '.join(keys) or 'no arrays'}")
        a = data[key]
        if tuple(a.shape) == t.shape:
            a = a[None]
        elif t.shape and t.shape[0] == 1 and tuple(a.shape[1:]) == t.shape[1:]:
            a = a[:, None]
        if a.dtype != np.int8 or tuple(a.shape[1:]) != t.shape:
            raise McugenError(f"{path}: '{key}' is {golden.describe(str(a.dtype), a.shape)}, input {k} "
                              f"needs {golden.describe(t.dtype, t.shape)} or [N, …] of it",
                              "quantize with the input's scale and zero point")
        per_input.append(a)
    count = {len(a) for a in per_input}
    if len(count) != 1:
        raise McugenError(f"{path}: inputs have different sample counts {sorted(count)}",
                          "give every input the same number of samples")
    return [[a[s] for a in per_input] for s in range(count.pop())]


def compare_with_tflm(g: Graph, model_path: Path, samples: list[list[np.ndarray]],
                      progress=None) -> Mismatch | None:
    tflm = Tflm(model_path, preserve_all_tensors=True)
    producers = {out: op for op in g.ops for out in op.outputs}
    runner = golden.Runner(g)
    for s, inputs in enumerate(samples):
        seen: list[tuple[int, np.ndarray]] = []
        runner.run(inputs, on_tensor=lambda idx, v, seen=seen: seen.append((idx, v)))
        tflm.run(inputs, len(g.outputs))
        for idx, ours in seen:
            theirs = tflm.tensor(idx).reshape(ours.shape)
            diff = np.abs(ours.astype(np.int64) - theirs.astype(np.int64))
            if diff.any():
                op = producers[idx]
                return Mismatch(s, idx, g.tensors[idx].name, op.index, op.opcode,
                                int(diff.max()), int(np.count_nonzero(diff)), diff.size)
        if progress:
            progress(s + 1, len(samples))
    return None
