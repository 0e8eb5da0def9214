"""Golden model vs its oracle (TFLM, or LiteRT BUILTIN_REF where TFLM cannot run the model), tensor by
tensor, to find the first layer that differs."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mcugen.validation import golden
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph
from mcugen.passes.check_undefined_reads import defined_elements
from mcugen.validation.oracle import oracle_for


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


def differing(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Where two arrays of one shape differ: floats where their bit patterns do, but any NaN equals
    any other (IEEE leaves a made NaN's sign and payload to the hardware: x86 makes -NaN, Arm +NaN)."""
    if ours.dtype.kind != "f":
        return ours != theirs
    bits = f"u{ours.itemsize}"
    return (ours.view(bits) != theirs.view(bits)) & ~(np.isnan(ours) & np.isnan(theirs))


def differences(ours: np.ndarray, theirs: np.ndarray) -> tuple[int, float]:
    """(elements that differ, max abs difference), as `differing` judges them."""
    if ours.dtype.kind == "f":
        differ = differing(ours, theirs)
        with np.errstate(invalid="ignore"):  # inf - inf where both are infinite
            gap = np.abs(ours.astype(np.float64) - theirs.astype(np.float64))[differ]
        return int(np.count_nonzero(differ)), float(np.nan_to_num(gap, nan=np.inf).max(initial=0.0))
    diff = np.abs(ours.astype(np.int64) - theirs.astype(np.int64))
    return int(np.count_nonzero(diff)), int(diff.max(initial=0))


def compare_with_tflm(g: Graph, model_path: Path, samples, progress=None) -> Mismatch | None:
    """Golden vs TFLM itself (tests: the target, bit for bit); McugenError where TFLM refuses the model."""
    from mcugen.validation.oracle import Tflm

    return compare_layers(g, Tflm(model_path, preserve_all_tensors=True, signature=g.signature), samples, progress)


def compare_with_oracle(g: Graph, model_path: Path, samples, progress=None) -> tuple[str, Mismatch | None]:
    """(which oracle and why, the first mismatch or None); McugenError where no oracle runs the model."""
    oracle, which = oracle_for(model_path, preserve_all_tensors=True, signature=g.signature)
    if oracle is None:
        raise McugenError(f"no oracle can run this model to check the golden model against: {which}",
                          "mcugen test still validates the target against the golden model")
    return which, compare_layers(g, oracle, samples, progress)


def compare_layers(g: Graph, oracle, samples, progress=None) -> Mismatch | None:
    producers = {out: op for op in g.ops for out in op.outputs}
    masks = defined_elements(g)
    runner = golden.Runner(g)
    for s, inputs in enumerate(samples):
        seen: list[tuple[int, np.ndarray]] = []
        runner.run(inputs, on_tensor=lambda idx, v: seen.append((idx, v)))  # noqa: B023 - used before the next
        oracle.run(inputs, 0)  # every tensor is read below
        for (idx, ours), theirs in zip(seen, oracle.tensors([idx for idx, _ in seen])):
            op = producers[idx]
            theirs = theirs.reshape(ours.shape)
            if idx in masks:  # what TFLM leaves undefined is not compared
                ours, theirs = ours[masks[idx]], theirs[masks[idx]]
            differing, worst = differences(ours, theirs.astype(ours.dtype))
            if differing:
                return Mismatch(s, idx, g.tensors[idx].name, op.origin, op.opcode, worst, differing, ours.size)
        if progress:
            progress(s + 1, len(samples))
    return None
