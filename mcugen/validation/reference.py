"""`test --reference FLOAT.tflite`: the model the tested one was quantized from, run by the golden model
on the same samples, so that the report measures what quantizing cost (as `stedgeai validate` measures
the C model against the original one) beside what the target computes against the golden model.

The reference sees each sample as the user gave it: float data as it is (the tested model's inputs are
those values quantized), integer data and random inputs as their real values (scale * (q - zero point)).
Its outputs are compared in real values, output by output, so the two models must have the same inputs
and outputs, shape for shape.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.graph import Graph
from mcugen.validation import golden
from mcugen.validation.accuracy import versus_reference


@dataclass(frozen=True)
class Reference:
    graph: Graph
    model: str  # the file's name, as the report names the tested model's

    @property
    def identity(self) -> dict:
        return dict(model=self.model, model_sha256=self.graph.sha256)


def load_reference(path: Path, tested: Graph, signature: str | None) -> Reference:
    """The reference model, refused in one line where it cannot stand beside `tested`."""
    from mcugen.codegen.pipeline import lower

    fix = "pass the float .tflite the tested model was quantized from (same inputs and outputs)"
    if not path.is_file():
        raise McugenError(f"--reference {path}: no such file", fix)
    ref = lower(path, (), signature)
    for kind, ours, theirs in (("input", tested.inputs, ref.inputs), ("output", tested.outputs, ref.outputs)):
        if len(ours) != len(theirs):
            raise McugenError(f"--reference {path.name} has {len(theirs)} {kind}(s), the tested model {len(ours)}", fix)
        for k, (a, b) in enumerate(zip(ours, theirs)):
            if tested.tensors[a].shape != ref.tensors[b].shape:
                raise McugenError(f"--reference {path.name}: {kind} {k} is {list(ref.tensors[b].shape)}, the tested "
                                  f"model's {list(tested.tensors[a].shape)}", fix)
    return Reference(ref, path.name)


def judge_against(reference: Reference, tested: Graph, samples, results, labels, reset_every: int | None) -> None:
    """Each result's sample run on the reference (in sample order, its state reset where the target's was),
    its judgement extended with the tested model's outputs against the reference's."""
    ref = reference.graph
    runner = golden.Runner(ref)
    for n, r in enumerate(results):
        if n and reset_every and r.index % reset_every == 0:
            runner.reset()
        outputs = runner.run(golden.model_inputs(ref, real_inputs(tested, samples, r.index)))
        real = [golden.real_values(ref, idx, v) for idx, v in zip(ref.outputs, outputs)]
        r.judged["reference"] = versus_reference(tested, r.values, real, None if labels is None else labels[r.index])


def real_inputs(g: Graph, samples, s: int) -> list[np.ndarray]:
    """Sample s in real values: float data as given, integers as scale * (q - zero point)."""
    given = getattr(samples, "quantized", {})
    inputs = samples[s]
    return [np.asarray(samples.per_input[k][s], dtype=np.float64) if k in given else golden.real_values(g, idx, x)
            for k, (idx, x) in enumerate(zip(g.inputs, inputs))]
