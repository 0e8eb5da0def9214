"""Generated C on the host: every model in tests/models, host C == golden == TFLM bit for bit, also under
AddressSanitizer and UndefinedBehaviorSanitizer; the arena plan never overlaps live tensors."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import OBJECT_CACHE, MODELS
from mcugen.validation import golden
from mcugen.validation.compare import random_inputs
from mcugen.validation.oracle import Tflm
from mcugen.codegen.pipeline import compile_model
from mcugen.codegen.build import build_host
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from samples import ad_frames, person_bmp

NAMES = sorted(p.name for p in MODELS.glob("*.tflite"))


def real_samples(name: str, g) -> list:
    samples = MODELS / "samples"
    if name.startswith("tflm_person_detect"):
        return [[person_bmp(samples / f)] for f in ("person_detect_person.bmp", "person_detect_no_person.bmp")]
    if name == "mlperf_ad_autoencoder.tflite":
        q = g.tensors[g.inputs[0]].quant
        return [[x] for x in ad_frames(samples / "ad01_normal_id_01_00000000_hist_librosa.bin", q.s, q.zp)[:3]]
    return []


@pytest.mark.parametrize("name", NAMES)
def test_host_c_equals_golden_and_tflm(models, tmp_path, name):
    path = models / name
    g = compile_model(path)
    samples = random_inputs(g, 2, seed=7) + real_samples(name, g)
    result = build_host(g, tmp_path, name, object_cache=OBJECT_CACHE)
    _, results = run_on_target(Target.of("host"), result.program, g, samples)
    assert [r.passed for r in results] == [True] * len(samples), [r.outputs for r in results]
    # golden == TFLM on these very samples, so host C == TFLM too (one run after the other, as the state
    # of a stateful model carries over in both)
    tflm, runner = Tflm(path), golden.Runner(g)
    for xs in samples:
        for ours, theirs in zip(runner.run(xs), tflm.run(xs, len(g.outputs))):
            np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("name", NAMES)
def test_sanitizers_report_nothing(models, tmp_path, name):
    g = compile_model(models / name)
    result = build_host(g, tmp_path, name, sanitize=True, object_cache=OBJECT_CACHE)
    # run_on_target fails if the process exits non-zero: -fno-sanitize-recover turns any report into one
    _, results = run_on_target(Target.of("host"), result.program, g, random_inputs(g, 1, seed=3))
    assert results[0].passed


@pytest.mark.parametrize("name", NAMES)
def test_arena_plan_never_overlaps_live_tensors(models, name):
    g = compile_model(models / name)
    plan = g.arena.plan
    assert plan.conflicts() == []
    busiest = max(sum(b.size for b in plan.buffers if b.first <= s <= b.last) for s in range(len(g.ops) + 1))
    assert plan.size >= busiest  # otherwise conflicts() would have missed something
    # every activation tensor has a place, and aliases (RESHAPE) share their input's
    for op in g.ops:
        if op.call is None:
            assert g.arena.buffer_of[op.outputs[0]] == g.arena.buffer_of[op.inputs[0]]
