"""The repository stands alone: a user who clones it has nothing beside it, so no code, test, script or
configuration file may reach outside it for models, samples or facts."""
from __future__ import annotations

import subprocess

from conftest import ROOT

# spelled in pieces so that this file does not match itself
OUTSIDE = "../" + "shared"
PATTERNS = [OUTSIDE.encode(), b'parent / "' + b'shared"', b'parents[2] / "' + b'shared"']
PROSE = {".md"}  # documentation may say where a copied file came from


def tracked_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\n")
    return [name for name in listed if name and (ROOT / name).is_file()]


def test_nothing_in_the_repository_refers_outside_it():
    offenders = []
    for name in tracked_files():
        path = ROOT / name
        if path.suffix in PROSE:
            continue
        text = path.read_bytes()
        if b"\0" in text[:4096]:  # models, pictures
            continue
        if any(pattern in text for pattern in PATTERNS):
            offenders.append(name)
    assert offenders == [], f"files that refer to {OUTSIDE}: {offenders}"


def test_every_model_a_test_names_is_in_the_repository():
    models = ROOT / "tests" / "models"
    readme = (models / "README.md").read_text() + (models / "real" / "README.md").read_text()
    for model in sorted(models.rglob("*.tflite")):
        # provenance and licence for every file, by its name
        assert model.name.removesuffix(".tflite") in readme, f"{model.name} has no provenance entry"
