"""The generated C of every model in the tests, for the reference kernels, the DSP extension and Helium, is
byte-identical to what tests/generated_c.sha256.json records: a refactoring of the pipeline changes none of
it unless it means to (then `UPDATE_GOLDEN=1 python -m pytest tests/test_generated_c.py` records the new
hashes, and the diff shows which models and feature sets moved)."""
from __future__ import annotations

import hashlib
import json
import os

from conftest import ROOT
from mcugen.codegen.emit_c import emit_c
from mcugen.errors import McugenError
from mcugen.codegen.pipeline import compile_model

RECORD = ROOT / "tests" / "generated_c.sha256.json"
FEATURE_SETS = {"reference": frozenset(), "dsp": frozenset({"dsp"}), "dsp+mve": frozenset({"dsp", "mve"})}


def generated_hashes() -> dict[str, str]:
    models = sorted((ROOT / "tests" / "models").glob("*.tflite")) + sorted((ROOT / "tests" / "models" / "real").glob("*.tflite"))
    hashes = {}
    for model in models:
        for label, features in FEATURE_SETS.items():
            key = f"{model.relative_to(ROOT / 'tests' / 'models')} {label}"
            try:
                files = emit_c(compile_model(model, features=features), model.name).files
            except McugenError as exc:  # a model mcugen refuses stays refused, for the same reason
                hashes[key] = f"refused: {exc.problem}"
                continue
            h = hashlib.sha256()
            for name in sorted(files):
                h.update(name.encode() + b"\0" + files[name].encode() + b"\0")
            hashes[key] = h.hexdigest()
    return hashes


def test_the_generated_c_is_what_the_record_says():
    hashes = generated_hashes()
    if os.environ.get("UPDATE_GOLDEN"):
        RECORD.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(RECORD.read_text())
    changed = sorted(k for k in hashes.keys() | recorded.keys() if hashes.get(k) != recorded.get(k))
    assert not changed, f"the generated C changed for {changed[:6]}{' ...' if len(changed) > 6 else ''}"
